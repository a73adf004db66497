package arazzo

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// evalCtx is what an expression evaluated in a step can read besides the
// frame: the step's exchange, the workflow it called.
type evalCtx struct {
	sr     *StepResult
	called *WorkflowResult
}

// evalValue evaluates a value of the document: a whole runtime expression
// keeps its value's type, a template gives a string, objects and arrays
// are evaluated member by member (1.1 selector objects select).
func (r *Runner) evalValue(n *spec.Node, f *frame, ec *evalCtx) (any, bool, error) {
	if n == nil {
		return nil, false, nil
	}
	switch n.Kind {
	case spec.String:
		whole, tmpl, err := valueExprs(n.Value)
		if err != nil {
			return nil, false, err
		}
		if whole != nil {
			return r.resolver(f, ec)(whole)
		}
		if tmpl != nil {
			var b strings.Builder
			for i, e := range tmpl.Exprs {
				b.WriteString(tmpl.Text[i])
				v, ok, err := r.resolver(f, ec)(e)
				if err != nil {
					return nil, false, err
				}
				if !ok {
					return nil, false, nil
				}
				b.WriteString(contract.InlineText(v))
			}
			b.WriteString(tmpl.Text[len(tmpl.Text)-1])
			return b.String(), true, nil
		}
		return n.Value, true, nil
	case spec.Object:
		if isSelector(n) {
			return r.evalSelector(n, f, ec)
		}
		m := make(map[string]any, len(n.Fields))
		for _, fl := range n.Fields {
			v, ok, err := r.evalValue(fl.Value, f, ec)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %v", fl.Key, err)
			}
			if ok {
				m[fl.Key] = v
			}
		}
		return m, true, nil
	case spec.Array:
		s := make([]any, 0, len(n.Items))
		for i, it := range n.Items {
			v, ok, err := r.evalValue(it, f, ec)
			if err != nil {
				return nil, false, fmt.Errorf("[%d]: %v", i, err)
			}
			if ok {
				s = append(s, v)
			}
		}
		return s, true, nil
	}
	return NodeValue(n), true, nil
}

func (r *Runner) evalSelector(n *spec.Node, f *frame, ec *evalCtx) (any, bool, error) {
	e, err := ParseExpr(n.GetStr("context"))
	if err != nil {
		return nil, false, err
	}
	ctx, ok, err := r.resolver(f, ec)(e)
	if err != nil || !ok {
		return nil, ok, err
	}
	return selectValue(n, ctx)
}

// evalOutput evaluates an output: a runtime expression or a selector.
func (r *Runner) evalOutput(n *spec.Node, f *frame, ec *evalCtx) (any, bool, error) {
	if n != nil && n.Kind == spec.Object {
		return r.evalSelector(n, f, ec)
	}
	return r.evalValue(n, f, ec)
}

