package api

import (
	"encoding/json"
	"reflect"
)

// DeepCopy returns an independent copy of v, through its JSON form (every field DaemonLab models
// survives the round trip, Quantity's text as typed included).
func DeepCopy[T any](v T) T {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		panic("deep copy: " + err.Error()) // the API types always marshal
	}
	if err := json.Unmarshal(b, &out); err != nil {
		panic("deep copy: " + err.Error())
	}
	return out
}

// DeepCopyObject copies an object held as an Object, keeping its concrete type.
func DeepCopyObject(obj Object) Object {
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(Object)
	b, err := json.Marshal(obj)
	if err != nil {
		panic("deep copy: " + err.Error())
	}
	if err := json.Unmarshal(b, out); err != nil {
		panic("deep copy: " + err.Error())
	}
	return out
}
