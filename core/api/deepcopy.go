package api

import "encoding/json"

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
