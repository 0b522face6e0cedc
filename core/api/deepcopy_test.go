package api

import (
	"encoding/binary"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readBack is what DeepCopy stands for: obj written as JSON and read back, as the API server
// keeps what a client sends it.
func readBack[T any](t *testing.T, v T) T {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out T
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// TestDeepCopyIsWhatItsJSONReadsBackAs pins each of DeepCopy's rules: the copy is what
// json.Marshal and json.Unmarshal make of the object, which is what an API server stores.
func TestDeepCopyIsWhatItsJSONReadsBackAs(t *testing.T) {
	sum := MustParseQuantity("1500m").Add(MustParseQuantity("1Gi"))
	tests := []struct {
		name  string
		pod   func(p *Pod)
		check func(t *testing.T, got *Pod)
	}{{
		name: "a time keeps whole seconds, in UTC",
		pod: func(p *Pod) {
			p.CreationTimestamp = NewTime(time.Date(2026, 12, 1, 3, 4, 5, 999_999_999, time.FixedZone("CET", 3600)))
		},
		check: func(t *testing.T, got *Pod) {
			assert.Equal(t, "2026-12-01T02:04:05Z", got.CreationTimestamp.Format(time.RFC3339Nano))
		},
	}, {
		name: "an empty list tagged omitempty is dropped, an untagged one stays empty",
		pod: func(p *Pod) {
			p.Spec.Tolerations = []Toleration{}
			p.Spec.Containers = []Container{}
		},
		check: func(t *testing.T, got *Pod) {
			assert.Nil(t, got.Spec.Tolerations)
			assert.NotNil(t, got.Spec.Containers)
			assert.Empty(t, got.Spec.Containers)
		},
	}, {
		name: "each byte that is not UTF-8 becomes U+FFFD",
		pod: func(p *Pod) {
			p.Labels = map[string]string{"app": "a\xffb\xe2\x82"}
			p.Spec.NodeName = "\xc0"
		},
		check: func(t *testing.T, got *Pod) {
			assert.Equal(t, "a\uFFFDb\uFFFD\uFFFD", got.Labels["app"])
			assert.Equal(t, "\uFFFD", got.Spec.NodeName)
		},
	}, {
		name: "map keys that are not UTF-8 merge as JSON merges them",
		pod:  func(p *Pod) { p.Annotations = map[string]string{"a\xff": "1", "a\xfe": "2", "b": "3"} },
		check: func(t *testing.T, got *Pod) {
			assert.Len(t, got.Annotations, 2)
		},
	}, {
		name: "a quantity keeps the text it was typed as; a computed one reads back canonical",
		pod: func(p *Pod) {
			p.Spec.Containers = []Container{{Name: "a", Resources: ResourceRequirements{
				Requests: ResourceList{ResourceCPU: MustParseQuantity("1."), ResourceMemory: sum},
			}}}
		},
		check: func(t *testing.T, got *Pod) {
			r := got.Spec.Containers[0].Resources.Requests
			assert.Equal(t, "1.", r[ResourceCPU].String())
			assert.Equal(t, sum.Canonical(), r[ResourceMemory].String())
		},
	}, {
		name: "an int-or-string keeps only the one it holds",
		pod: func(p *Pod) {
			p.Spec.Containers = []Container{{Name: "a", Ports: []ContainerPort{{ContainerPort: 80}},
				LivenessProbe: &Probe{HTTPGet: &HTTPGetAction{Port: IntOrString{IsString: true, IntVal: 8080, StrVal: "http"}}}}}
		},
		check: func(t *testing.T, got *Pod) {
			assert.Equal(t, FromString("http"), got.Spec.Containers[0].LivenessProbe.HTTPGet.Port)
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Pod{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: ObjectMeta{Name: "web", Namespace: "default"}}
			tt.pod(p)
			got := DeepCopyObject(p).(*Pod)
			assert.Equal(t, readBack(t, p), got)
			assert.Equal(t, readBack(t, *p), DeepCopy(*p), "DeepCopy of a value")
			tt.check(t, got)
		})
	}
}

// TestDeepCopySharesNothing: changing the copy's lists, maps and pointers leaves the original as
// it was.
func TestDeepCopySharesNothing(t *testing.T) {
	yes := true
	p := &Pod{ObjectMeta: ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"},
		OwnerReferences: []OwnerReference{{Kind: "DaemonSet", Name: "web", Controller: &yes}}},
		Spec: PodSpec{Containers: []Container{{Name: "web", Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: MustParseQuantity("1")}}}}}}
	want := readBack(t, p)
	c := DeepCopy(p)
	c.Labels["app"] = "other"
	*c.OwnerReferences[0].Controller = false
	c.Spec.Containers[0].Name = "other"
	c.Spec.Containers[0].Resources.Limits[ResourceCPU] = MustParseQuantity("2")
	assert.Equal(t, want, p)
}

