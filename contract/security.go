package contract

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
)

// CheckSecurity tells whether a request carries credentials for the
// effective security requirement of op: one of its alternatives with
// every scheme in it satisfied. What counts as credentials:
//
//   - apiKey: the header, query parameter or cookie it names is present;
//   - http basic: "Authorization: Basic" and base64 of user:password;
//   - http bearer, oauth2, openIdConnect: "Authorization: Bearer" and a
//     token that is not empty;
//   - another http scheme: an Authorization header with its name;
//   - mutualTLS, and schemes the document does not declare: accepted.
//
// No requirement, an empty one (security: []) or an empty alternative
// ({}) needs no credentials. The result is nil when the request passes,
// else one problem saying what each alternative lacks, and the challenges a
// server sends in WWW-Authenticate with its 401.
func (c *Contract) CheckSecurity(op *spec.Operation, req *Request) ([]Problem, []string) {
	sec := op.Security
	if sec == nil || len(sec.Alternatives) == 0 {
		return nil, nil
	}
	var query []qpair
	if req.RawQuery != "" {
		query = parseQuery(req.RawQuery)
	}
	cookies := parseCookies(req.Header)
	var lacks, malformed []string
	var challenges []string
	for _, alt := range sec.Alternatives {
		var missing []string
		for _, s := range alt.Schemes {
			scheme := c.schemes[s.Name]
			if scheme == nil {
				continue
			}
			if ok, what, bad := carries(scheme, req.Header, query, cookies); !ok {
				missing = append(missing, what+" ("+s.Name+")")
				if bad != "" && !slices.Contains(malformed, bad) {
					malformed = append(malformed, bad)
				}
				if ch := challenge(scheme); ch != "" && !slices.Contains(challenges, ch) {
					challenges = append(challenges, ch)
				}
			}
		}
		if len(missing) == 0 {
			return nil, nil
		}
		lacks = append(lacks, strings.Join(missing, " and "))
	}
	msg := "security: no credentials; the operation accepts " + strings.Join(lacks, ", or ")
	if len(malformed) > 0 {
		msg = "security: malformed credentials: " + strings.Join(malformed, "; ") + "; the operation accepts " + strings.Join(lacks, ", or ")
	}
	return []Problem{{In: InSecurity, Keyword: "unauthenticated", Message: msg, Schema: c.locate(sec.Source)}}, challenges
}

// carries checks one scheme, and says what it expects when the request
// does not carry it; malformed says what is wrong with an Authorization
// header of the scheme's kind that the request carries, "" when it
// carries none.
func carries(s *spec.SecurityScheme, h http.Header, query, cookies []qpair) (ok bool, what, malformed string) {
	switch strings.ToLower(s.Type) {
	case "apikey":
		switch s.In {
		case "header":
			return len(headerValues(h, s.ParamName)) > 0, "an API key in header " + s.ParamName, ""
		case "query":
			return hasKey(query, s.ParamName), "an API key in query parameter " + s.ParamName, ""
		case "cookie":
			return hasKey(cookies, s.ParamName), "an API key in cookie " + s.ParamName, ""
		}
		return true, "", ""
	case "http":
		scheme, cred := authorization(h)
		switch s.Scheme {
		case "basic":
			what = "HTTP basic credentials (Authorization: Basic base64(user:password))"
			if !strings.EqualFold(scheme, "basic") {
				return false, what, ""
			}
			if !validBasic(cred) {
				// The credential itself is not repeated: messages end up in
				// responses and logs.
				return false, what, "the credentials of Authorization: Basic are not base64 of user:password"
			}
			return true, what, ""
		case "bearer":
			return bearer(scheme, cred)
		case "":
			return true, "", ""
		}
		return strings.EqualFold(scheme, s.Scheme), "an Authorization header of scheme " + s.Scheme, ""
	case "oauth2", "openidconnect":
		return bearer(authorization(h))
	}
	return true, "", ""
}

// bearer checks a bearer token: the scheme word and a token after it.
func bearer(scheme, cred string) (ok bool, what, malformed string) {
	what = "a bearer token (Authorization: Bearer <token>)"
	switch {
	case !strings.EqualFold(scheme, "bearer"):
		return false, what, ""
	case cred == "":
		return false, what, "Authorization: Bearer has no token"
	}
	return true, what, ""
}

func hasKey(pairs []qpair, name string) bool {
	for _, q := range pairs {
		if q.key == name {
			return true
		}
	}
	return false
}

// authorization splits the Authorization header into its scheme and
// credentials.
func authorization(h http.Header) (string, string) {
	v := strings.TrimSpace(headerValue(h, "Authorization"))
	scheme, cred, _ := strings.Cut(v, " ")
	return scheme, strings.TrimSpace(cred)
}

