package examples

import (
	"fmt"
	"slices"
	"sort"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/suggest"
)

// stage is one step of the exchange an example describes, in the order a
// test runs them: before fixtures, the example's request and response,
// after fixtures. Captures made at a stage are usable at later ones.
type stage struct {
	what     string // "before[0].http-request", "http-response", …
	request  bool
	fixture  bool
	example  bool // the example's own request or response
	values   []Value
	captures []*Capture
}

func requestValues(r *Request) []Value {
	if r == nil {
		return nil
	}
	vs := []Value{r.Path, r.Body, r.BaseURL}
	for _, ps := range [][]Param{r.PathParams, r.Query, r.Headers, r.FormFields} {
		for _, p := range ps {
			vs = append(vs, p.Value)
		}
	}
	for _, p := range r.Multipart {
		vs = append(vs, p.Content)
	}
	return vs
}

func responseValues(r *Response) []Value {
	if r == nil {
		return nil
	}
	vs := []Value{r.Body}
	for _, h := range r.Headers {
		vs = append(vs, h.Value)
	}
	return vs
}

func (ex *Example) stages() []*stage {
	var out []*stage
	fixtures := func(list []*Fixture) {
		for _, f := range list {
			name := fmt.Sprintf("%s[%d]", f.When, f.Index)
			out = append(out,
				&stage{what: name + ".http-request", request: true, fixture: true, values: requestValues(f.Request)},
				&stage{what: name + ".http-response", fixture: true, values: responseValues(f.Response)})
		}
	}
	fixtures(ex.Before)
	out = append(out,
		&stage{what: "http-request", request: true, example: true, values: requestValues(ex.Request)},
		&stage{what: "http-response", example: true, values: responseValues(ex.Response)})
	fixtures(ex.After)
	return out
}

// eachNotation calls fn for every notation in v, matchers' operands and
// templates included.
func eachNotation(v Value, fn func(Value)) {
	Walk(v, func(_ string, v Value) bool {
		switch n := v.(type) {
		case *Template, *Capture, *TypeOf:
			fn(n)
		case *Match:
			fn(n)
			for _, op := range []*Operand{n.Exact, n.Contains} {
				eachOperand(op, func(o *Operand) {
					if o.Template != nil {
						eachNotation(o.Template, fn)
					}
				})
			}
		}
		return true
	})
}

func eachOperand(op *Operand, fn func(*Operand)) {
	if op == nil {
		return
	}
	fn(op)
	for _, alt := range op.Alternatives {
		eachOperand(alt, fn)
	}
}

// lookupsOf returns the lookups a notation makes, nested index lookups
// included.
func lookupsOf(v Value) []*Lookup {
	var out []*Lookup
	var add func(l *Lookup)
	add = func(l *Lookup) {
		out = append(out, l)
		for _, s := range l.Steps {
			if s.Ref != nil {
				add(s.Ref)
			}
		}
	}
	switch n := v.(type) {
	case *Template:
		for _, seg := range n.Parts {
			if seg.Lookup != nil {
				add(seg.Lookup)
			}
		}
	case *Match:
		for _, op := range []*Operand{n.Exact, n.Contains} {
			eachOperand(op, func(o *Operand) {
				if o.Ref != nil {
					add(o.Ref)
				}
			})
		}
	}
	return out
}

// checkNotations checks, at load, that each notation is where it may be
// and that each name a lookup reads exists by then: a capture is a
// response's, a matcher is an expectation's, $(request.…) is a mock
// response's echo, times and value belong to transient examples, and a
// lookup reads the example's data, a value captured at an earlier stage,
// or a name the configuration provides.
func (r *reader) checkNotations(ex *Example) {
	stages := ex.stages()
	capturedAt := map[string]int{} // name → first stage capturing it
	for i, st := range stages {
		for _, v := range st.values {
			eachNotation(v, func(n Value) {
				if c, ok := n.(*Capture); ok && !st.request {
					st.captures = append(st.captures, c)
					if _, seen := capturedAt[c.Name]; !seen {
						capturedAt[c.Name] = i
					}
				}
			})
		}
	}
	defined := map[string]bool{}
	for i, st := range stages {
		for _, v := range st.values {
			eachNotation(v, func(n Value) { r.checkNotation(ex, st, i, n, defined, capturedAt, stages) })
		}
		for _, c := range st.captures {
			defined[c.Name] = true
		}
	}
	if ex.Data != nil {
		eachNotation(ex.Data, func(n Value) {
			if _, ok := n.(*Capture); ok {
				r.errorf(n.Where().Range.Start, "%s captures a value from a response; data holds values, not captures", n.(*Capture).Raw)
			}
		})
	}
}

