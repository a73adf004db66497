package validate

import (
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// format is a constraint on the text of a string.
type format struct {
	name  string // after "is not a valid"
	valid func(string) bool
}

// urlFormat accepts URI references: every version lets URLs be relative,
// and internationalized (non-ASCII) text is left to the IRI rules. What is
// refused is text no URL can hold: spaces, controls, <>"\^`{|} and
// malformed escapes.
var urlFormat = &format{name: "URL", valid: func(s string) bool {
	for _, r := range s {
		if r <= ' ' || r == 0x7f || strings.ContainsRune("<>\"\\^`{|}", r) {
			return false
		}
	}
	_, err := url.Parse(s)
	return err == nil
}}

var hostPattern = lazyregexp.New(`^[^{}/ :\\]+(?::\d+)?$`)

// hostFormat is Swagger's host: a name or IP and an optional port, without
// scheme or path.
var hostFormat = &format{name: "host (a name and an optional port, without scheme or path)", valid: func(s string) bool { return hostPattern().MatchString(s) }}

// basePathFormat is Swagger's basePath, which starts with a slash.
var basePathFormat = &format{name: "base path (it must start with \"/\")", valid: func(s string) bool { return strings.HasPrefix(s, "/") }}

// emailFormat accepts a bare address (no display name, no angle brackets).
var emailFormat = &format{name: "email address", valid: func(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Name == "" && a.Address == s
}}

// versionField is the field naming the specification version: a string
// "major.minor.patch" (with an optional pre-release suffix) of the family
// the loader detected.
func versionField(pattern, example string) *scalar {
	re := regexp.MustCompile(pattern)
	return &scalar{kind: spec.String, format: &format{
		name:  fmt.Sprintf("version (expected a version such as %q)", example),
		valid: re.MatchString,
	}}
}

var componentName = lazyregexp.New(`^[a-zA-Z0-9.\-_]+$`)

// componentKey checks the names of reusable components (OpenAPI 3.x,
// AsyncAPI).
func componentKey(key string) string {
	if componentName().MatchString(key) {
		return ""
	}
	return fmt.Sprintf("component name %q must match ^[a-zA-Z0-9.\\-_]+$", key)
}

// pathKey checks the keys of a Paths object.
func pathKey(key string) string {
	if strings.HasPrefix(key, "/") {
		return ""
	}
	return fmt.Sprintf("path %q must start with \"/\"", key)
}

var (
	statusCode3 = lazyregexp.New(`^[1-5](?:[0-9]{2}|XX)$`)
	statusCode2 = lazyregexp.New(`^[0-9]{3}$`)
)

// responseKey3 checks the keys of an OpenAPI 3.x Responses object, where a
// range such as 2XX stands for every code of a class.
func responseKey3(key string) string {
	if statusCode3().MatchString(key) {
		return ""
	}
	return fmt.Sprintf("response code %q is not valid: use a status code such as \"200\", a range such as \"2XX\", or \"default\"", key)
}

// responseKey2 checks the keys of a Swagger 2.0 Responses object, which has
// no ranges.
func responseKey2(key string) string {
	if statusCode2().MatchString(key) {
		return ""
	}
	return fmt.Sprintf("response code %q is not valid: use a 3-digit status code such as \"200\" or \"default\"", key)
}
