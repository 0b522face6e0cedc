package api

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Object is any API object: it carries TypeMeta and ObjectMeta.
type Object interface {
	GetTypeMeta() *TypeMeta
	GetObjectMeta() *ObjectMeta
}

// GetTypeMeta returns the object's type metadata.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }

// GetObjectMeta returns the object's metadata.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// Kind describes one kind DaemonLab serves.
type Kind struct {
	Group      string // "" for the core group
	Version    string
	Kind       string
	Resource   string // plural, lower case: "daemonsets"
	Namespaced bool
	New        func() Object
}

// APIVersion returns "v1" or "apps/v1".
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// GroupResource returns "daemonsets.apps" or "pods", as API errors name a resource.
func (k Kind) GroupResource() string {
	if k.Group == "" {
		return k.Resource
	}
	return k.Resource + "." + k.Group
}

// Kinds lists the kinds DaemonLab serves, in kubectl api-resources order.
var Kinds = []Kind{
	{"", "v1", "Event", "events", true, func() Object { return &Event{} }},
	{"", "v1", "Namespace", "namespaces", false, func() Object { return &Namespace{} }},
	{"", "v1", "Node", "nodes", false, func() Object { return &Node{} }},
	{"", "v1", "Pod", "pods", true, func() Object { return &Pod{} }},
	{"", "v1", "ServiceAccount", "serviceaccounts", true, func() Object { return &ServiceAccount{} }},
	{"", "v1", "Service", "services", true, func() Object { return &Service{} }},
	{"apps", "v1", "ControllerRevision", "controllerrevisions", true, func() Object { return &ControllerRevision{} }},
	{"apps", "v1", "DaemonSet", "daemonsets", true, func() Object { return &DaemonSet{} }},
	{"apps", "v1", "Deployment", "deployments", true, func() Object { return &Deployment{} }},
	{"apps", "v1", "ReplicaSet", "replicasets", true, func() Object { return &ReplicaSet{} }},
	{"policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", true, func() Object { return &PodDisruptionBudget{} }},
	{"scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", false, func() Object { return &PriorityClass{} }},
}

// KindFor returns the kind served at apiVersion, if any.
func KindFor(apiVersion, kind string) (Kind, bool) {
	for _, k := range Kinds {
		if k.APIVersion() == apiVersion && k.Kind == kind {
			return k, true
		}
	}
	return Kind{}, false
}

// Manifest is one decoded document of a YAML stream.
type Manifest struct {
	Kind   Kind
	Object Object
	Line   int // the line the document starts on
	tree   *value
}

// LineOf returns the line of the field at a path such as
// "spec.template.spec.tolerations[0].operator" (the line of its key), or of its nearest
// existing parent.
func (m Manifest) LineOf(path string) int {
	v, line := m.tree, m.Line
	for _, step := range splitPath(path) {
		next, nextLine := (*value)(nil), 0
		if v.kind == kindMap {
			for i, k := range v.keys {
				if k == step {
					next, nextLine = v.vals[i], v.keyLines[i]
				}
			}
		} else if i, err := strconv.Atoi(step); err == nil && v.kind == kindList && i < len(v.vals) {
			next, nextLine = v.vals[i], v.vals[i].line
		}
		if next == nil {
			break
		}
		v, line = next, nextLine
	}
	return line
}

// LastAppliedAnnotation is where kubectl apply keeps the configuration it applied.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// LastAppliedConfiguration is the annotation kubectl apply stores with an object
// (GetModifiedConfiguration): the manifest as applied, with the namespace kubectl filled in,
// metadata.annotations present (empty when the manifest has none) and without a previous
// last-applied annotation, written as JSON with sorted keys and a final newline.
func (m Manifest) LastAppliedConfiguration(namespace string) string {
	doc := m.tree.cloneMap()
	md := &value{kind: kindMap}
	if old := doc.get("metadata"); old != nil && old.kind == kindMap {
		md = old.cloneMap()
	}
	doc.set("metadata", 0, md)
	if ns := md.get("namespace"); m.Kind.Namespaced && (ns == nil || ns.kind == kindNull) {
		md.set("namespace", 0, &value{kind: kindString, str: namespace})
	}
	annotations := &value{kind: kindMap}
	if old := md.get("annotations"); old != nil && old.kind == kindMap {
		for i, k := range old.keys {
			if k != LastAppliedAnnotation {
				annotations.set(k, old.keyLines[i], old.vals[i])
			}
		}
	}
	md.set("annotations", 0, annotations)
	return doc.json() + "\n"
}

