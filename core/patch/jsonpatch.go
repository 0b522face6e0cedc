package patch

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// JSON applies a JSON patch (RFC 6902): a list of operations (add, remove, replace, move, copy,
// test) on JSON pointers (RFC 6901: "/spec/template/spec/containers/0/image", "~1" for "/" and
// "~0" for "~", "-" for the end of a list), in order, to a copy of doc. The first operation that
// cannot be applied fails the whole patch, with evanphx/json-patch's message as the API server
// returns it.
//
// Copies are bounded as the API server bounds them (k8s.io/apiserver pkg/server/config.go
// JSONPatchMaxCopyBytes, set as evanphx/json-patch's AccumulatedCopySizeLimit; patch.go copy):
//
//  1. Each copy adds its value's JSON length to the patch's total.
//  2. A total past MaxCopyBytes fails the patch before the value is added.
func JSON(doc any, ops any) (any, error) {
	list, ok := ops.([]any)
	if !ok {
		return nil, fmt.Errorf("json: cannot unmarshal object into Go value of type jsonpatch.Patch")
	}
	doc = clone(doc)
	copied := 0
	for _, raw := range list {
		op, ok := raw.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("json: cannot unmarshal %T into Go value of type jsonpatch.Operation", raw)
		}
		kind, _ := op["op"].(string)
		path, _ := op["path"].(string)
		var err error
		switch kind {
		case "add":
			doc, err = add(doc, path, clone(op["value"]))
		case "remove":
			doc, _, err = remove(doc, path)
		case "replace":
			if doc, _, err = remove(doc, path); err == nil {
				doc, err = add(doc, path, clone(op["value"]))
			}
		case "move", "copy":
			from, _ := op["from"].(string)
			var v any
			if kind == "move" {
				doc, v, err = remove(doc, from)
			} else if v, err = get(doc, from); err == nil {
				v, err = copyValue(v, &copied)
			}
			if err == nil {
				doc, err = add(doc, path, v)
			}
		case "test":
			var v any
			if v, err = get(doc, path); err == nil && !reflect.DeepEqual(normalize(v), normalize(op["value"])) {
				err = fmt.Errorf("testing value %s failed: test failed", path)
			}
		default:
			err = fmt.Errorf("unexpected kind: %s", kind)
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// MaxCopyBytes is the API server's default JSONPatchMaxCopyBytes: 3 MiB of copied JSON per patch.
const MaxCopyBytes = 3 << 20

// copyValue clones v for a copy operation and adds its JSON length to *copied, refusing a total
// past MaxCopyBytes with evanphx/json-patch's AccumulatedCopySizeError.
func copyValue(v any, copied *int) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error while performing deep copy: %w", err)
	}
	if *copied += len(data); *copied > MaxCopyBytes {
		return nil, fmt.Errorf("Unable to complete the copy, the accumulated size increase of copy is %d, exceeding the limit %d", *copied, MaxCopyBytes)
	}
	return clone(v), nil
}

// normalize makes numbers comparable whatever their spelling.
func normalize(v any) any {
	if n, ok := v.(interface{ String() string }); ok {
		if f, err := strconv.ParseFloat(n.String(), 64); err == nil {
			return f
		}
	}
	return v
}

// pointer splits a JSON pointer into its unescaped tokens.
func pointer(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("invalid JSON pointer %q", path)
	}
	parts := strings.Split(path[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func get(doc any, path string) (any, error) {
	parts, err := pointer(path)
	if err != nil {
		return nil, err
	}
	cur := doc
	for _, p := range parts {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[p]
			if !ok {
				return nil, fmt.Errorf("unable to get nonexistent key: %s: missing value", p)
			}
			cur = v
		case []any:
			i, err := index(p, len(c), false)
			if err != nil {
				return nil, err
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("unable to get nonexistent key: %s: missing value", p)
		}
	}
	return cur, nil
}

// index reads a list index; "-" (only when adding) is the end.
func index(p string, n int, adding bool) (int, error) {
	if p == "-" && adding {
		return n, nil
	}
	i, err := strconv.Atoi(p)
	max := n - 1
	if adding {
		max = n
	}
	if err != nil || i < 0 || i > max {
		return 0, fmt.Errorf("unable to access invalid index: %s: invalid index referenced", p)
	}
	return i, nil
}

// add puts v at path: a map key is set, a list element inserted; the parent must exist.
func add(doc any, path string, v any) (any, error) {
	parts, err := pointer(path)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return v, nil
	}
	parent, err := get(doc, joinPointer(parts[:len(parts)-1]))
	if err != nil {
		return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q: missing value", path)
	}
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]any:
		c[last] = v
	case []any:
		i, err := index(last, len(c), true)
		if err != nil {
			return nil, err
		}
		grown := append(c[:i:i], append([]any{v}, c[i:]...)...)
		return set(doc, parts[:len(parts)-1], grown)
	default:
		return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q: missing value", path)
	}
	return doc, nil
}

// remove takes the value at path out of doc and returns it.
func remove(doc any, path string) (any, any, error) {
	parts, err := pointer(path)
	if err != nil || len(parts) == 0 {
		return nil, nil, fmt.Errorf("unable to remove nonexistent key: %s: missing value", path)
	}
	parent, err := get(doc, joinPointer(parts[:len(parts)-1]))
	if err != nil {
		return nil, nil, fmt.Errorf("remove operation does not apply: doc is missing path: %q: missing value", path)
	}
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]any:
		v, ok := c[last]
		if !ok {
			return nil, nil, fmt.Errorf("unable to remove nonexistent key: %s: missing value", last)
		}
		delete(c, last)
		return doc, v, nil
	case []any:
		i, err := index(last, len(c), false)
		if err != nil {
			return nil, nil, err
		}
		v := c[i]
		shrunk := append(c[:i:i], c[i+1:]...)
		doc, err = set(doc, parts[:len(parts)-1], shrunk)
		return doc, v, err
	}
	return nil, nil, fmt.Errorf("remove operation does not apply: doc is missing path: %q: missing value", path)
}

// set replaces the value at parts (whose parent exists) with v.
func set(doc any, parts []string, v any) (any, error) {
	if len(parts) == 0 {
		return v, nil
	}
	parent, err := get(doc, joinPointer(parts[:len(parts)-1]))
	if err != nil {
		return nil, err
	}
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]any:
		c[last] = v
	case []any:
		i, err := index(last, len(c), false)
		if err != nil {
			return nil, err
		}
		c[i] = v
	}
	return doc, nil
}

func joinPointer(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}
