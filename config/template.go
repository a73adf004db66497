package config

import (
	"fmt"
	"strings"
)

// Expand replaces every ${NAME} and ${NAME:default} in s with the value of
// the environment variable NAME, read through getenv (an empty value counts
// as unset, as with the shell's ${NAME:-default}). An unset variable takes
// its default, which may be empty and may contain colons (everything after
// the first one); an unset variable without a default becomes
// Placeholder(NAME) and its name is returned in missing, in order, so that
// the caller decides whether that is an error (strict mode) or a warning.
// $${ stands for a literal ${. A ${ without its closing brace, or with a name
// that is not [A-Za-z_][A-Za-z0-9_.]*, is an error.
func Expand(s string, getenv func(string) string) (out string, missing []string, err error) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			break
		}
		if i > 0 && s[i-1] == '$' {
			// $${ is a literal ${.
			b.WriteString(s[:i-1])
			b.WriteString("${")
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", nil, fmt.Errorf("%q has a ${ without its closing }", s[i:])
		}
		body := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(body, ":")
		if !validName(name) {
			return "", nil, fmt.Errorf("${%s} does not name a variable: a name is a letter or _, then letters, digits, _ or .", body)
		}
		switch v := getenv(name); {
		case v != "":
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			b.WriteString(Placeholder(name))
			missing = append(missing, name)
		}
		s = s[i+end+1:]
	}
	return b.String(), missing, nil
}

// HasTemplate reports whether s holds a ${NAME} template (a literal $${
// aside).
func HasTemplate(s string) bool {
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return false
		}
		if i == 0 || s[i-1] != '$' {
			return true
		}
		s = s[i+2:]
	}
}

// Placeholder is the value generated for a variable that is unset and has no
// default when strict mode is off: recognisable in a request or a log, and
// the same on every run.
func Placeholder(name string) string { return "generated-" + name }

func validName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case i > 0 && (r >= '0' && r <= '9' || r == '.'):
		default:
			return false
		}
	}
	return true
}