// resolver resolves runtime expressions in a frame and a step's exchange.
func (r *Runner) resolver(f *frame, ec *evalCtx) Resolver {
	return func(e *Expr) (any, bool, error) {
		var sr *StepResult
		if ec != nil {
			sr = ec.sr
		}
		var last *Exchange
		if sr != nil && len(sr.Exchanges) > 0 {
			last = &sr.Exchanges[len(sr.Exchanges)-1]
		}
		withPointer := func(v any, ok bool) (any, bool, error) {
			if !ok || !e.HasPointer {
				return v, ok, nil
			}
			if s, isText := v.(string); isText {
				if parsed, err := contract.DecodeJSON([]byte(s)); err == nil {
					v = parsed
				}
			}
			return pointerGet(v, e.Pointer)
		}
		switch e.Kind {
		case ExprStatusCode:
			if sr == nil || sr.Status == 0 {
				return nil, false, nil
			}
			return json.Number(strconv.Itoa(sr.Status)), true, nil
		case ExprURL:
			if last == nil {
				return nil, false, nil
			}
			return last.URL, true, nil
		case ExprMethod:
			if last == nil {
				return nil, false, nil
			}
			return last.Method, true, nil
		case ExprRequest, ExprResponse:
			if last == nil {
				return nil, false, nil
			}
			header, body, ctype := last.Header, last.Body, last.Header.Get("Content-Type")
			if e.Kind == ExprResponse {
				header, body, ctype = last.RespHead, last.RespBody, last.RespHead.Get("Content-Type")
			}
			switch e.Source {
			case "header":
				vs := header.Values(e.Name)
				if len(vs) == 0 {
					return nil, false, nil
				}
				return vs[0], true, nil
			case "query":
				u, err := url.Parse(last.URL)
				if err != nil {
					return nil, false, nil
				}
				q := u.Query()
				if !q.Has(e.Name) {
					return nil, false, nil
				}
				return q.Get(e.Name), true, nil
			case "path":
				if sr.Operation == nil {
					return nil, false, nil
				}
				return pathParam(sr.Operation.Path, last.URL, e.Name)
			case "body":
				if len(body) == 0 {
					return nil, false, nil
				}
				v := bodyValue(body, ctype)
				if e.HasPointer {
					if _, isText := v.(string); isText {
						return nil, false, fmt.Errorf("%s: the body (%s) is not JSON", e.Raw, orUnknown(ctype))
					}
				}
				return withPointer(v, true)
			}
		case ExprInputs:
			v, ok := lookupDotted(f.inputs, e.Name)
			return withPointer(v, ok)
		case ExprOutputs:
			var outs map[string]any
			switch {
			case ec != nil && ec.called != nil:
				outs = ec.called.Outputs
			case f.outputs != nil:
				outs = f.outputs
			}
			v, ok := lookupDotted(outs, e.Name)
			return withPointer(v, ok)
		case ExprSteps:
			v, ok := lookupDotted(f.steps[e.ID], e.Name)
			return withPointer(v, ok)
		case ExprWorkflows:
			st := r.c.Workflow(e.ID)
			if st == nil {
				return nil, false, nil
			}
			res := r.lastResult(e.ID)
			if res == nil {
				return nil, false, nil
			}
			src := res.Outputs
			if e.Field == "inputs" {
				src = res.Inputs
			}
			v, ok := lookupDotted(src, e.Name)
			return withPointer(v, ok)
		case ExprSourceDescriptions:
			ls := r.c.Loaded[e.ID]
			if ls == nil {
				return nil, false, nil
			}
			if e.Name == "url" {
				return ls.URL, true, nil
			}
			return nil, false, nil
		case ExprComponents:
			if e.ID == "parameters" {
				if p := r.c.Components.Parameters[e.Name]; p != nil {
					return r.evalValue(p.Value, f, ec)
				}
			}
			if e.ID == "inputs" {
				if n := r.c.Components.Inputs[e.Name]; n != nil {
					return NodeValue(n), true, nil
				}
			}
			return nil, false, nil
		}
		return nil, false, nil
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "no Content-Type"
	}
	return s
}

// lastResult is the latest result of a workflow ($workflows.<id>.…).
func (r *Runner) lastResult(id string) *WorkflowResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results[id]
}

// lookupDotted reads name from m; a name with dots that m does not hold
// whole reads its first part and then members ("order.id").
func lookupDotted(m map[string]any, name string) (any, bool) {
	if m == nil {
		return nil, false
	}
	if v, ok := m[name]; ok {
		return v, true
	}
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i > 0; i-- {
		head := strings.Join(parts[:i], ".")
		v, ok := m[head]
		if !ok {
			continue
		}
		for _, p := range parts[i:] {
			obj, isObj := v.(map[string]any)
			if !isObj {
				return nil, false
			}
			if v, ok = obj[p]; !ok {
				return nil, false
			}
		}
		return v, true
	}
	return nil, false
}

// pathParam reads a path parameter from a URL by the operation's template.
func pathParam(template, rawURL, name string) (any, bool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false, nil
	}
	tsegs := strings.Split(strings.Trim(template, "/"), "/")
	usegs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if len(usegs) < len(tsegs) {
		return nil, false, nil
	}
	usegs = usegs[len(usegs)-len(tsegs):] // a server prefix comes first
	for i, t := range tsegs {
		if t == "{"+name+"}" {
			v, err := url.PathUnescape(usegs[i])
			if err != nil {
				return nil, false, nil
			}
			return v, true, nil
		}
	}
	return nil, false, nil
}

// bodyValue decodes a body: JSON (by its media type, or by its look when
// none is given) with json.Number, else the text.
func bodyValue(body []byte, contentType string) any {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "" {
		if v, err := contract.DecodeJSON(body); err == nil {
			return v
		}
	}
	return string(body)
}
