package api

import (
	"regexp"
	"slices"
	"strings"
)

// Found is one object of a stream read leniently (DecodeLenient).
type Found struct {
	APIVersion, Kind string // as the object names them
	Line             int    // the line the object starts on
	// Manifest is the decoded object when its kind is served and it decoded (Manifest.Object
	// is nil otherwise).
	Manifest Manifest
	// Skipped are the fields its kind does not have, each path once, in the order met, list
	// indices written [] ("spec.containers[].livenessProbe").
	Skipped []string
	// Err is why an object of a served kind did not decode: a DecodeError (a value of the
	// wrong type), the API server's "cannot be handled as" refusal.
	Err error
}

// DecodeLenient reads a stream of objects from a real cluster (`kubectl get … -o yaml`, for
// `sim import`), keeping what DaemonLab models and saying what it does not:
//
//  1. The stream must parse, with Decode's guards and bound (MaxManifestBytes).
//  2. A document with an items field is a list, whatever its kind (a real cluster's List holds
//     kinds DaemonLab does not serve): its objects are taken as Decode takes a list's
//     (listObjects: nested lists breadth first, items without a kind given the list's item kind).
//  3. Every object needs apiVersion and kind (a MissingKindError, and nothing is returned); a
//     document that is not an object is a SyntaxError.
//  4. An object of a kind not served is found with its apiVersion and kind only.
//  5. An object of a served kind decodes as Decode decodes it, but a field its kind does not
//     have is skipped, and its path recorded, rather than refused; a value of the wrong type
//     is the object's Err.
func DecodeLenient(data []byte) ([]Found, error) {
	docs, err := parseDocuments(data, "manifest", MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, doc := range docs {
		objects := []*value{doc}
		if items := doc.get("items"); doc.kind == kindMap && items != nil {
			if items.kind != kindList && items.kind != kindNull {
				return nil, &UndecodableError{Line: items.line, Message: "items is not a list of objects"}
			}
			if objects, err = listObjects(items, doc.stringAt("apiVersion"), strings.TrimSuffix(doc.stringAt("kind"), "List")); err != nil {
				return nil, err
			}
		}
		for _, obj := range objects {
			f, err := decodeFound(obj)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// decodeFound is DecodeLenient's rules 3 to 5 for one object.
func decodeFound(obj *value) (Found, error) {
	if obj.kind != kindMap {
		return Found{}, &SyntaxError{Line: obj.line, Msg: "cannot unmarshal " + obj.jsonKind() + " into Go value of type map[string]interface {}"}
	}
	f := Found{APIVersion: obj.stringAt("apiVersion"), Kind: obj.stringAt("kind"), Line: obj.line}
	switch {
	case f.Kind == "":
		return Found{}, &MissingKindError{Field: "Kind", JSON: obj.json(), Line: obj.line}
	case f.APIVersion == "":
		return Found{}, &MissingKindError{Field: "APIVersion", JSON: obj.json(), Line: obj.line}
	}
	k, served := KindFor(f.APIVersion, f.Kind)
	if !served {
		return f, nil
	}
	o, d, err := decodeAs(obj, k)
	if err != nil {
		f.Err = err
		return f, nil
	}
	f.Manifest = Manifest{Kind: k, Object: o, Line: obj.line, tree: obj}
	for _, p := range d.unknown {
		if path := listIndex.ReplaceAllString(p.Path, "[]"); !slices.Contains(f.Skipped, path) {
			f.Skipped = append(f.Skipped, path)
		}
	}
	return f, nil
}

// listIndex is a list index in a strict decoding path: [0].
var listIndex = regexp.MustCompile(`\[\d+\]`)
