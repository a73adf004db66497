package mock

import (
	"strings"
)

// Request echo: an example's response may take values from the request it
// answers, written $(request.path.NAME), $(request.query.NAME),
// $(request.headers.NAME) or $(request.body.a.b). A string that is only a
// notation becomes the request's value (typed, for the body); one that
// holds notations among other text has them replaced by their text.
//
// This is the mock's own reading of the notation until the examples
// package's evaluator, which reads every notation once at load, replaces it.

func echo(v any, ex *Exchange) any {
	switch t := v.(type) {
	case string:
		if !strings.Contains(t, "$(request.") {
			return t
		}
		if strings.HasPrefix(t, "$(") && strings.HasSuffix(t, ")") && strings.Count(t, "$(") == 1 {
			if val, ok := lookupRequest(t[2:len(t)-1], ex); ok {
				return val
			}
			return t
		}
		return echoText(t, ex)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = echo(x, ex)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = echo(x, ex)
		}
		return out
	}
	return v
}

// echoText replaces the notations inside a text by their values' text.
func echoText(s string, ex *Exchange) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "$(request.")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		if val, ok := lookupRequest(s[i+2:i+j], ex); ok {
			b.WriteString(scalarText(val))
		} else {
			b.WriteString(s[i : i+j+1])
		}
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// lookupRequest reads request.PART.NAME… from the exchange.
func lookupRequest(expr string, ex *Exchange) (any, bool) {
	parts := strings.Split(expr, ".")
	if len(parts) < 2 || parts[0] != "request" {
		return nil, false
	}
	switch parts[1] {
	case "path":
		if len(parts) == 3 && ex.Route != nil {
			v, ok := ex.Route.Param(parts[2])
			return v, ok
		}
	case "query":
		if len(parts) == 3 {
			q := ex.Request.URL.Query()
			if q.Has(parts[2]) {
				return q.Get(parts[2]), true
			}
		}
	case "headers", "header":
		if len(parts) == 3 {
			if v := ex.Request.Header.Get(parts[2]); v != "" {
				return v, true
			}
		}
	case "body":
		cur := ex.Value
		for _, k := range parts[2:] {
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[k]; !ok {
				return nil, false
			}
		}
		return cur, ex.Value != nil
	case "method":
		return ex.Request.Method, true
	}
	return nil, false
}

// matches tells whether a request holds every value the example's request
// names.
func (e *example) matches(ex *Exchange) bool {
	m := e.request
	if m.method != "" && !strings.EqualFold(m.method, ex.Request.Method) {
		return false
	}
	for _, p := range m.params {
		var got any
		var ok bool
		switch p.in {
		case "path":
			got, ok = ex.Params.Path[p.name]
			if !ok && ex.Route != nil {
				got, ok = ex.Route.Param(p.name)
			}
		case "query":
			got, ok = ex.Params.Query[p.name]
			if !ok {
				if vals, has := ex.Request.URL.Query()[p.name]; has {
					got, ok = listOrOne(vals), true
				}
			}
		case "header":
			got, ok = ex.Params.Header[p.name]
			if !ok {
				got = ex.Request.Header.Get(p.name)
				ok = got != ""
			}
		case "cookie":
			got, ok = ex.Params.Cookie[p.name]
		}
		if !ok || !contains(got, p.value, true) {
			return false
		}
	}
	if m.hasBody {
		if ex.Value == nil {
			if v, err := decodeJSON(ex.Body); err == nil {
				ex.Value = v
			}
		}
		if !contains(ex.Value, m.body, m.partial) {
			return false
		}
	}
	return true
}