func splitPath(path string) []string {
	path = strings.NewReplacer("[", ".", "]", "").Replace(path)
	return strings.FieldsFunc(path, func(r rune) bool { return r == '.' })
}

// DecodeError is a document that is YAML but not a valid object of its kind: the API server's
// "cannot be handled as" errors.
type DecodeError struct {
	Kind     Kind
	Name     string
	Message  string // "json: cannot unmarshal …" or "strict decoding error: unknown field …"
	Problems []Problem
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", e.Kind.Kind, e.Kind.Version, e.Kind.Kind, e.Message)
}

// MissingKindError is a document without apiVersion or kind.
type MissingKindError struct {
	Field string // "Kind" or "APIVersion"... as kubectl names it
	JSON  string // the document as JSON, as kubectl quotes it
	Line  int
}

// Error quotes the document as kubectl does (k8s.io/apimachinery pkg/runtime/error.go,
// missingKindErr), but at most its first MaxQuotedBytes: a megabyte document is not echoed back.
func (e *MissingKindError) Error() string {
	return fmt.Sprintf("Object '%s' is missing in '%s'", e.Field, clip(e.JSON))
}

// MaxQuotedBytes is the most of an input an error quotes; a longer input is cut, "..." after it.
const MaxQuotedBytes = 256

// clip cuts s to at most MaxQuotedBytes, at a character's boundary, and marks the cut.
func clip(s string) string {
	if len(s) <= MaxQuotedBytes {
		return s
	}
	cut := MaxQuotedBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// NoKindMatchError is a document of a kind DaemonLab does not serve.
type NoKindMatchError struct {
	Name, Namespace, Kind, APIVersion string
	Line                              int
}

func (e *NoKindMatchError) Error() string {
	return fmt.Sprintf("no matches for kind %q in version %q", e.Kind, e.APIVersion)
}

// Problem is one thing wrong with a manifest, as data for the editor: where, and the message.
type Problem struct {
	Line    int    // 1-based; 0 when unknown
	Column  int    // 1-based; 0 when unknown
	Path    string // field path, "" when the problem is not about one field
	Message string
}

// Decode reads a YAML stream of manifests (comments, "---" separators, anchors) as kubectl's
// resource builder reads `-f` (k8s.io/cli-runtime pkg/resource: StreamVisitor, then
// FlattenListVisitor) and decodes every object strictly into its kind, as `kubectl apply` with
// server-side strict field validation:
//
//  1. The stream must parse (see parseDocuments for the size, depth and alias guards).
//  2. Every document needs apiVersion and kind, and the kind must be served.
//  3. A value of the wrong JSON type is an error naming the Go struct field, as encoding/json.
//  4. Otherwise every unknown field is reported, with its full path.
//  5. A document with an items field is a list (see decodeList): its objects take its place.
//
// It stops at the first document that fails and returns, with the error, the objects decoded
// before it: kubectl still sends those.
func Decode(data []byte) ([]Manifest, error) {
	docs, err := parseDocuments(data, "manifest", MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	var out []Manifest
	for _, doc := range docs {
		var ms []Manifest
		if items := doc.get("items"); doc.kind == kindMap && items != nil {
			ms, err = decodeList(doc, items)
		} else {
			var m Manifest
			if m, err = decodeDocument(doc); err == nil {
				ms = []Manifest{m}
			}
		}
		out = append(out, ms...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// DecodeObject decodes a single document as the API server reads a request body: one object of
// a served kind, with the checks of Decode; a list is not flattened (List is no served kind, and
// items is an unknown field of the others).
func DecodeObject(data []byte) (Manifest, error) {
	docs, err := parseDocuments(data, "manifest", MaxManifestBytes)
	if err != nil {
		return Manifest{}, err
	}
	if len(docs) != 1 {
		return Manifest{}, fmt.Errorf("want one object, found %d", len(docs))
	}
	return decodeDocument(docs[0])
}

// ItemError is an object of a list that kubectl cannot map to a kind
// (k8s.io/cli-runtime pkg/resource mapper.infoForObject), or a nested list item that is not an
// object (unstructured's EachListItem). Message is kubectl's, without "error: ".
type ItemError struct {
	Line    int
	Message string
}

func (e *ItemError) Error() string { return e.Message }

// ItemErrors are the errors of a list's items, in the order of the items
// (FlattenListVisitor's aggregate).
type ItemErrors []error

func (e ItemErrors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As find each item's error.
func (e ItemErrors) Unwrap() []error { return e }

// UndecodableError is a list document that unstructured's decoder refuses (decodeToList): items
// is not a list, or one of them is not an object. kubectl says it cannot decode the source.
type UndecodableError struct {
	Line    int
	Message string // encoding/json's
}

func (e *UndecodableError) Error() string { return e.Message }

// decodeList flattens a list document as kubectl does (k8s.io/apimachinery unstructured
// decodeToList, k8s.io/cli-runtime FlattenListVisitor and mapper.infoForObject):
//
//  1. The list needs kind and apiVersion, and its kind must map: List in a served version, a
//     served kind's list kind (PodList in v1, DaemonSetList in apps/v1) or a served kind
//     (discovery's RESTMapper); else kubectl's "resource mapping not found" error.
//  2. items must be a list of objects (null is none); else the document does not decode.
//  3. An item without apiVersion and kind takes the list's apiVersion and the list's kind
//     without "List": the items of a DaemonSetList are DaemonSets; those of a List stay
//     without a kind.
//  4. An item with a list of items is a list too; its items are taken as they are (no kind is
//     filled in) and must be objects. The objects come breadth first: the list's own items in
//     order, then the items of the lists among them, and so on.
//  5. Each object is mapped and decoded as a document is; one that fails is an error in
//     ItemErrors, after which the others still decode.
func decodeList(doc, items *value) ([]Manifest, error) {
	apiVersion, kind := doc.stringAt("apiVersion"), doc.stringAt("kind")
	switch {
	case kind == "":
		return nil, &MissingKindError{Field: "Kind", JSON: doc.json(), Line: doc.line}
	case apiVersion == "":
		return nil, &MissingKindError{Field: "APIVersion", JSON: doc.json(), Line: doc.line}
	case !listKindServed(apiVersion, kind):
		return nil, noKindMatch(doc, apiVersion, kind)
	case items.kind != kindList && items.kind != kindNull:
		return nil, &UndecodableError{Line: items.line, Message: fmt.Sprintf("json: cannot unmarshal %s into Go struct field decodeList.items of type []json.RawMessage", items.jsonKind())}
	}
	objects, err := listObjects(items, apiVersion, strings.TrimSuffix(kind, "List"))
	if err != nil {
		return nil, err
	}
	var out []Manifest
	var errs ItemErrors
	for _, obj := range objects {
		m, err := decodeItem(obj)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, m)
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// listObjects are the objects of a list's items (decodeList's rules 2 to 4): each item an
// object, given the list's apiVersion and itemKind when it has neither, the items of nested
// lists after them.
func listObjects(items *value, apiVersion, itemKind string) ([]*value, error) {
	var queue []*value
	for _, item := range items.vals {
		switch {
		case item.kind == kindNull:
			item = &value{kind: kindMap, line: item.line, col: item.col}
		case item.kind != kindMap:
			return nil, &UndecodableError{Line: item.line, Message: fmt.Sprintf("json: cannot unmarshal %s into Go value of type map[string]interface {}", item.jsonKind())}
		}
		if item.stringAt("apiVersion") == "" && item.stringAt("kind") == "" && itemKind != "" {
			item = item.cloneMap()
			item.set("apiVersion", item.line, &value{kind: kindString, str: apiVersion, line: item.line})
			item.set("kind", item.line, &value{kind: kindString, str: itemKind, line: item.line})
		}
		queue = append(queue, item)
	}
	var objects []*value
	for i := 0; i < len(queue); i++ {
		nested := queue[i].get("items")
		if nested == nil || nested.kind != kindList {
			objects = append(objects, queue[i])
			continue
		}
		for _, item := range nested.vals {
			if item.kind != kindMap {
				return nil, &ItemError{Line: item.line, Message: "items member is not an object: map[string]interface {}"}
			}
			queue = append(queue, item)
		}
	}
	return objects, nil
}

// decodeItem decodes one object of a list, with kubectl's errors for one it cannot map
// (mapper.infoForObject: the unstructured typer's, then the RESTMapper's).
func decodeItem(obj *value) (Manifest, error) {
	const typeInfo = `unable to get type info from the object "*unstructured.Unstructured": `
	apiVersion, kind := obj.stringAt("apiVersion"), obj.stringAt("kind")
	switch _, served := KindFor(apiVersion, kind); {
	case kind == "":
		return Manifest{}, &ItemError{Line: obj.line, Message: typeInfo + "Object 'Kind' is missing in 'object has no kind field '"}
	case apiVersion == "":
		return Manifest{}, &ItemError{Line: obj.line, Message: typeInfo + "Object 'apiVersion' is missing in 'object has no apiVersion field'"}
	case !served:
		return Manifest{}, &ItemError{Line: obj.line, Message: "unable to recognize " + noKindMatch(obj, apiVersion, kind).Error()}
	}
	return decodeDocument(obj)
}

// listKindServed says whether kubectl's RESTMapper maps a list's kind (client-go restmapper
// NewDiscoveryRESTMapper): List in every served version, and each served kind and its list
// kind in its own.
func listKindServed(apiVersion, kind string) bool {
	for _, k := range Kinds {
		if k.APIVersion() == apiVersion && (kind == "List" || kind == k.Kind || kind == k.Kind+"List") {
			return true
		}
	}
	return false
}

// noKindMatch is the error for a document of a kind not served, with its name and namespace.
func noKindMatch(doc *value, apiVersion, kind string) *NoKindMatchError {
	e := &NoKindMatchError{Kind: kind, APIVersion: apiVersion, Line: doc.line}
	if md := doc.get("metadata"); md != nil && md.kind == kindMap {
		e.Name, e.Namespace = md.stringAt("name"), md.stringAt("namespace")
	}
	return e
}

// DecodeStrict decodes one YAML document into v by v's json tags, with the same guards and the
// same strictness as manifests, but a bound of its own (MaxFileBytes; what names the file in
// the error): a type error or an unknown field is an error naming its path and line.
// DaemonLab's own files (scenarios, lessons) use it.
func DecodeStrict(data []byte, v any, what string) error {
	docs, err := parseDocuments(data, what, MaxFileBytes)
	if err != nil {
		return err
	}
	if len(docs) != 1 {
		return fmt.Errorf("want one YAML document, found %d", len(docs))
	}
	d := decoder{}
	d.decode(docs[0], reflect.ValueOf(v).Elem(), "", "", reflect.TypeOf(v).Elem().Name())
	if p := d.typeErr; p != nil {
		return fmt.Errorf("line %d: %s", p.Line, p.Message)
	}
	if len(d.unknown) > 0 {
		return fmt.Errorf("line %d: %s", d.unknown[0].Line, d.unknown[0].Message)
	}
	return nil
}

func decodeDocument(doc *value) (Manifest, error) {
	if doc.kind != kindMap {
		return Manifest{}, &SyntaxError{Line: doc.line, Msg: fmt.Sprintf("cannot unmarshal %s into Go value of type map[string]interface {}", doc.jsonKind())}
	}
	apiVersion, kind := doc.stringAt("apiVersion"), doc.stringAt("kind")
	if kind == "" {
		return Manifest{}, &MissingKindError{Field: "Kind", JSON: doc.json(), Line: doc.line}
	}
	if apiVersion == "" {
		return Manifest{}, &MissingKindError{Field: "APIVersion", JSON: doc.json(), Line: doc.line}
	}
	k, ok := KindFor(apiVersion, kind)
	if !ok {
		return Manifest{}, noKindMatch(doc, apiVersion, kind)
	}
	obj, d, err := decodeAs(doc, k)
	if err != nil {
		return Manifest{}, err
	}
	name := obj.GetObjectMeta().Name
	if len(d.unknown) > 0 {
		msgs := make([]string, len(d.unknown))
		for i, p := range d.unknown {
			msgs[i] = fmt.Sprintf("unknown field %q", clip(p.Path))
		}
		return Manifest{}, &DecodeError{Kind: k, Name: name, Message: "strict decoding error: " + strings.Join(msgs, ", "), Problems: d.unknown}
	}
	return Manifest{Kind: k, Object: obj, Line: doc.line, tree: doc}, nil
}

// decodeAs decodes a document into a new object of kind k; a value of the wrong type is a
// DecodeError, unknown fields are left to the caller (the decoder's unknown).
func decodeAs(doc *value, k Kind) (Object, decoder, error) {
	obj := k.New()
	d := decoder{}
	d.decode(doc, reflect.ValueOf(obj).Elem(), "", "", "")
	if d.typeErr != nil {
		return nil, d, &DecodeError{Kind: k, Name: obj.GetObjectMeta().Name, Message: d.typeErr.Message, Problems: []Problem{*d.typeErr}}
	}
	return obj, d, nil
}

// decoder decodes values into Go values by their json tags, collecting the first type error and
// every unknown field.
type decoder struct {
	typeErr *Problem
	unknown []Problem
}

// decode decodes v into rv. strictPath carries list indices (for unknown fields, as the API
// server's strict decoder prints them); fieldPath does not (for type errors, as encoding/json).
func (d *decoder) decode(v *value, rv reflect.Value, strictPath, fieldPath, structName string) {
	if v.kind == kindNull {
		if rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Map || rv.Kind() == reflect.Slice {
			rv.Set(reflect.Zero(rv.Type()))
		}
		return
	}
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			rv.Set(reflect.New(rv.Type().Elem()))
		}
		d.decode(v, rv.Elem(), strictPath, fieldPath, structName)
		return
	}
	if u, ok := rv.Addr().Interface().(json.Unmarshaler); ok {
		if v.kind == kindMap || v.kind == kindList {
			if _, raw := u.(*json.RawMessage); !raw {
				d.typeError(v, rv, fieldPath, structName, "")
				return
			}
		}
		if err := u.UnmarshalJSON([]byte(v.json())); err != nil {
			d.fail(v, fieldPath, err.Error())
		}
		return
	}
	switch rv.Kind() {
	case reflect.Struct:
		if v.kind != kindMap {
			d.typeError(v, rv, fieldPath, structName, "")
			return
		}
		fields := jsonFields(rv.Type())
		for i, key := range v.keys {
			index, ok := fields[key]
			child := join(strictPath, key)
			if !ok {
				d.unknown = append(d.unknown, Problem{Line: v.keyLines[i], Path: child, Message: fmt.Sprintf("unknown field %q", child)})
				continue
			}
			d.decode(v.vals[i], rv.FieldByIndex(index), child, join(fieldPath, key), rv.Type().Name())
		}
	case reflect.Map:
		if v.kind != kindMap {
			d.typeError(v, rv, fieldPath, structName, "")
			return
		}
		if rv.IsNil() {
			rv.Set(reflect.MakeMap(rv.Type()))
		}
		for i, key := range v.keys {
			elem := reflect.New(rv.Type().Elem()).Elem()
			d.decode(v.vals[i], elem, join(strictPath, key), fieldPath, structName)
			rv.SetMapIndex(reflect.ValueOf(key).Convert(rv.Type().Key()), elem)
		}
	case reflect.Slice:
		if v.kind != kindList {
			d.typeError(v, rv, fieldPath, structName, "")
			return
		}
		s := reflect.MakeSlice(rv.Type(), len(v.vals), len(v.vals))
		for i, item := range v.vals {
			d.decode(item, s.Index(i), fmt.Sprintf("%s[%d]", strictPath, i), fieldPath, structName)
		}
		rv.Set(s)
	case reflect.String:
		if v.kind != kindString {
			d.typeError(v, rv, fieldPath, structName, "")
			return
		}
		rv.SetString(v.str)
	case reflect.Bool:
		if v.kind != kindBool {
			d.typeError(v, rv, fieldPath, structName, "")
			return
		}
		rv.SetBool(v.b)
	case reflect.Int32, reflect.Int64, reflect.Uint32, reflect.Uint64:
		d.decodeInteger(v, rv, fieldPath, structName)
	default:
		d.fail(v, fieldPath, fmt.Sprintf("cannot decode into %s", rv.Type()))
	}
}

// decodeInteger sets a signed or unsigned integer field; a number that is not a whole number or
// does not fit is a type error naming the number, as encoding/json's.
func (d *decoder) decodeInteger(v *value, rv reflect.Value, fieldPath, structName string) {
	if v.kind != kindInt && v.kind != kindFloat {
		d.typeError(v, rv, fieldPath, structName, "")
		return
	}
	if rv.CanInt() {
		if n, err := strconv.ParseInt(v.str, 10, 64); err == nil && !rv.OverflowInt(n) {
			rv.SetInt(n)
			return
		}
	} else if n, err := strconv.ParseUint(v.str, 10, 64); err == nil && !rv.OverflowUint(n) {
		rv.SetUint(n)
		return
	}
	d.typeError(v, rv, fieldPath, structName, " "+v.str)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// typeError records encoding/json's UnmarshalTypeError:
// "json: cannot unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds of type int32".
func (d *decoder) typeError(v *value, rv reflect.Value, fieldPath, structName, number string) {
	msg := fmt.Sprintf("json: cannot unmarshal %s%s into Go struct field %s.%s of type %s", v.jsonKind(), number, structName, fieldPath, goTypeName(rv.Type()))
	d.fail(v, fieldPath, msg)
}

func (d *decoder) fail(v *value, fieldPath, msg string) {
	if d.typeErr == nil {
		d.typeErr = &Problem{Line: v.line, Column: v.col, Path: fieldPath, Message: msg}
	}
}

// goTypeName names a type as Kubernetes' Go types print: v1.Container, []v1.Toleration,
// resource.Quantity, intstr.IntOrString, map[string]string.
func goTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "[]" + goTypeName(t.Elem())
	case reflect.Map:
		if t.Name() == "" {
			return "map[" + goTypeName(t.Key()) + "]" + goTypeName(t.Elem())
		}
	case reflect.Pointer:
		return "*" + goTypeName(t.Elem())
	}
	switch {
	case t.PkgPath() == "":
		return t.String()
	case t == reflect.TypeFor[Quantity]():
		return "resource.Quantity"
	case t == reflect.TypeFor[IntOrString]():
		return "intstr.IntOrString"
	}
	return "v1." + t.Name()
}

var fieldCache sync.Map // reflect.Type → map[string][]int

// jsonFields maps the JSON names of a struct's fields to their indexes, as encoding/json names
// them: the tag's name, or the field's own name without one; embedded structs without a name
// (TypeMeta) are inlined; unexported fields and those tagged "-" have none.
func jsonFields(t reflect.Type) map[string][]int {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string][]int)
	}
	fields := map[string][]int{}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" && sf.Anonymous {
			for k, idx := range jsonFields(sf.Type) {
				fields[k] = append([]int{i}, idx...)
			}
			continue
		}
		if name == "-" || !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fields[name] = []int{i}
	}
	fieldCache.Store(t, fields)
	return fields
}

