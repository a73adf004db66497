package examples

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// request generates a valid request of op: path parameters, required
// query parameters, headers and cookies, credentials, and a body.
func (gen *generator) request(op *spec.Operation) (*exchange, error) {
	k := gen.k
	x := &exchange{op: op, method: strings.ToUpper(op.Method), pathVal: map[string]any{}, query: map[string]any{}, headers: map[string]any{}, secret: map[string]bool{}}
	var cookies []string
	for _, p := range op.Parameters {
		if !p.Required && p.In != "path" {
			continue
		}
		switch strings.ToLower(p.Name) {
		case "accept", "content-type", "authorization":
			if p.In == "header" {
				continue
			}
		}
		v, err := k.paramValue(p, gen.g)
		if err != nil {
			return nil, err
		}
		switch p.In {
		case "path":
			x.pathVal[p.Name] = v
		case "query":
			x.query[p.Name] = v
		case "header":
			x.headers[p.Name] = v
		case "cookie":
			cookies = append(cookies, p.Name+"="+contract.InlineText(v))
		}
	}
	cookies = append(cookies, gen.credentials(x)...)
	if len(cookies) > 0 {
		x.headers["Cookie"] = strings.Join(cookies, "; ")
	}
	built, err := k.c.BuildRequest(op, contract.Values{Path: x.pathVal})
	if err != nil {
		return nil, err
	}
	x.path = built.Path
	if _, fixed, ok := strings.Cut(op.Path, "?"); ok && fixed != "" {
		// The query the path template writes (openai's ?beta=true) selects
		// the operation: it stays in the path, where no break touches it.
		x.path += "?" + fixed
	}
	if rb := op.RequestBody; rb != nil {
		if err := gen.requestBody(x, rb); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// requestBody generates the body of a request in its first JSON media
// type (else its first), or the fields of a Swagger form.
func (gen *generator) requestBody(x *exchange, rb *spec.RequestBody) error {
	if len(rb.FormData) > 0 {
		fields := map[string]any{}
		for _, p := range rb.FormData {
			if !p.Required {
				continue
			}
			if p.Schema != nil && p.Schema.GetStr("type") == "file" {
				fields[p.Name] = "file content"
				continue
			}
			v, err := gen.k.paramValue(p, gen.g)
			if err != nil {
				return err
			}
			fields[p.Name] = v
		}
		x.body, x.media = fields, "application/x-www-form-urlencoded"
		if names := requestTypes(x.op); len(names) > 0 {
			x.media = concreteType(names[0])
		}
		return nil
	}
	if len(rb.Content) == 0 {
		return nil
	}
	m := declaredMedia(rb.Content, firstJSON(requestTypes(x.op)))
	x.media = concreteType(m.Name)
	v, ok, err := gen.k.mediaValue(m, gen.g, schema.Request)
	switch {
	case err != nil:
		return fmt.Errorf("request body: %w", err)
	case !ok:
		v = ""
	}
	if isForm(x.media) {
		if _, isObject := v.(map[string]any); !isObject {
			v = map[string]any{} // a form is fields; a schema of any value allows none
		}
	}
	x.body = v
	if !isJSONType(x.media) && isScalar(v) {
		// A scalar body of another type is written as the text it travels
		// as (XML: an element).
		built, err := gen.k.c.BuildRequest(x.op, contract.Values{Path: x.pathVal, Body: v, MediaType: x.media})
		if err != nil {
			return fmt.Errorf("request body: %w", err)
		}
		x.body = string(built.Body)
	}
	return nil
}

// mediaValue is a value of a body of media type m: its own example (of
// example or of the first of examples) when its schema, if it has one,
// accepts it; else one generated from the schema. ok is false when m has
// neither.
func (k *Checker) mediaValue(m *spec.MediaType, g *schema.Generator, dir schema.Direction) (v any, ok bool, err error) {
	if ex, found := k.mediaExample(m); found {
		if m.Schema == nil {
			return ex, true, nil
		}
		if sc, err := k.schemas.Compile(m.Schema, m.SchemaSource); err == nil && len(sc.Validate(ex, dir)) == 0 {
			return ex, true, nil
		}
	}
	if m.Schema == nil {
		return nil, false, nil
	}
	v, err = k.generate(m.Schema, m.SchemaSource, g, dir)
	return v, err == nil, err
}

// mediaExample is the example a media type writes: example, else the
// value of the first of examples.
func (k *Checker) mediaExample(m *spec.MediaType) (any, bool) {
	n := k.doc.Deref(m.Node)
	if v := n.Get("example"); v != nil {
		return schema.JSONValue(v), true
	}
	if exs := n.Get("examples"); exs != nil && exs.Kind == spec.Object {
		for _, f := range exs.Fields {
			if v := k.doc.Deref(f.Value).Get("value"); v != nil {
				return schema.JSONValue(v), true
			}
		}
	}
	return nil, false
}

func isForm(mt string) bool {
	return strings.HasPrefix(mt, "application/x-www-form-urlencoded") || strings.HasPrefix(mt, "multipart/")
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any, nil:
		return false
	}
	return true
}

// concreteType is a media type a body can be sent as, for a declared one
// that may be a range.
func concreteType(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	base = strings.TrimSpace(base)
	switch {
	case base == "*/*" || base == "application/*":
		return "application/json"
	case base == "text/*":
		return "text/plain"
	case strings.HasSuffix(base, "/*"):
		return strings.TrimSuffix(base, "*") + "octet-stream"
	}
	return mt
}

// credentials writes the credentials of the operation's first security
// alternative as templates of environment variables named after the
// schemes, and returns the cookies among them.
func (gen *generator) credentials(x *exchange) []string {
	op := x.op
	if op.Security == nil || len(op.Security.Alternatives) == 0 {
		return nil
	}
	var cookies []string
	for _, ref := range op.Security.Alternatives[0].Schemes {
		s := gen.k.schemes[ref.Name]
		if s == nil {
			continue
		}
		env := envName(s.Name)
		switch strings.ToLower(s.Type) {
		case "http":
			switch strings.ToLower(s.Scheme) {
			case "basic":
				x.headers["Authorization"] = "Basic ${" + env + ":" + PlaceholderCredential(s) + "}"
			case "bearer":
				x.headers["Authorization"] = "Bearer ${" + env + ":" + PlaceholderCredential(s) + "}"
			default:
				x.headers["Authorization"] = s.Scheme + " ${" + env + ":" + PlaceholderCredential(s) + "}"
			}
			x.secret["Authorization"] = true
		case "oauth2", "openidconnect":
			x.headers["Authorization"] = "Bearer ${" + env + ":" + PlaceholderCredential(s) + "}"
			x.secret["Authorization"] = true
		case "apikey":
			key := "${" + env + ":" + PlaceholderCredential(s) + "}"
			switch s.In {
			case "header":
				x.headers[s.ParamName] = key
				x.secret[s.ParamName] = true
			case "query":
				x.query[s.ParamName] = key
				x.secret[s.ParamName] = true
			case "cookie":
				cookies = append(cookies, s.ParamName+"="+key)
			}
		}
	}
	return cookies
}

var envNameChars = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// envName is the environment variable that holds a scheme's credential:
// its name, as the tests read it, when it can name a variable.
func envName(scheme string) string {
	if envNameRE().MatchString(scheme) {
		return scheme
	}
	name := strings.Trim(envNameChars.ReplaceAllString(scheme, "_"), "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "SCHEME_" + name
	}
	return name
}

// dropCredentials leaves the credentials out, for a 401 example.
func (x *exchange) dropCredentials() {
	for name := range x.secret {
		delete(x.headers, name)
		delete(x.query, name)
	}
	if c, ok := x.headers["Cookie"].(string); ok && strings.Contains(c, "${") {
		var keep []string
		for _, pair := range strings.Split(c, "; ") {
			if !strings.Contains(pair, "${") {
				keep = append(keep, pair)
			}
		}
		if len(keep) == 0 {
			delete(x.headers, "Cookie")
		} else {
			x.headers["Cookie"] = strings.Join(keep, "; ")
		}
	}
}