func validBasic(cred string) bool {
	b, err := base64.StdEncoding.DecodeString(cred)
	return err == nil && strings.Contains(string(b), ":")
}

// challenge is the WWW-Authenticate challenge of a scheme, "" for schemes
// that have none (API keys).
func challenge(s *spec.SecurityScheme) string {
	switch strings.ToLower(s.Type) {
	case "http":
		if s.Scheme == "" {
			return ""
		}
		name := strings.ToUpper(s.Scheme[:1]) + s.Scheme[1:]
		if s.Scheme == "basic" {
			return name + ` realm="specgate"`
		}
		return name
	case "oauth2", "openidconnect":
		return "Bearer"
	}
	return ""
}

// Authorize puts credentials on a built request for op's effective
// security requirement. creds holds the raw credential of each security
// scheme by name: a token without "Bearer", an API key, base64 of
// user:password for basic (user:password itself is encoded). The first
// alternative whose schemes all have credentials is used (mutualTLS needs
// none here: the client's TLS configuration carries it); an operation that
// needs none, or an empty alternative, is left alone. The error names what
// is missing when no alternative can be satisfied.
func (c *Contract) Authorize(op *spec.Operation, r *BuiltRequest, creds map[string]string) error {
	sec := op.Security
	if sec == nil || len(sec.Alternatives) == 0 {
		return nil
	}
	var lacks []string
	anonymous := false
	for _, alt := range sec.Alternatives {
		if len(alt.Schemes) == 0 {
			anonymous = true
			continue
		}
		var missing []string
		for _, s := range alt.Schemes {
			scheme := c.schemes[s.Name]
			if _, ok := creds[s.Name]; !ok && (scheme == nil || !strings.EqualFold(scheme.Type, "mutualTLS")) {
				missing = append(missing, s.Name)
			}
		}
		if len(missing) > 0 {
			lacks = append(lacks, strings.Join(missing, " and "))
			continue
		}
		for _, s := range alt.Schemes {
			if scheme := c.schemes[s.Name]; scheme != nil {
				if cred, ok := creds[s.Name]; ok {
					apply(scheme, r, cred)
				}
			}
		}
		return nil
	}
	if anonymous {
		return nil
	}
	return fmt.Errorf("no credentials for %s %s: it needs %s", strings.ToUpper(op.Method), op.Path, strings.Join(lacks, ", or "))
}

// apply sets one scheme's credential on a request.
func apply(s *spec.SecurityScheme, r *BuiltRequest, cred string) {
	if r.Header == nil {
		r.Header = http.Header{}
	}
	switch strings.ToLower(s.Type) {
	case "apikey":
		switch s.In {
		case "header":
			r.Header.Set(s.ParamName, cred)
		case "query":
			pair := escape(s.ParamName, false) + "=" + escape(cred, false)
			if r.RawQuery == "" {
				r.RawQuery = pair
			} else {
				r.RawQuery += "&" + pair
			}
		case "cookie":
			addCookies(r.Header, []string{s.ParamName + "=" + escapeCookie(cred)})
		}
	case "http":
		switch s.Scheme {
		case "basic":
			r.Header.Set("Authorization", "Basic "+basicCredential(cred))
		case "bearer":
			r.Header.Set("Authorization", "Bearer "+stripScheme(cred, "bearer"))
		default:
			name := s.Scheme
			if name != "" {
				name = strings.ToUpper(name[:1]) + name[1:]
			}
			r.Header.Set("Authorization", name+" "+stripScheme(cred, s.Scheme))
		}
	case "oauth2", "openidconnect":
		r.Header.Set("Authorization", "Bearer "+stripScheme(cred, "bearer"))
	}
}

// basicCredential is base64 of user:password: the credential as given when
// it already is, else its encoding.
func basicCredential(cred string) string {
	cred = stripScheme(cred, "basic")
	if validBasic(cred) || !strings.Contains(cred, ":") {
		return cred
	}
	return base64.StdEncoding.EncodeToString([]byte(cred))
}

// stripScheme drops a scheme word a credential should not carry but
// sometimes does ("Bearer abc" given for a bearer token).
func stripScheme(cred, scheme string) string {
	if len(cred) > len(scheme) && strings.EqualFold(cred[:len(scheme)], scheme) && cred[len(scheme)] == ' ' {
		return strings.TrimSpace(cred[len(scheme):])
	}
	return cred
}

func addCookies(h http.Header, pairs []string) {
	if len(pairs) == 0 {
		return
	}
	if prev := h.Get("Cookie"); prev != "" {
		h.Set("Cookie", prev+"; "+strings.Join(pairs, "; "))
		return
	}
	h.Set("Cookie", strings.Join(pairs, "; "))
}
