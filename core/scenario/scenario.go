// Package scenario runs scenario files: a starting cluster, a seed and a list of command lines,
// each with what its output must be. They are DaemonLab's golden tests, its lessons' checks and
// what `daemonlab run` runs (see DESIGN.md, "Scenario files").
package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"daemonlab/core/api"
	"daemonlab/core/shell"
	"daemonlab/core/sim"
)

// Scenario is one scenario file.
type Scenario struct {
	Name    string  `json:"name"`
	Seed    *uint64 `json:"seed,omitempty"`    // default 1
	Cluster string  `json:"cluster,omitempty"` // a sim.Topology; default "default"
	Steps   []Step  `json:"steps"`
}

// Step is one command line and what must hold after it.
type Step struct {
	Run          string   `json:"run"`
	Stdin        string   `json:"stdin,omitempty"`
	Want         *string  `json:"want,omitempty"`         // exact stdout, trailing whitespace trimmed
	WantContains []string `json:"wantContains,omitempty"` // strings stdout must contain
	WantMatch    string   `json:"wantMatch,omitempty"`    // a regular expression stdout must match
	WantErr      *string  `json:"wantErr,omitempty"`      // the command must fail; stderr contains this
}

// Parse reads a scenario file strictly: unknown fields and bad values are errors with their
// line, and every step's expectations must make sense.
func Parse(data []byte) (*Scenario, error) {
	var sc Scenario
	if err := api.DecodeStrict(data, &sc, "scenario file"); err != nil {
		return nil, err
	}
	if sc.Name == "" {
		return nil, errors.New("a scenario needs a name")
	}
	topology, err := sim.ParseTopology(sc.Cluster)
	if err != nil {
		return nil, err
	}
	sc.Cluster = string(topology)
	if len(sc.Steps) == 0 {
		return nil, errors.New("a scenario needs steps")
	}
	for i, st := range sc.Steps {
		if err := st.Validate(); err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
	}
	return &sc, nil
}

// Validate says what is wrong with a step: an empty command line, or a wantMatch that is not a
// regular expression.
func (st Step) Validate() error {
	if strings.TrimSpace(st.Run) == "" {
		return errors.New("run is empty")
	}
	if st.WantMatch != "" {
		if _, err := regexp.Compile(st.WantMatch); err != nil {
			return fmt.Errorf("wantMatch: %v", err)
		}
	}
	return nil
}

// Failure says which step of a scenario failed and how.
type Failure struct {
	Step    int // 1-based
	Run     string
	Problem string
}

func (f *Failure) Error() string {
	return fmt.Sprintf("step %d (%s): %s", f.Step, f.Run, f.Problem)
}

// Run plays a scenario on a new cluster and returns the first step that does not hold.
func (sc *Scenario) Run() error {
	_, err := sc.Play()
	return err
}

// Play plays a scenario on a new cluster and returns the cluster as the last step left it,
// or the first step that does not hold.
func (sc *Scenario) Play() (*sim.Sim, error) {
	seed := uint64(1)
	if sc.Seed != nil {
		seed = *sc.Seed
	}
	s, err := sim.New(seed, sim.Topology(sc.Cluster))
	if err != nil {
		return nil, err
	}
	for i, st := range sc.Steps {
		r := shell.Run(s, st.Run, st.Stdin)
		if problem := Check(st, r); problem != "" {
			return nil, &Failure{Step: i + 1, Run: st.Run, Problem: problem}
		}
	}
	return s, nil
}

// Check compares one step's result with its expectations; "" means it holds (lessons check
// their goals with it too).
func Check(st Step, r shell.Result) string {
	out := strings.TrimRight(r.Out, " \t\n")
	if st.WantErr != nil {
		if r.Code == 0 {
			return fmt.Sprintf("want a failure, got success with output:\n%s", out)
		}
		if !strings.Contains(r.Err, *st.WantErr) {
			return fmt.Sprintf("want an error containing:\n%s\ngot:\n%s", *st.WantErr, r.Err)
		}
		return ""
	}
	if r.Code != 0 {
		return fmt.Sprintf("failed (exit %d):\n%s", r.Code, r.Err)
	}
	if st.Want != nil {
		if want := strings.TrimRight(*st.Want, " \t\n"); trimLines(want) != trimLines(out) {
			return fmt.Sprintf("want:\n%s\ngot:\n%s", want, out)
		}
	}
	for _, w := range st.WantContains {
		if !strings.Contains(out, w) {
			return fmt.Sprintf("want output containing %q, got:\n%s", w, out)
		}
	}
	if st.WantMatch != "" && !regexp.MustCompile(st.WantMatch).MatchString(out) {
		return fmt.Sprintf("want output matching %s, got:\n%s", st.WantMatch, out)
	}
	return ""
}

// trimLines drops trailing blanks from every line, as table output pads its last column.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}
