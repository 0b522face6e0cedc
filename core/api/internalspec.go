package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// internalPodSpecLayout describes kube-apiserver's internal core.PodSpec (see the file's header).
//
//go:embed internalpodspec.txt
var internalPodSpecLayout string

// internalField is one line of internalpodspec.txt: a field of an internal type, or (embed set)
// an embedded struct whose fields are written in its place.
type internalField struct {
	key, v1, typ string
	omitEmpty    bool
	embed        bool
}

// internalTypes are the internal types by name, parsed from internalPodSpecLayout.
var internalTypes = parseInternalTypes(internalPodSpecLayout)

func parseInternalTypes(text string) map[string][]internalField {
	types := map[string][]internalField{}
	var current string
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case !strings.HasPrefix(line, "\t"):
			current = line
		case strings.HasPrefix(line, "\t~"):
			types[current] = append(types[current], internalField{typ: line[2:], embed: true})
		default:
			parts := strings.Fields(line)
			if len(parts) != 3 {
				panic("api: internalpodspec.txt: a field is KEY V1NAME TYPE: " + line)
			}
			typ, omitEmpty := strings.CutSuffix(parts[2], "?")
			types[current] = append(types[current], internalField{key: parts[0], v1: parts[1], typ: typ, omitEmpty: omitEmpty})
		}
	}
	return types
}

// internalPodSpecJSON writes a pod spec as kube-apiserver holds it, in its internal type, the way
// json.MarshalIndent(spec, "", " ") writes that type (what apimachinery's diff.Diff prints,
// staging/src/k8s.io/apimachinery/pkg/util/diff/diff.go toPrettyJSON):
//
//  1. Every field of the internal type is written, in declaration order, under its Go name: a
//     field DaemonLab does not model, or that is unset, is written as its zero value ("", false,
//     0, a quantity "0", an empty struct's fields) or, for a pointer, slice or map, null.
//  2. An embedded struct's fields are written in its place; maps are written with sorted keys.
//  3. The values are those of the v1 JSON (a quantity as its text, an IntOrString as the int or
//     string it holds): the internal types hold what the v1 ones convert to, field by field.
//  4. The text is indented one space per level.
func internalPodSpecJSON(s *PodSpec) string {
	data, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("api: cannot encode a pod spec: %v", err)) // the API types always encode
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // numbers keep their digits
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		panic(fmt.Sprintf("api: cannot read a pod spec's JSON back: %v", err))
	}
	var compact, out bytes.Buffer
	writeInternalStruct(&compact, "PodSpec", v)
	if err := json.Indent(&out, compact.Bytes(), "", " "); err != nil {
		panic(fmt.Sprintf("api: the internal pod spec is no JSON: %v", err))
	}
	return out.String()
}

// writeInternalStruct writes a value of the internal struct type typ, whose v1 JSON is v (nil
// when it is absent).
func writeInternalStruct(b *bytes.Buffer, typ string, v map[string]any) {
	b.WriteByte('{')
	first := true
	var write func(typ string)
	write = func(typ string) {
		fields, ok := internalTypes[typ]
		if !ok {
			panic("api: internalpodspec.txt does not describe " + typ)
		}
		for _, f := range fields {
			if f.embed {
				write(f.typ)
				continue
			}
			value := v[f.v1]
			if f.omitEmpty && isEmptyValue(value) {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeJSON(b, f.key)
			b.WriteByte(':')
			writeInternal(b, f.typ, value)
		}
	}
	write(typ)
	b.WriteByte('}')
}

// writeInternal writes a value of an internal type typ, whose v1 JSON is v (nil when absent).
func writeInternal(b *bytes.Buffer, typ string, v any) {
	switch {
	case strings.HasPrefix(typ, "*"):
		if v == nil {
			b.WriteString("null")
			return
		}
		writeInternal(b, typ[1:], v)
	case strings.HasPrefix(typ, "[]"):
		items, _ := v.([]any)
		if items == nil {
			b.WriteString("null")
			return
		}
		b.WriteByte('[')
		for i, item := range items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeInternal(b, typ[2:], item)
		}
		b.WriteByte(']')
	case typ == "map":
		if v == nil {
			b.WriteString("null")
			return
		}
		writeJSON(b, v)
	case typ == "string":
		writeJSON(b, orZero(v, ""))
	case typ == "bool":
		writeJSON(b, orZero(v, false))
	case typ == "int", typ == "intstr":
		writeJSON(b, orZero[any](v, json.Number("0")))
	case typ == "quantity":
		writeJSON(b, orZero[any](v, "0"))
	default:
		m, _ := v.(map[string]any)
		writeInternalStruct(b, typ, m)
	}
}

// orZero is v, or zero when v is absent.
func orZero[T any](v any, zero T) any {
	if v == nil {
		return zero
	}
	return v
}

// isEmptyValue reports whether encoding/json's omitempty leaves v out.
func isEmptyValue(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	case string:
		return v == ""
	}
	return false
}

// writeJSON writes a scalar, or a map of them, as encoding/json does.
func writeJSON(b *bytes.Buffer, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("api: cannot encode %v: %v", v, err))
	}
	b.Write(data)
}
