package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// selectorInputs come from apimachinery's selector_test.go (TestSelectorParse, TestLexer,
// TestRequirementConstructor) and kubectl usage.
var selectorInputs = []string{
	"", "x=a,y=b,z=c", "x!=a,y=b", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5", "x in (a,b)",
	"x notin (a,b)", "x in (,)", "x in ()", "x in (,a)", "x in (a,,b)", "x in (in)", "notin in (notin)",
	"x=a||y=b", "x==a==b", "!x=a", "x<a", "x>1.1", "x in (a", "x in a", "x in (a b)", "x==a", "x=a,",
	",x=a", "x,,y", "a b", "x y=z", "key=value with space", "app=web, tier in (fe)", "ke$y=v",
	"x=" + "a123456789012345678901234567890123456789012345678901234567890123",
	"example.com/app=web", "/x=a", "a/b/c=d", "x=a,x=b", "!", "=", "x!", "x===a", "x=!a",
	"environment in (production, qa)", "tier notin (frontend, backend)", "!partition", "x=(a)",
	"x in (a,b),y", "k8s-app", "x >= 1", "x<-1", "x in (a,b)c",
}

// TestSelectorParseMatchesApimachinery pins ParseSelector to labels.Parse: the same errors, the
// same canonical string, the same matching.
func TestSelectorParseMatchesApimachinery(t *testing.T) {
	for _, in := range selectorInputs {
		t.Run(in, func(t *testing.T) { assertSelectorMatches(t, in) })
	}
}

var labelSets = []map[string]string{
	{}, {"x": "a"}, {"x": "b", "y": "b"}, {"x": "2", "z": "4"}, {"x": "", "z": ""}, {"x": "in"},
	{"app": "web", "tier": "fe"}, {"environment": "qa"}, {"partition": "p"}, {"k8s-app": "dns"},
}

func assertSelectorMatches(t *testing.T, in string) {
	want, wantErr := labels.Parse(in)
	got, gotErr := ParseSelector(in)
	if wantErr != nil {
		require.Error(t, gotErr, "upstream rejects %q", in)
		assert.Equal(t, wantErr.Error(), gotErr.Error())
		return
	}
	require.NoError(t, gotErr)
	assert.Equal(t, want.String(), got.String())
	for _, set := range labelSets {
		assert.Equal(t, want.Matches(labels.Set(set)), got.Matches(set), "%q on %v", in, set)
	}
}

// TestLabelSelectorAsSelectorMatchesApimachinery pins the API form (matchLabels and
// matchExpressions) to metav1.LabelSelectorAsSelector, including nil (nothing) and {} (everything).
func TestLabelSelectorAsSelectorMatchesApimachinery(t *testing.T) {
	cases := []struct {
		name string
		sel  *LabelSelector
	}{
		{"nil matches nothing", nil},
		{"empty matches everything", &LabelSelector{}},
		{"matchLabels", &LabelSelector{MatchLabels: map[string]string{"x": "a", "app": "web"}}},
		{"in", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "x", Operator: LabelSelectorOpIn, Values: []string{"b", "a"}}}}},
		{"notin", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "x", Operator: LabelSelectorOpNotIn, Values: []string{"a"}}}}},
		{"exists and does not exist", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "z", Operator: LabelSelectorOpExists}, {Key: "y", Operator: LabelSelectorOpDoesNotExist}}}},
		{"bad operator", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "x", Operator: "Gt", Values: []string{"1"}}}}},
		{"in without values", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "x", Operator: LabelSelectorOpIn}}}},
		{"bad key", &LabelSelector{MatchLabels: map[string]string{"a b": "c"}}},
		{"bad value", &LabelSelector{MatchLabels: map[string]string{"a": "-c"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var up *metav1.LabelSelector
			if tc.sel != nil {
				up = &metav1.LabelSelector{MatchLabels: tc.sel.MatchLabels}
				for _, e := range tc.sel.MatchExpressions {
					up.MatchExpressions = append(up.MatchExpressions, metav1.LabelSelectorRequirement{Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values})
				}
			}
			want, wantErr := metav1.LabelSelectorAsSelector(up)
			got, gotErr := LabelSelectorAsSelector(tc.sel)
			if wantErr != nil {
				assert.EqualError(t, gotErr, wantErr.Error())
				return
			}
			require.NoError(t, gotErr)
			assert.Equal(t, want.String(), got.String())
			assert.Equal(t, metav1.FormatLabelSelector(up), FormatLabelSelector(tc.sel))
			for _, set := range labelSets {
				assert.Equal(t, want.Matches(labels.Set(set)), got.Matches(set), "%v", set)
			}
		})
	}
}

func FuzzParseSelector(f *testing.F) {
	for _, in := range selectorInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) { assertSelectorMatches(t, in) })
}