// json renders the value as JSON with object keys sorted, as kubectl's YAML-to-JSON step does.
func (v *value) json() string {
	var b strings.Builder
	v.writeJSON(&b)
	return b.String()
}

func (v *value) writeJSON(b *strings.Builder) {
	switch v.kind {
	case kindNull:
		b.WriteString("null")
	case kindBool:
		b.WriteString(strconv.FormatBool(v.b))
	case kindInt:
		b.WriteString(v.str)
	case kindFloat:
		f, err := strconv.ParseFloat(v.str, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			b.WriteString("null")
			return
		}
		out, _ := json.Marshal(f)
		b.Write(out)
	case kindString:
		out, _ := json.Marshal(v.str)
		b.Write(out)
	case kindList:
		b.WriteByte('[')
		for i, item := range v.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			item.writeJSON(b)
		}
		b.WriteByte(']')
	case kindMap:
		order := make([]int, len(v.keys))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return v.keys[order[i]] < v.keys[order[j]] })
		b.WriteByte('{')
		for n, i := range order {
			if n > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(v.keys[i])
			b.Write(key)
			b.WriteByte(':')
			v.vals[i].writeJSON(b)
		}
		b.WriteByte('}')
	}
}

// JSONKind names a decoded JSON value's type as encoding/json's errors do ("cannot unmarshal
// array into …").
func JSONKind(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	case map[string]any:
		return "object"
	}
	return "number"
}
