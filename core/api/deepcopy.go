package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// DeepCopy returns an independent copy of v: the value that reading back v's JSON gives, as the
// API server keeps what it was sent (times in whole seconds, a Quantity as its text). It follows
// encoding/json's rules without writing the text, which made it the main cost of every write:
//
//  1. A struct keeps its exported fields, an embedded struct's inline; other fields are dropped.
//  2. A field tagged omitempty that holds an empty value (false, 0, "", a nil pointer, an empty
//     slice or map) and one tagged omitzero that holds its zero value are left zero.
//  3. A nil pointer, slice or map stays nil; an empty slice or map stays empty, not nil. A
//     pointer to what JSON writes as null (a zero Time, a nil slice) reads back nil.
//  4. Every byte of a string that is not UTF-8 becomes U+FFFD, as json.Marshal writes it.
//  5. A type with JSON methods of its own reads back as they write and read it: a Time in whole
//     seconds in UTC, a Quantity as its text (see Quantity.readBack), an IntOrString as the one
//     it holds. Any other such type (json.RawMessage) and any other value (an interface, a
//     float, a map whose keys rule 4 would change) is copied through JSON.
func DeepCopy[T any](v T) T {
	var out T
	copyJSON(reflect.ValueOf(&out).Elem(), reflect.ValueOf(&v).Elem())
	return out
}

// DeepCopyObject copies an object held as an Object, keeping its concrete type.
func DeepCopyObject(obj Object) Object {
	out := reflect.New(reflect.TypeOf(obj).Elem())
	copyJSON(out.Elem(), reflect.ValueOf(obj).Elem())
	return out.Interface().(Object)
}

// copyJSON sets dst, a zero value, to what src's JSON reads back as.
func copyJSON(dst, src reflect.Value) {
	t := src.Type()
	switch t {
	case timeType:
		dst.Set(reflect.ValueOf(src.Interface().(Time).readBack()))
		return
	case quantityType:
		dst.Set(reflect.ValueOf(src.Interface().(Quantity).readBack()))
		return
	case intOrStringType:
		v := src.Interface().(IntOrString)
		if v.IsString {
			dst.Set(reflect.ValueOf(FromString(validUTF8(v.StrVal))))
		} else {
			dst.Set(reflect.ValueOf(FromInt(v.IntVal)))
		}
		return
	}
	if t.Name() != "" && ownJSON(t) { // an unnamed type has no methods
		throughJSON(dst, src)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !src.IsNil() && !writesNull(src.Elem()) {
			dst.Set(reflect.New(t.Elem()))
			copyJSON(dst.Elem(), src.Elem())
		}
	case reflect.Struct:
		for _, f := range structFields(t) {
			sf := fieldByIndex(src, f.index)
			if f.omitEmpty && isEmptyJSON(sf) || f.omitZero && isZero(sf) {
				continue
			}
			copyJSON(fieldByIndex(dst, f.index), sf)
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := src.Len()
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			copyJSON(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		if t.Key().Kind() != reflect.String || !validKeys(src) {
			throughJSON(dst, src)
			return
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		elem := reflect.New(t.Elem()).Elem()
		for it := src.MapRange(); it.Next(); {
			elem.SetZero()
			copyJSON(elem, it.Value())
			m.SetMapIndex(it.Key(), elem)
		}
		dst.Set(m)
	case reflect.String:
		dst.SetString(validUTF8(src.String()))
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		dst.Set(src)
	default:
		throughJSON(dst, src)
	}
}

// writesNull reports whether v's JSON is null.
func writesNull(v reflect.Value) bool {
	switch t := v.Type(); {
	case t == timeType:
		return v.Interface().(Time).IsZero()
	case t == quantityType || t == intOrStringType:
		return false
	case t.Name() != "" && ownJSON(t):
		b, err := json.Marshal(v.Interface())
		return err == nil && string(b) == "null"
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// throughJSON copies src into dst by writing it as JSON and reading it back.
func throughJSON(dst, src reflect.Value) {
	b, err := json.Marshal(src.Interface())
	if err != nil {
		panic("deep copy: " + err.Error()) // the API types always marshal
	}
	p := reflect.New(dst.Type())
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		panic("deep copy: " + err.Error())
	}
	dst.Set(p.Elem())
}

var (
	timeType        = reflect.TypeFor[Time]()
	quantityType    = reflect.TypeFor[Quantity]()
	intOrStringType = reflect.TypeFor[IntOrString]()
	marshalerType   = reflect.TypeFor[json.Marshaler]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	ownJSONCache    sync.Map // reflect.Type → bool
)

// ownJSON reports whether t has JSON methods of its own.
func ownJSON(t reflect.Type) bool {
	if own, ok := ownJSONCache.Load(t); ok {
		return own.(bool)
	}
	own := t.Implements(marshalerType) || reflect.PointerTo(t).Implements(unmarshalerType)
	ownJSONCache.Store(t, own)
	return own
}

// jsonField is a field that a struct's JSON carries, by its index (through embedded structs).
type jsonField struct {
	index     []int
	omitEmpty bool
	omitZero  bool
}

var structFieldCache sync.Map // reflect.Type → []jsonField

// structFields lists the fields of struct type t that its JSON carries (rule 1).
func structFields(t reflect.Type) []jsonField {
	if f, ok := structFieldCache.Load(t); ok {
		return f.([]jsonField)
	}
	var fields []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" && sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			for _, f := range structFields(sf.Type) {
				f.index = append([]int{i}, f.index...)
				fields = append(fields, f)
			}
			continue
		}
		if name == "-" && opts == "" || !sf.IsExported() {
			continue
		}
		f := jsonField{index: []int{i}}
		for opt := range strings.SplitSeq(opts, ",") {
			f.omitEmpty = f.omitEmpty || opt == "omitempty"
			f.omitZero = f.omitZero || opt == "omitzero"
		}
		fields = append(fields, f)
	}
	structFieldCache.Store(t, fields)
	return fields
}

// fieldByIndex is v.FieldByIndex(index), without its checks for embedded pointers (which the
// fields of structFields never go through).
func fieldByIndex(v reflect.Value, index []int) reflect.Value {
	for _, i := range index {
		v = v.Field(i)
	}
	return v
}

// isEmptyJSON reports whether omitempty leaves v out (rule 2).
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero reports whether omitzero leaves v out: by its IsZero method when it has one.
func isZero(v reflect.Value) bool {
	if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
		return z.IsZero()
	}
	return v.IsZero()
}

// validUTF8 replaces each byte of s that is not UTF-8 with U+FFFD (rule 4).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// validKeys reports whether every key of map m is UTF-8, so that no two keys become one.
func validKeys(m reflect.Value) bool {
	for it := m.MapRange(); it.Next(); {
		if !utf8.ValidString(it.Key().String()) {
			return false
		}
	}
	return true
}
