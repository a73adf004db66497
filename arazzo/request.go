package arazzo

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
	"github.com/theory/jsonpath"
)

// exchange keeps an attempt for reports, credentials masked.
func (r *Runner) exchange(a httpx.Attempt) Exchange {
	x := Exchange{Start: a.Start, Duration: a.Duration}
	if a.Request != nil {
		x.Method, x.URL, x.Header, x.Body = a.Request.Method, r.mask(a.Request.URL.String()), maskHeader(a.Request.Header, r.mask), []byte(r.mask(string(a.RequestBody)))
	}
	if a.Err != nil {
		x.Error = r.mask(a.Err.Error())
	}
	if a.Response != nil {
		x.Status, x.RespHead, x.RespBody = a.Response.StatusCode, maskHeader(a.Response.Header, r.mask), a.Body
	}
	return x
}

func (r *Runner) mask(s string) string {
	for _, v := range r.secrets {
		s = strings.ReplaceAll(s, v, "****")
	}
	return s
}

// sensitive are the headers whose values reports never show in full.
var sensitive = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

func maskHeader(h http.Header, mask func(string) string) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			if slices.ContainsFunc(sensitive, func(s string) bool { return strings.EqualFold(s, k) }) {
				if scheme, _, ok := strings.Cut(v, " "); ok && (strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "Basic")) {
					v = scheme + " ****"
				} else {
					v = "****"
				}
			}
			out.Add(k, mask(v))
		}
	}
	return out
}

// paramValue is a parameter with its value evaluated.
type paramValue struct {
	name, in string
	value    any
	Name     string
}

// stepParams evaluates the parameters of a step over those of its
// workflow (a step's replaces the workflow's of the same name and
// location).
func (r *Runner) stepParams(f *frame, s *Step, sr *StepResult) ([]paramValue, string) {
	var out []paramValue
	index := map[string]int{}
	add := func(p *Parameter) string {
		name, in, value := p.Name, p.In, p.Value
		if p.Reference != "" {
			e, err := ParseExpr(p.Reference)
			if err != nil {
				return err.Error()
			}
			c := r.c.Components.Parameters[e.Name]
			if c == nil {
				return fmt.Sprintf("components.parameters has no %q", e.Name)
			}
			name, in = c.Name, c.In
			if value == nil {
				value = c.Value
			}
		}
		v, ok, err := r.evalValue(value, f, &evalCtx{sr: sr})
		if err != nil {
			return fmt.Sprintf("parameter %q: %v", name, err)
		}
		if !ok {
			return fmt.Sprintf("parameter %q: %s is not set%s", name, nodeText(value), inputHint(value))
		}
		key := in + "\x00" + name
		pv := paramValue{name: name, in: in, value: v, Name: name}
		if i, seen := index[key]; seen {
			out[i] = pv
			return ""
		}
		index[key] = len(out)
		out = append(out, pv)
		return ""
	}
	for _, p := range f.w.Parameters {
		if s.WorkflowID != "" && p.In != "" {
			continue
		}
		if msg := add(p); msg != "" {
			return nil, msg
		}
	}
	for _, p := range s.Parameters {
		if msg := add(p); msg != "" {
			return nil, msg
		}
	}
	return out, ""
}

func nodeText(n *spec.Node) string {
	if n == nil {
		return "the value"
	}
	if n.Kind == spec.String {
		return n.Value
	}
	return "the value"
}

func inputHint(n *spec.Node) string {
	if n != nil && n.Kind == spec.String && strings.Contains(n.Value, "$inputs.") {
		return " (give the workflow's inputs with --inputs FILE)"
	}
	return ""
}

// buildBody evaluates a request body's payload and replacements. A JSON
// payload written as text with embedded expressions ("{$inputs.x}") is
// read as JSON after substitution, a quoted "{$…}" standing for the
// value's JSON.
func (r *Runner) buildBody(b *RequestBody, f *frame, sr *StepResult) (any, string, error) {
	ec := &evalCtx{sr: sr}
	var v any
	if b.Payload != nil {
		if b.Payload.Kind == spec.String && !IsExpression(b.Payload.Value) && isJSONType(b.ContentType) {
			text, err := r.substituteJSON(b.Payload.Value, f, ec)
			if err != nil {
				return nil, "", err
			}
			d := json.NewDecoder(strings.NewReader(text))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return nil, "", fmt.Errorf("the payload is not JSON after its expressions were replaced: %v", err)
			}
		} else {
			val, ok, err := r.evalValue(b.Payload, f, ec)
			if err != nil {
				return nil, "", fmt.Errorf("payload: %v", err)
			}
			if !ok {
				return nil, "", fmt.Errorf("payload: %s is not set%s", nodeText(b.Payload), inputHint(b.Payload))
			}
			v = val
		}
	}
	for _, rep := range b.Replacements {
		val, ok, err := r.evalValue(rep.Value, f, ec)
		if err != nil || !ok {
			return nil, "", fmt.Errorf("replacement of %s: %s is not set", rep.Target, nodeText(rep.Value))
		}
		if v, err = replace(v, rep, b.ContentType, val); err != nil {
			return nil, "", fmt.Errorf("replacement of %s: %v", rep.Target, err)
		}
	}
	if s, ok := v.(string); ok && !isJSONType(b.ContentType) {
		return []byte(s), b.ContentType, nil
	}
	return v, b.ContentType, nil
}

