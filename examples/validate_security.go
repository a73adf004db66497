package examples

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// opSchemes lists the security schemes an operation's requirement names,
// each once.
func (k *Checker) opSchemes(op *spec.Operation) []*spec.SecurityScheme {
	if op.Security == nil {
		return nil
	}
	var out []*spec.SecurityScheme
	for _, alt := range op.Security.Alternatives {
		for _, s := range alt.Schemes {
			if sc := k.schemes[s.Name]; sc != nil && !slices.Contains(out, sc) {
				out = append(out, sc)
			}
		}
	}
	return out
}

// security checks the credentials an example writes: each must have the
// form of one of the schemes its operation accepts. Credentials left out
// are not a finding: a run supplies them.
func (x *exampleCheck) security(op *spec.Operation) {
	schemes := x.k.opSchemes(op)
	var httpSchemes []*spec.SecurityScheme
	anyAuthorization := false // an API key named Authorization takes any value
	for _, s := range schemes {
		switch strings.ToLower(s.Type) {
		case "http", "oauth2", "openidconnect":
			httpSchemes = append(httpSchemes, s)
		case "apikey":
			x.apiKey(s)
			anyAuthorization = anyAuthorization || s.In == "header" && strings.EqualFold(s.ParamName, "Authorization")
		}
	}
	auth := x.ex.Request.Header("Authorization")
	if auth == nil || len(httpSchemes) == 0 || anyAuthorization {
		return
	}
	value, whole, ok := leadingText(auth.Value)
	if !ok {
		return
	}
	var forms []string
	for _, s := range httpSchemes {
		if credentialFits(s, value, whole) {
			return
		}
		forms = append(forms, credentialForm(s))
	}
	segs := x.reqSegs("headers", auth.Name)
	x.add(CodeSecurityInvalid, segs, "security", fmt.Sprintf("Authorization %q is not a credential %s %s takes: write %s", value, strings.ToUpper(op.Method), op.Path, strings.Join(forms, " or ")), x.k.locate(httpSchemes[0].Source))
}

// apiKey checks an API key the example writes: it must not be empty.
func (x *exampleCheck) apiKey(s *spec.SecurityScheme) {
	req := x.ex.Request
	var p *Param
	var segs []any
	var loc Loc
	switch s.In {
	case "header":
		if p = req.Header(s.ParamName); p != nil {
			segs = x.reqSegs("headers", p.Name)
		}
	case "query":
		if p = findParam(req.Query, s.ParamName); p != nil {
			segs = x.querySegs(p)
		}
	}
	if p == nil {
		return
	}
	loc = paramLoc(p, nil)
	if v, whole, ok := leadingText(p.Value); ok && whole && strings.TrimSpace(v) == "" {
		x.addAt(CodeSecurityInvalid, loc, segs, "security", fmt.Sprintf("the API key %s of security scheme %s is empty", s.ParamName, s.Name), x.k.locate(s.Source))
	}
}

// leadingText is the text a value starts with: all of it for a literal
// (whole), the text before its first notation for a template; ok is false
// when a notation comes first.
func leadingText(v Value) (s string, whole, ok bool) {
	switch v := v.(type) {
	case *Literal:
		return contract.InlineText(v.Value), true, true
	case *Template:
		var b strings.Builder
		for _, seg := range v.Parts {
			switch {
			case seg.Env != nil && seg.Env.HasDefault:
				b.WriteString(seg.Env.Default)
			case seg.Env != nil, seg.Lookup != nil:
				return b.String(), false, b.Len() > 0
			default:
				b.WriteString(seg.Text)
			}
		}
		return b.String(), true, true
	}
	return "", false, false
}

// credentialFits reports whether an Authorization value (or its start,
// when not whole) has the form a scheme takes.
func credentialFits(s *spec.SecurityScheme, value string, whole bool) bool {
	word, rest, _ := strings.Cut(strings.TrimSpace(value), " ")
	rest = strings.TrimSpace(rest)
	scheme := strings.ToLower(s.Scheme)
	if !strings.EqualFold(s.Type, "http") {
		scheme = "bearer"
	}
	switch scheme {
	case "basic":
		if !strings.EqualFold(word, "basic") {
			return false
		}
		if !whole {
			return true
		}
		dec, err := base64.StdEncoding.DecodeString(rest)
		return err == nil && strings.Contains(string(dec), ":")
	case "bearer":
		return strings.EqualFold(word, "bearer") && (rest != "" || !whole)
	}
	return strings.EqualFold(word, s.Scheme)
}

// credentialForm writes the form of a scheme's Authorization value.
func credentialForm(s *spec.SecurityScheme) string {
	if strings.EqualFold(s.Type, "http") {
		switch strings.ToLower(s.Scheme) {
		case "basic":
			return fmt.Sprintf("%q (%s)", "Basic <base64 of user:password>", s.Name)
		case "bearer":
		default:
			return fmt.Sprintf("%q (%s)", s.Scheme+" <credentials>", s.Name)
		}
	}
	return fmt.Sprintf("%q (%s)", "Bearer <token>", s.Name)
}
