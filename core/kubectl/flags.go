package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FlagSpec declares one flag of a command: its long name, its one-letter shorthand (0 for none),
// whether it is a boolean (takes no value), and how its value is checked as pflag's flag of
// its type parses it (IsInt, IsDuration; nil for a string).
type FlagSpec struct {
	Name      string
	Shorthand byte
	Boolean   bool
	Check     func(string) error
}

// IsInt, IsInt32 and IsDuration check a value as pflag's int, int32 and duration flags parse
// it.
func IsInt(v string) error {
	_, err := strconv.ParseInt(v, 0, 64)
	return err
}

func IsInt32(v string) error {
	_, err := strconv.ParseInt(v, 0, 32)
	return err
}

func IsDuration(v string) error {
	_, err := time.ParseDuration(v)
	return err
}

// Flags holds what a command line set.
type Flags struct {
	values map[string][]string // by long name, every value given in order; booleans are "true"
	Args   []string            // positional arguments
}

// Has reports whether a flag was given.
func (f Flags) Has(name string) bool { return len(f.values[name]) > 0 }

// Get returns the last value given for a flag, as pflag does for a flag given twice.
func (f Flags) Get(name string) string {
	if v := f.values[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// Int is an IsInt flag's value, 0 when it is not set.
func (f Flags) Int(name string) int64 {
	n, _ := strconv.ParseInt(f.Get(name), 0, 64)
	return n
}

// Duration is an IsDuration flag's value, 0 when it is not set.
func (f Flags) Duration(name string) time.Duration {
	d, _ := time.ParseDuration(f.Get(name))
	return d
}

// Names lists the flags given, by their long names, sorted.
func (f Flags) Names() []string { return slices.Sorted(maps.Keys(f.values)) }

// All returns every value given for a repeatable flag (--label a=b --label c=d).
func (f Flags) All(name string) []string { return f.values[name] }

// IsTrue reports whether a boolean flag is set.
func (f Flags) IsTrue(name string) bool { return f.Get(name) == "true" }

func (f Flags) set(name, value string) { f.values[name] = append(f.values[name], value) }

// usageError is an error kubectl prints followed by a hint at the command's help.
type usageError struct {
	msg, command string
}

func (e usageError) Error() string {
	return fmt.Sprintf("error: %s\nSee 'kubectl %s --help' for usage.", e.msg, e.command)
}

// ParseFlags reads the arguments of a kubectl-style command as pflag does: --name=value, --name value, -x value, -xvalue,
// booleans as --name or --name=true|false, "--" ending the flags; flags and arguments may mix.
func ParseFlags(command string, args []string, specs []FlagSpec) (Flags, error) {
	f := Flags{values: map[string][]string{}}
	byName, byShort := map[string]FlagSpec{}, map[byte]FlagSpec{}
	for _, s := range specs {
		byName[s.Name] = s
		if s.Shorthand != 0 {
			byShort[s.Shorthand] = s
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			f.Args = append(f.Args, args[i+1:]...)
			return f, nil
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			s, ok := byName[name]
			if !ok {
				return f, unknownFlag(command, "--"+name, "unknown flag: --"+name)
			}
			if !hasValue && !s.Boolean {
				if i+1 == len(args) {
					return f, usageError{"flag needs an argument: --" + name, command}
				}
				i++
				value = args[i]
			}
			if s.Boolean && !hasValue {
				value = "true"
			}
			if err := f.setValue(s, value, command); err != nil {
				return f, err
			}
		case strings.HasPrefix(a, "-") && a != "-":
			consumed, err := f.parseShorthands(command, a, args[i+1:], byShort)
			if err != nil {
				return f, err
			}
			i += consumed
		default:
			f.Args = append(f.Args, a)
		}
	}
	return f, nil
}

// unknownFlag is pflag's error for a flag the command does not declare, unless kubectl's own
// help for the command lists it (as "--name=" or "-x, --name="): then it is a flag DaemonLab
// does not support yet, and says so.
func unknownFlag(command, flag, pflagMessage string) error {
	lists := func(help string) bool {
		return strings.Contains(help, "    "+flag+"=") || strings.Contains(help, "    "+flag+", --") || strings.Contains(help, ", "+flag+"=")
	}
	switch {
	case lists(helpText(command)):
		return usageError{fmt.Sprintf("DaemonLab's kubectl %s does not support %s yet", command, flag), command}
	case helpText(command) != "" && lists(helpText("options")):
		return usageError{fmt.Sprintf("DaemonLab's kubectl does not support the global flag %s yet", flag), command}
	}
	return usageError{pflagMessage, command}
}

// setValue records a flag's value; a boolean's must be one strconv.ParseBool reads, and is
// stored as "true" or "false"; another's must pass its Check.
func (f Flags) setValue(s FlagSpec, value, command string) error {
	var err error
	switch {
	case s.Boolean:
		var b bool
		if b, err = strconv.ParseBool(value); err == nil {
			value = strconv.FormatBool(b)
		}
	case s.Check != nil:
		err = s.Check(value)
	}
	if err != nil {
		name := "--" + s.Name
		if s.Shorthand != 0 {
			name = fmt.Sprintf("-%c, --%s", s.Shorthand, s.Name)
		}
		return usageError{fmt.Sprintf("invalid argument %q for %q flag: %v", value, name, err), command}
	}
	f.set(s.Name, value)
	return nil
}

// parseShorthands reads one "-abc" argument: booleans may be grouped, and the first flag that
// takes a value takes the rest of the argument, or the next argument. It returns how many of
// the following arguments it used.
func (f Flags) parseShorthands(command, a string, rest []string, byShort map[byte]FlagSpec) (int, error) {
	for j := 1; j < len(a); j++ {
		s, ok := byShort[a[j]]
		if !ok {
			return 0, unknownFlag(command, fmt.Sprintf("-%c", a[j]), fmt.Sprintf("unknown shorthand flag: '%c' in %s", a[j], a))
		}
		if s.Boolean && strings.HasPrefix(a[j+1:], "=") {
			return 0, f.setValue(s, a[j+2:], command)
		}
		if s.Boolean {
			f.set(s.Name, "true")
			continue
		}
		if value := a[j+1:]; value != "" {
			return 0, f.setValue(s, strings.TrimPrefix(value, "="), command)
		}
		if len(rest) == 0 {
			return 0, usageError{fmt.Sprintf("flag needs an argument: '%c' in -%c", s.Shorthand, s.Shorthand), command}
		}
		return 1, f.setValue(s, rest[0], command)
	}
	return 0, nil
}
