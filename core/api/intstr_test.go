package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// intOrStringCases come from pkg/controller/daemon/update_test.go (TestGetUnavailableNumbers: 50%
// of 3 is 2, of 2 is 1, 100% of 2 is 2) and k8s.io/apimachinery's pkg/util/intstr/intstr_test.go.
var intOrStringCases = []struct {
	v       IntOrString
	total   int
	roundUp bool
}{
	{FromString("50%"), 3, true}, {FromString("50%"), 2, true}, {FromString("100%"), 2, true},
	{FromString("10%"), 5000, true}, {FromString("10%"), 3, true}, {FromString("10%"), 3, false},
	{FromString("0%"), 3, true}, {FromString("33%"), 7, false}, {FromInt(1), 3, true},
	{FromInt(0), 0, true}, {FromString("abc"), 3, true}, {FromString("1"), 3, true},
	{FromString("1.5%"), 3, true}, {FromString("%"), 3, true}, {FromString("-10%"), 3, true},
	{FromString("200%"), 3, true},
}

func upstreamIntOrString(v IntOrString) intstr.IntOrString {
	if v.IsString {
		return intstr.FromString(v.StrVal)
	}
	return intstr.FromInt32(v.IntVal)
}

// TestScaledValueMatchesIntstr pins ScaledValue to intstr.GetScaledValueFromIntOrPercent: the
// scaling, the rounding and the error messages.
func TestScaledValueMatchesIntstr(t *testing.T) {
	for _, tc := range intOrStringCases {
		assertScaledMatches(t, tc.v, tc.total, tc.roundUp)
	}
}

func assertScaledMatches(t *testing.T, v IntOrString, total int, roundUp bool) {
	up := upstreamIntOrString(v)
	want, wantErr := intstr.GetScaledValueFromIntOrPercent(&up, total, roundUp)
	got, gotErr := ScaledValue(&v, total, roundUp)
	if wantErr != nil {
		assert.EqualError(t, gotErr, wantErr.Error(), "%v of %d", v, total)
		return
	}
	assert.NoError(t, gotErr)
	assert.Equal(t, want, got, "%v of %d (round up %v)", v, total, roundUp)
}

func FuzzScaledValue(f *testing.F) {
	for _, tc := range intOrStringCases {
		f.Add(tc.v.IsString, tc.v.IntVal, tc.v.StrVal, tc.total, tc.roundUp)
	}
	f.Fuzz(func(t *testing.T, isString bool, i int32, s string, total int, roundUp bool) {
		if total < 0 || total > 1_000_000 {
			return // DaemonLab scales over node counts
		}
		assertScaledMatches(t, IntOrString{IsString: isString, IntVal: i, StrVal: s}, total, roundUp)
	})
}