func (r *reader) checkNotation(ex *Example, st *stage, i int, n Value, defined map[string]bool, capturedAt map[string]int, stages []*stage) {
	switch n := n.(type) {
	case *Capture:
		if st.request {
			r.errorf(n.At.Range.Start, "%s captures a value from a response and cannot be in %s; to send a captured value write $(%s)", n.Raw, st.what, n.Name)
		}
	case *Match:
		if st.request && st.fixture {
			r.errorf(n.At.Range.Start, "a matcher is an expectation; %s is sent as written", st.what)
		}
		if n.Times > 0 && !ex.Metadata.Transient {
			r.errorf(n.At.Range.Start, "times and value count the uses of a transient example's matchers; this example is not transient (\"transient\": true)")
		}
		r.checkMatchData(ex, n)
	}
	for _, l := range lookupsOf(n) {
		r.checkLookup(ex, st, i, l, defined, capturedAt, stages)
	}
}

func (r *reader) checkLookup(ex *Example, st *stage, i int, l *Lookup, defined map[string]bool, capturedAt map[string]int, stages []*stage) {
	at := l.At.Range.Start
	switch {
	case l.Root == "request":
		if !(st.example && !st.request) {
			r.errorf(at, "%s echoes the incoming request in a mock's response; it cannot be in %s", l.Raw, st.what)
		}
		return
	case defined[l.Root] || slices.Contains(r.opts.Names, l.Root):
		return
	case l.Root == "data":
		if ex.Data == nil {
			r.errorf(at, "%s reads the example's data, and the example has no data", l.Raw)
			return
		}
		r.checkDataPath(ex.Data, l)
		return
	}
	if j, later := capturedAt[l.Root]; later && j >= i {
		where := "at the same step"
		if j > i {
			where = "later, in " + stages[j].what
		}
		r.errorf(at, "%s is used in %s before it is captured (%s)", l.Raw, st.what, where)
		return
	}
	known := append([]string{"request"}, r.opts.Names...)
	if ex.Data != nil {
		known = append(known, "data")
	}
	for name := range capturedAt {
		known = append(known, name)
	}
	sort.Strings(known)
	if hint := suggest.Hint(l.Root, known); hint != "" || r.opts.StrictNames {
		r.errorf(at, "%s reads %q, which nothing captures or provides%s", l.Raw, l.Root, hint)
	}
}

// checkDataPath checks the keys of $(data.a.b) against the example's data,
// as far as they are written (not through indices or notations).
func (r *reader) checkDataPath(data *Object, l *Lookup) {
	var cur Value = data
	where := "data"
	for _, s := range l.Steps {
		if lit, ok := cur.(*Literal); ok && s.Ref == nil {
			r.errorf(l.At.Range.Start, "%s: %s is %s, which has no %s", l.Raw, where, contract.KindOf(lit.Value), stepText(s))
			return
		}
		o, ok := cur.(*Object)
		if !ok || s.Ref != nil || s.IsIndex {
			return
		}
		where += "." + s.Key
		next := o.Get(s.Key)
		if next == nil {
			r.errorf(l.At.Range.Start, "%s: the data has no key %q here%s", l.Raw, s.Key, suggest.Hint(s.Key, o.Keys()))
			return
		}
		cur = next
	}
}

func stepText(s Step) string {
	if s.IsIndex {
		return fmt.Sprintf("item [%d]", s.Index)
	}
	return fmt.Sprintf("key %q", s.Key)
}

// checkMatchData checks what a matcher's operand reads from the example's
// data: an array of matcher items takes no count or index, and must not be
// empty; contiguous and order need one.
func (r *reader) checkMatchData(ex *Example, m *Match) {
	if m.Contains == nil || ex.Data == nil {
		return
	}
	ctx := &Context{Data: map[string]Value{"data": ex.Data}}
	anyArray := false
	eachOperand(m.Contains, func(o *Operand) {
		if o.Ref == nil || o.Ref.Root != "data" {
			return
		}
		v, ok, err := ctx.refValue(o.Ref, 0)
		if err != nil || !ok {
			return
		}
		a, isArray := v.(*Array)
		if !isArray {
			return
		}
		anyArray = true
		if len(a.Items) == 0 {
			r.errorf(m.At.Range.Start, "%s is an empty array of matcher items, which matches nothing; write $match(length: 0) for an empty array", o.Ref.Raw)
		}
		for _, k := range []string{"atLeast", "atMost", "count", "atIndex"} {
			if m.param(k) != nil {
				r.errorf(m.At.Range.Start, "%s does not apply to %s, an array of matcher items (each must match its own item)", k, o.Ref.Raw)
			}
		}
	})
	if !anyArray && m.Contains.Kind == OperandRef && m.Contains.Ref.Root == "data" {
		for _, k := range []string{"contiguous", "order"} {
			if m.param(k) != nil {
				if _, ok, _ := ctx.refValue(m.Contains.Ref, 0); ok {
					r.errorf(m.At.Range.Start, "%s applies to an array of matcher items; %s is not an array", k, m.Contains.Ref.Raw)
				}
			}
		}
	}
}
