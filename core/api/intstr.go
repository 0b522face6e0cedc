package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString holds an int or a string, as intstr.IntOrString: maxUnavailable: 1 or "10%".
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromInt returns an IntOrString holding i.
func FromInt(i int32) IntOrString { return IntOrString{IntVal: i} }

// FromString returns an IntOrString holding s.
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// String returns the string, or the int in decimal.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// MarshalJSON writes a JSON string or number.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON reads a JSON string or number.
func (v *IntOrString) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		*v = IntOrString{IsString: true}
		return json.Unmarshal(data, &v.StrVal)
	}
	*v = IntOrString{}
	return json.Unmarshal(data, &v.IntVal)
}

// ScaledValue turns v into a count out of total, as intstr.GetScaledValueFromIntOrPercent:
//
//  1. An int is itself.
//  2. A string must end in '%' and be an integer before it; it is that share of total, rounded
//     up when roundUp is set (DaemonSet maxUnavailable and maxSurge), down otherwise.
func ScaledValue(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s, ok := strings.CutSuffix(v.StrVal, "%")
	if !ok {
		return 0, errors.New("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", v.StrVal, err)
	}
	share := float64(n) * float64(total) / 100
	if roundUp {
		return int(math.Ceil(share)), nil
	}
	return int(math.Floor(share)), nil
}
