package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// CheckSecuritySchemes checks the credentials configured for a spec against
// the loaded document: each scheme name must be one of its security schemes
// (components.securitySchemes, or Swagger's securityDefinitions), and its
// type must fit the scheme's (bearer is an http scheme with scheme bearer,
// basicAuth one with scheme basic). The error, when there is one, is
// Errors, each naming the configuration's place and the spec file.
func (s *Spec) CheckSecuritySchemes(doc *spec.Document) error {
	if len(s.Security) == 0 {
		return nil
	}
	schemes := map[string]*spec.SecurityScheme{}
	var names []string
	for _, sc := range doc.Views().SecuritySchemes {
		schemes[sc.Name] = sc
		names = append(names, sc.Name)
	}
	sort.Strings(names)
	where := "components.securitySchemes"
	if doc.Format == spec.Swagger {
		where = "securityDefinitions"
	}
	var errs Errors
	for _, c := range s.Security {
		sc := schemes[c.Scheme]
		if sc == nil {
			hint := suggest.Hint(c.Scheme, names)
			switch {
			case hint != "":
			case len(names) == 0:
				hint = fmt.Sprintf(" (it has no %s)", where)
			default:
				hint = " (it has: " + strings.Join(names, ", ") + ")"
			}
			errs = append(errs, &spec.Error{File: s.File, Pos: c.At, Pointer: c.Pointer,
				Msg: fmt.Sprintf("security scheme %q of spec %q is not in %s of %s%s", c.Scheme, s.ID, where, doc.Root.Name, hint)})
			continue
		}
		if want := schemeType(sc); want != "" && want != c.Type {
			errs = append(errs, &spec.Error{File: s.File, Pos: c.At, Pointer: c.Pointer,
				Msg: fmt.Sprintf("security scheme %q of spec %q is configured as %s, but %s of %s declares it as %s (write type: %s)", c.Scheme, s.ID, c.Type, where, doc.Root.Name, describe(sc), want)})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// schemeType is the credential type that fits a security scheme, or "" for
// one that a configured credential cannot serve (mutualTLS, an unknown
// http scheme).
func schemeType(sc *spec.SecurityScheme) SchemeType {
	switch sc.Type {
	case "oauth2":
		return OAuth2
	case "openIdConnect":
		return OpenIDConnect
	case "apiKey":
		return APIKey
	case "http", "basic":
		switch strings.ToLower(sc.Scheme) {
		case "bearer":
			return Bearer
		case "basic":
			return BasicAuth
		}
	}
	return ""
}

func describe(sc *spec.SecurityScheme) string {
	if sc.Scheme != "" {
		return fmt.Sprintf("type %s, scheme %s", sc.Type, sc.Scheme)
	}
	return "type " + sc.Type
}
