package schema

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// formats are the OpenAPI formats, and the JSON Schema ones that the
// validator does not know, checked beside its own (date, date-time, time,
// duration, email, hostname, ipv4, ipv6, uri, uri-reference, iri,
// uri-template, uuid, json-pointer, relative-json-pointer, regex). Any
// other format is an annotation: never an error.
var formats = []*jsonschema.Format{
	{Name: "int32", Validate: integerRange(math.MinInt32, math.MaxInt32)},
	{Name: "int64", Validate: integerRange(math.MinInt64, math.MaxInt64)},
	{Name: "float", Validate: floatRange(math.MaxFloat32)},
	{Name: "double", Validate: floatRange(math.MaxFloat64)},
	{Name: "byte", Validate: validateBase64},
	{Name: "binary", Validate: func(any) error { return nil }},
	{Name: "password", Validate: func(any) error { return nil }},
	{Name: "idn-email", Validate: validateIDNEmail},
	{Name: "idn-hostname", Validate: validateIDNHostname},
}

// numberOf reads a JSON number as an exact rational; ok is false for
// anything else.
func numberOf(v any) (*big.Rat, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = string(n)
	case float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		s = fmt.Sprint(n)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func integerRange(lo, hi int64) func(any) error {
	min, max := big.NewRat(lo, 1), big.NewRat(hi, 1)
	return func(v any) error {
		r, ok := numberOf(v)
		if !ok || !r.IsInt() {
			return nil // the type keyword says whether it must be an integer
		}
		if r.Cmp(min) < 0 || r.Cmp(max) > 0 {
			return fmt.Errorf("out of range [%d, %d]", lo, hi)
		}
		return nil
	}
}

func floatRange(limit float64) func(any) error {
	max := new(big.Rat).SetFloat64(limit)
	return func(v any) error {
		r, ok := numberOf(v)
		if !ok {
			return nil
		}
		if new(big.Rat).Abs(r).Cmp(max) > 0 {
			return fmt.Errorf("magnitude beyond %g", limit)
		}
		return nil
	}
}

// validateBase64 accepts RFC 4648 base64, padded or not, in the standard
// or the URL-safe alphabet.
func validateBase64(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if _, err := enc.DecodeString(s); err == nil {
			return nil
		}
	}
	return errors.New("not base64-encoded data")
}

// validateIDNEmail checks an internationalized email address (RFC 6531):
// an email address whose local part and domain may hold non-ASCII
// characters.
func validateIDNEmail(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return errors.New("expected local-part@domain")
	}
	local, domain := s[:at], s[at+1:]
	if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return errors.New("misplaced dot in the local part")
	}
	for _, r := range local {
		if r < 0x80 && !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", r)) {
			return fmt.Errorf("invalid character %q in the local part", r)
		}
		if r >= 0x80 && !unicode.IsPrint(r) {
			return fmt.Errorf("invalid character %q in the local part", r)
		}
	}
	if err := validateIDNHostname(domain); err != nil {
		return fmt.Errorf("invalid domain: %w", err)
	}
	return nil
}

// validateIDNHostname checks an internationalized host name (RFC 5890):
// dot-separated labels of letters, marks, digits and hyphens, neither
// starting nor ending with a hyphen. The ideographic full stops count as
// dots.
func validateIDNHostname(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	s = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(s)
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253*4 {
		return errors.New("expected 1 to 253 characters")
	}
	for _, label := range strings.Split(s, ".") {
		n := len([]rune(label))
		if n == 0 || n > 63 {
			return errors.New("each label must have 1 to 63 characters")
		}
		if strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return errors.New("a label starts or ends with a hyphen")
		}
		for i, r := range label {
			switch {
			case r == '-', r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r) && i > 0):
			default:
				return fmt.Errorf("invalid character %q", r)
			}
		}
	}
	return nil
}
