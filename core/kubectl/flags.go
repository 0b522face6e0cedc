package kubectl

import (
	"fmt"
	"strings"
)

// flagSpec declares one flag of a command: its long name, its one-letter shorthand (0 for none)
// and whether it is a boolean (takes no value).
type flagSpec struct {
	name      string
	shorthand byte
	boolean   bool
}

// flags holds what a command line set.
type flags struct {
	values map[string]string // by long name; booleans are "true"
	args   []string          // positional arguments
}

func (f flags) has(name string) bool    { _, ok := f.values[name]; return ok }
func (f flags) get(name string) string  { return f.values[name] }
func (f flags) isTrue(name string) bool { return f.values[name] == "true" }

// usageError is an error kubectl prints followed by a hint at the command's help.
type usageError struct {
	msg, command string
}

func (e usageError) Error() string {
	return fmt.Sprintf("error: %s\nSee 'kubectl %s --help' for usage.", e.msg, e.command)
}

// parseFlags reads a command line as pflag does: --name=value, --name value, -x value, -xvalue,
// booleans as --name or --name=true|false, "--" ending the flags; flags and arguments may mix.
func parseFlags(command string, args []string, specs []flagSpec) (flags, error) {
	f := flags{values: map[string]string{}}
	byName, byShort := map[string]flagSpec{}, map[byte]flagSpec{}
	for _, s := range specs {
		byName[s.name] = s
		if s.shorthand != 0 {
			byShort[s.shorthand] = s
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			f.args = append(f.args, args[i+1:]...)
			return f, nil
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			s, ok := byName[name]
			if !ok {
				return f, usageError{"unknown flag: --" + name, command}
			}
			if !hasValue && !s.boolean {
				if i+1 == len(args) {
					return f, usageError{"flag needs an argument: --" + name, command}
				}
				i++
				value = args[i]
			}
			if s.boolean && !hasValue {
				value = "true"
			}
			f.values[name] = value
		case strings.HasPrefix(a, "-") && a != "-":
			consumed, err := f.parseShorthands(command, a, args[i+1:], byShort)
			if err != nil {
				return f, err
			}
			i += consumed
		default:
			f.args = append(f.args, a)
		}
	}
	return f, nil
}

// parseShorthands reads one "-abc" argument: booleans may be grouped, and the first flag that
// takes a value takes the rest of the argument, or the next argument. It returns how many of
// the following arguments it used.
func (f flags) parseShorthands(command, a string, rest []string, byShort map[byte]flagSpec) (int, error) {
	for j := 1; j < len(a); j++ {
		s, ok := byShort[a[j]]
		if !ok {
			return 0, usageError{fmt.Sprintf("unknown shorthand flag: '%c' in %s", a[j], a), command}
		}
		if s.boolean {
			f.values[s.name] = "true"
			continue
		}
		if value := a[j+1:]; value != "" {
			f.values[s.name] = strings.TrimPrefix(value, "=")
			return 0, nil
		}
		if len(rest) == 0 {
			return 0, usageError{fmt.Sprintf("flag needs an argument: '%c' in -%c", s.shorthand, s.shorthand), command}
		}
		f.values[s.name] = rest[0]
		return 1, nil
	}
	return 0, nil
}