func isJSONType(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return ct == "" || mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// substituteJSON replaces the embedded expressions of JSON text.
func (r *Runner) substituteJSON(text string, f *frame, ec *evalCtx) (string, error) {
	var b strings.Builder
	for i := 0; i < len(text); {
		quoted := strings.HasPrefix(text[i:], `"{$`)
		if !quoted && !strings.HasPrefix(text[i:], "{$") {
			b.WriteByte(text[i])
			i++
			continue
		}
		start := i
		if quoted {
			start++
		}
		end := strings.IndexByte(text[start:], '}')
		if end < 0 {
			return "", errors.New("an embedded expression {$… has no closing }")
		}
		e, err := ParseExpr(text[start+1 : start+end])
		if err != nil {
			return "", err
		}
		v, ok, err := r.resolver(f, ec)(e)
		if err != nil {
			return "", err
		}
		after := start + end + 1
		if quoted && strings.HasPrefix(text[after:], `"`) {
			if !ok {
				v = nil
			}
			j, _ := json.Marshal(v)
			b.Write(j)
			i = after + 1
			continue
		}
		if quoted {
			b.WriteByte('"')
		}
		if ok {
			s := contract.InlineText(v)
			j, _ := json.Marshal(s)
			b.WriteString(string(j[1 : len(j)-1]))
		}
		i = after
	}
	return b.String(), nil
}

// replace applies one replacement to a payload: a JSON pointer target
// (the default) is set, creating objects on the way; a JSONPath target
// sets every node it selects, and must select one. XPath targets (named,
// or in Arazzo 1.0 implied by an XML payload, where the target is a JSON
// pointer or an XPath expression) are not applied: the payload's text can
// embed the value instead ({$inputs.name}).
func replace(payload any, rep *Replacement, contentType string, val any) (any, error) {
	typ := rep.TargetType
	if typ == "" && isXMLType(contentType) {
		typ = "xpath"
	}
	switch typ {
	case "", "jsonpointer":
		return pointerSet(payload, rep.Target, val)
	case "jsonpath":
		p, err := jsonpath.Parse(rep.Target)
		if err != nil {
			return nil, fmt.Errorf("JSONPath %q does not parse: %v", rep.Target, err)
		}
		located := p.SelectLocated(payload)
		if len(located) == 0 {
			return nil, fmt.Errorf("JSONPath %q selects nothing in the payload", rep.Target)
		}
		for np := range located.Deduplicate().Paths() {
			if payload, err = pointerSet(payload, np.Pointer(), val); err != nil {
				return nil, err
			}
		}
		return payload, nil
	case "xpath":
		return nil, errors.New("XPath targets are not applied (specgate replaces JSON pointer and JSONPath targets in JSON payloads); embed the value in the payload's text instead, as {$inputs.name}")
	}
	return nil, fmt.Errorf("target selector type %q is not one of jsonpointer, jsonpath, xpath", typ)
}

func isXMLType(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// pointerSet sets the value at a JSON pointer, creating objects on the way.
func pointerSet(doc any, ptr string, val any) (any, error) {
	if ptr == "" {
		return val, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("JSON pointer %q must start with /", ptr)
	}
	segs := strings.Split(ptr[1:], "/")
	var set func(cur any, i int) (any, error)
	set = func(cur any, i int) (any, error) {
		if i == len(segs) {
			return val, nil
		}
		seg := strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case nil:
			m := map[string]any{}
			v, err := set(nil, i+1)
			m[seg] = v
			return m, err
		case map[string]any:
			v, err := set(c[seg], i+1)
			c[seg] = v
			return c, err
		case []any:
			if seg == "-" {
				v, err := set(nil, i+1)
				return append(c, v), err
			}
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return nil, fmt.Errorf("%q is not an index of the array", seg)
			}
			v, err := set(c[n], i+1)
			c[n] = v
			return c, err
		}
		return nil, fmt.Errorf("%s reaches %s, which has no members", ptr, describeValue(cur))
	}
	return set(copyJSON(doc), 0)
}

func copyJSON(v any) any {
	switch c := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, x := range c {
			m[k] = copyJSON(x)
		}
		return m
	case []any:
		s := make([]any, len(c))
		for i, x := range c {
			s[i] = copyJSON(x)
		}
		return s
	}
	return v
}