// FuzzDeepCopyIsTheJSONRoundTrip fills every kind of object from the fuzzer's bytes (nil, empty
// and full lists and maps, strings that are not UTF-8, times with nanoseconds, quantities typed
// and computed) and holds DeepCopyObject to the JSON round trip.
func FuzzDeepCopyIsTheJSONRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Add([]byte("\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0\xef\xee"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range Kinds {
			obj := k.New()
			(&filler{data: data}).fill(reflect.ValueOf(obj).Elem(), 0)
			want := k.New()
			b, err := json.Marshal(obj)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, want))
			if !assert.Equal(t, want, DeepCopyObject(obj), k.Kind) {
				t.FailNow()
			}
		}
	})
}

// filler sets values from a stream of bytes (zeros once it runs out).
type filler struct{ data []byte }

func (f *filler) next() byte {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[0]
	f.data = f.data[1:]
	return b
}

var (
	fillStrings    = []string{"", "a", "web", "a\xffb", "\xe2\x82", "é", "\u2028<&>", "\x00", "10%"}
	fillQuantities = []string{"0", "100m", "64Mi", "1.", "1.5", "1e3", "0.1Ki", "1000m", "5Gi", "-2"}
	fillRaw        = []string{`{"a": 1}`, ` [1, 2] `, `null`, `"x"`}
	rawMessageType = reflect.TypeFor[json.RawMessage]()
)

func (f *filler) fill(v reflect.Value, depth int) {
	switch v.Type() {
	case timeType:
		if b := f.next(); b != 0 {
			var buf [4]byte
			for i := range buf {
				buf[i] = f.next()
			}
			at := time.Unix(int64(binary.LittleEndian.Uint32(buf[:])), int64(b)*3_900_000)
			v.Set(reflect.ValueOf(NewTime(at.In(time.FixedZone("", 3600*int(b%5))))))
		}
		return
	case quantityType:
		q := MustParseQuantity(fillQuantities[int(f.next())%len(fillQuantities)])
		if b := f.next(); b%2 == 1 {
			q = q.Add(MustParseQuantity(fillQuantities[int(b/2)%len(fillQuantities)]))
		}
		v.Set(reflect.ValueOf(q))
		return
	case rawMessageType:
		if b := f.next(); b%5 != 0 {
			v.Set(reflect.ValueOf(json.RawMessage(fillRaw[int(b)%len(fillRaw)])))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if f.next()%3 != 0 && depth < 8 {
			v.Set(reflect.New(v.Type().Elem()))
			f.fill(v.Elem(), depth+1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				f.fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		n := int(f.next() % 4)
		if n == 0 || depth >= 8 {
			return
		}
		s := reflect.MakeSlice(v.Type(), n-1, n-1)
		for i := range n - 1 {
			f.fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		n := int(f.next() % 4)
		if n == 0 || depth >= 8 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range n - 1 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			f.fill(k, depth+1)
			f.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(fillStrings[int(f.next())%len(fillStrings)])
	case reflect.Bool:
		v.SetBool(f.next()%2 == 1)
	case reflect.Int32, reflect.Int64:
		v.SetInt(int64(int8(f.next())) << (f.next() % 56))
	case reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.next()) << (f.next() % 56))
	}
}
