package dsl

import (
	"fmt"
	"regexp"
	"strings"
)

// RegexError is a JavaScript regular expression that RE2 (the engine of
// Go and OPA) cannot evaluate with the same meaning.
type RegexError struct {
	Pattern string
	Msg     string
}

func (e *RegexError) Error() string {
	return fmt.Sprintf("regular expression /%s/: %s", e.Pattern, e.Msg)
}

// ParsePattern reads a Spectral pattern option: "/source/flags" or a bare
// source, as Spectral's pattern function does.
func ParsePattern(s string) (Regex, error) {
	if len(s) > 2 && s[0] == '/' {
		if i := strings.LastIndexByte(s, '/'); i > 0 {
			flags := s[i+1:]
			if strings.Trim(flags, "abcdefghijklmnopqrstuvwxyz") == "" {
				return TranslateRegex(s[1:i], flags)
			}
		}
	}
	return TranslateRegex(s, "")
}

// TranslateRegex turns a JavaScript regular expression into RE2 syntax,
// or explains why it cannot: lookaround and backreferences have no RE2
// equivalent, and evaluating them as something else would be wrong.
func TranslateRegex(src, flags string) (Regex, error) {
	var b strings.Builder
	prefix := ""
	for _, f := range flags {
		switch f {
		case 'i', 'm', 's':
			if !strings.ContainsRune(prefix, f) {
				prefix += string(f)
			}
		case 'g', 'u', 'd', 'v':
			// global, unicode and indices change nothing for a test.
		case 'y':
			return Regex{}, &RegexError{src, "the sticky flag 'y' has no meaning here"}
		default:
			return Regex{}, &RegexError{src, fmt.Sprintf("unknown flag %q", f)}
		}
	}
	if prefix != "" {
		b.WriteString("(?" + prefix + ")")
	}
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			n := src[i+1]
			switch {
			case n >= '1' && n <= '9' && !inClass:
				return Regex{}, &RegexError{src, fmt.Sprintf("backreference \\%c is not supported by RE2", n)}
			case n == 'k' && i+2 < len(src) && src[i+2] == '<':
				return Regex{}, &RegexError{src, "named backreference \\k<...> is not supported by RE2"}
			case n == 'u' && i+5 < len(src) && isHex(src[i+2:i+6]):
				b.WriteString(`\x{` + src[i+2:i+6] + `}`)
				i += 5
				continue
			case n == 'u' && i+2 < len(src) && src[i+2] == '{':
				end := strings.IndexByte(src[i:], '}')
				if end < 0 {
					return Regex{}, &RegexError{src, "unterminated \\u{...}"}
				}
				b.WriteString(`\x` + src[i+2:i+end+1])
				i += end
				continue
			case n == 'c' || n == '0' && !inClass:
				if n == '0' {
					b.WriteString(`\x00`)
					i++
					continue
				}
				return Regex{}, &RegexError{src, "control escapes \\cX are not supported"}
			case n == '/':
				b.WriteByte('/')
				i++
				continue
			}
			b.WriteByte(c)
			b.WriteByte(n)
			i++
			continue
		case c == '[' && !inClass:
			inClass = true
			if strings.HasPrefix(src[i:], "[^]") {
				b.WriteString(`(?s:.)`)
				i += 2
				inClass = false
				continue
			}
		case c == ']' && inClass:
			inClass = false
		case c == '(' && !inClass && strings.HasPrefix(src[i:], "(?"):
			rest := src[i+2:]
			switch {
			case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"):
				return Regex{}, &RegexError{src, "lookahead (?=...) and (?!...) are not supported by RE2; rewrite the pattern or use notMatch"}
			case strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
				return Regex{}, &RegexError{src, "lookbehind (?<=...) and (?<!...) are not supported by RE2"}
			}
		}
		b.WriteByte(c)
	}
	re := b.String()
	if _, err := regexp.Compile(re); err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return Regex{}, &RegexError{src, "not valid in RE2: " + msg}
	}
	return Regex{Source: src, Flags: flags, RE2: re}, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
