package examples

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
)

// Context is what notations are resolved against: the environment, the
// values captured by fixtures, data sources, the incoming request (for the
// mock's echo), a dictionary, and a generator of values for whatever is
// left. The zero Context reads the process environment and has nothing
// else. A Context is read, never written, by Eval and Check; share it
// between goroutines only when nothing changes it.
type Context struct {
	// Getenv reads a variable; nil reads the process environment.
	Getenv func(name string) (string, bool)
	// Store holds the values captured by (NAME:type) in fixtures' responses.
	Store map[string]any
	// Data holds data sources by name; an example's own data object is the
	// source named "data" (Example.Context adds it). A data source may hold
	// notations, which are resolved when a lookup reaches them.
	Data map[string]Value
	// Request is the incoming request that $(request.…) echoes (the mock).
	Request *EchoRequest
	// Dictionary gives values for fields that nothing else resolves.
	Dictionary Dictionary
	// Generate draws a value for a placeholder or for an unresolved notation
	// (lenient mode); nil means nothing is generated.
	Generate func(Unresolved) (any, error)
	// Strict makes an unresolved variable or lookup an error instead of
	// going to the dictionary and the generator.
	Strict bool
}

// EchoRequest is the part of an incoming request that a mock's response may
// echo: $(request.method), $(request.path) (the whole path),
// $(request.path.id) (a path parameter), $(request.query.q) (the first value;
// $(request.query.q[1]) the second), $(request.headers.X-Id) (any case),
// $(request.body.a.b[0]).
type EchoRequest struct {
	Method     string
	Path       string
	PathParams map[string]string
	Query      url.Values
	Headers    http.Header
	Body       any
}

// Dictionary gives values by JSON path ("$.user.email", tried first) or by
// field name ("email"), as data.dictionary in specgate.yaml configures.
type Dictionary interface {
	Lookup(path, field string) (any, bool)
}

// MapDictionary is a Dictionary whose keys are JSON paths (starting with
// "$") or field names.
type MapDictionary map[string]any

// Lookup returns the entry for path, else the entry for field.
func (d MapDictionary) Lookup(path, field string) (any, bool) {
	if v, ok := d[path]; ok && path != "" {
		return v, true
	}
	if field == "" {
		return nil, false
	}
	v, ok := d[field]
	return v, ok
}

// Unresolved describes a value that no notation resolved: a variable that
// is not set, a lookup that finds nothing, or a placeholder that asks for a
// value of a type.
type Unresolved struct {
	Notation string   // as written: "$(token)", "${API_KEY}", "(email)", "$match(dataType: integer)"
	Name     string   // the variable or the lookup's root; "" for placeholders and matchers
	Type     DataType // what a placeholder, capture or matcher asks for; "" when unknown
	Path     string   // where the value goes in the evaluated value: "$.user.email"
	Field    string   // the last object key of Path, "" when there is none
	At       Loc
}

// EvalError is a notation that could not be resolved, with where it is
// written.
type EvalError struct {
	At  Loc
	Msg string
}

func (e *EvalError) Error() string { return e.At.String() + ": " + e.Msg }

// maxLookupDepth bounds lookups that go through data holding lookups
// (data.a is "$(data.b)"): a cycle stops here.
const maxLookupDepth = 16

// Eval resolves v into a JSON value, its place being the root ("$").
func (c *Context) Eval(v Value) (any, error) { return c.EvalAt(v, "$") }

// EvalAt resolves v whose place in the value being built is path (used for
// dictionary lookups and for what a generator is told).
func (c *Context) EvalAt(v Value, path string) (any, error) {
	return c.eval(v, path, lastField(path), 0)
}

func (c *Context) eval(v Value, path, field string, depth int) (any, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case *Literal:
		return v.Value, nil
	case *Object:
		m := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			fv, err := c.eval(f.Value, childPath(path, f.Key), f.Key, depth)
			if err != nil {
				return nil, err
			}
			m[f.Key] = fv
		}
		return m, nil
	case *Array:
		out := make([]any, len(v.Items))
		for i, it := range v.Items {
			iv, err := c.eval(it, indexPath(path, i), field, depth)
			if err != nil {
				return nil, err
			}
			out[i] = iv
		}
		return out, nil
	case *Template:
		return c.template(v, path, field, depth)
	case *TypeOf:
		return c.fill(Unresolved{Notation: v.Raw, Type: v.Type, Path: path, Field: field, At: v.At}, false)
	case *Capture:
		return c.fill(Unresolved{Notation: v.Raw, Type: v.Type, Path: path, Field: field, At: v.At}, false)
	case *Match:
		if v.Exact != nil {
			return c.operandValue(v.Exact, path, field, depth)
		}
		return c.matchValue(v, path, field, depth)
	}
	return nil, fmt.Errorf("examples: unknown value %T", v)
}

// lastField returns the last object key of a JSON path, or "".
func lastField(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndex(path, "['"); i >= 0 && strings.HasSuffix(path, "']") {
			return strings.NewReplacer(`\'`, "'", `\\`, `\`).Replace(path[i+2 : len(path)-2])
		}
		return ""
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return ""
}

func (c *Context) template(t *Template, path, field string, depth int) (any, error) {
	if len(t.Parts) == 1 && t.Parts[0].Text == "" {
		seg := t.Parts[0]
		if seg.Env != nil {
			s, ok, err := c.env(seg.Env, path, field)
			if err != nil || !ok {
				return s, err // an unresolved variable already holds its generated value
			}
			return typedText(s.(string)), nil
		}
		return c.lookupValue(seg.Lookup, path, field, depth)
	}
	var b strings.Builder
	for _, seg := range t.Parts {
		switch {
		case seg.Env != nil:
			v, _, err := c.env(seg.Env, path, field)
			if err != nil {
				return nil, err
			}
			b.WriteString(contract.InlineText(v))
		case seg.Lookup != nil:
			v, err := c.lookupValue(seg.Lookup, path, field, depth)
			if err != nil {
				return nil, err
			}
			b.WriteString(contract.InlineText(v))
		default:
			b.WriteString(seg.Text)
		}
	}
	return b.String(), nil
}

// env resolves ${...}: ok is true when a name or the default gave the text
// (a string); otherwise the value comes from the dictionary or the
// generator, with its own type.
func (c *Context) env(e *Env, path, field string) (any, bool, error) {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.LookupEnv
	}
	for _, name := range e.Names {
		if v, ok := getenv(name); ok {
			return v, true, nil
		}
	}
	if e.HasDefault {
		return e.Default, true, nil
	}
	v, err := c.fill(Unresolved{Notation: e.Raw, Name: e.Names[0], Path: path, Field: field, At: e.At}, true)
	return v, false, err
}

// typedText reads the text of a whole-value variable as the JSON value it
// spells (true, 12, null, [..], {..}); any other text is a string.
func typedText(s string) any {
	t := strings.TrimSpace(s)
	if t == "" {
		return s
	}
	if c := t[0]; !(c == '{' || c == '[' || c == '-' || c >= '0' && c <= '9' || t == "true" || t == "false" || t == "null") {
		return s
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return s
	}
	return v
}

// fill resolves what no notation resolved: an error in strict mode (for
// variables), else the dictionary, else the generator.
func (c *Context) fill(u Unresolved, variable bool) (any, error) {
	if variable && c.Strict {
		return nil, &EvalError{At: u.At, Msg: fmt.Sprintf("%s is not resolved (%s) and strict mode forbids generating it", u.Notation, unresolvedWhy(u))}
	}
	if c.Dictionary != nil {
		if v, ok := c.Dictionary.Lookup(u.Path, u.Field); ok {
			return v, nil
		}
	}
	if c.Generate != nil {
		v, err := c.Generate(u)
		if err != nil {
			return nil, &EvalError{At: u.At, Msg: fmt.Sprintf("generating a value for %s: %v", u.Notation, err)}
		}
		return v, nil
	}
	if !variable {
		return nil, &EvalError{At: u.At, Msg: fmt.Sprintf("%s asks for a generated value at %s, and no dictionary entry or generator gives one", u.Notation, u.Path)}
	}
	return nil, &EvalError{At: u.At, Msg: fmt.Sprintf("%s is not resolved (%s), and no dictionary entry or generator gives a value for %s", u.Notation, unresolvedWhy(u), u.Path)}
}

func unresolvedWhy(u Unresolved) string {
	if strings.HasPrefix(u.Notation, "${") {
		return "the variable is not set and has no default"
	}
	return fmt.Sprintf("nothing is stored under %q", u.Name)
}

// lookupValue resolves $(...) into a value, or fills it when it finds
// nothing.
func (c *Context) lookupValue(l *Lookup, path, field string, depth int) (any, error) {
	v, ok, err := c.resolve(l, depth)
	if err != nil {
		return nil, err
	}
	if !ok {
		return c.fill(Unresolved{Notation: l.Raw, Name: l.Root, Path: path, Field: field, At: l.At}, true)
	}
	return v, nil
}

// resolve follows a lookup: ok is false when it finds nothing.
func (c *Context) resolve(l *Lookup, depth int) (any, bool, error) {
	if depth > maxLookupDepth {
		return nil, false, &EvalError{At: l.At, Msg: fmt.Sprintf("%s goes through more than %d lookups: data that looks itself up?", l.Raw, maxLookupDepth)}
	}
	steps, ok, err := c.steps(l, depth)
	if err != nil || !ok {
		return nil, false, err
	}
	switch c.origin(l.Root) {
	case fromRequest:
		v, ok := c.Request.echo(steps)
		return v, ok, nil
	case fromStore:
		v, ok := navigate(c.Store[l.Root], steps)
		return v, ok, nil
	case fromData:
		return c.navigateValue(c.Data[l.Root], steps, depth+1)
	}
	return nil, false, nil
}

// steps resolves the lookups inside a lookup's index steps ([ROLE]) into
// plain keys and indices.
func (c *Context) steps(l *Lookup, depth int) ([]Step, bool, error) {
	out := make([]Step, len(l.Steps))
	for i, s := range l.Steps {
		if s.Ref == nil {
			out[i] = s
			continue
		}
		v, ok, err := c.resolve(s.Ref, depth+1)
		if err != nil || !ok {
			return nil, false, err
		}
		switch k := v.(type) {
		case string:
			out[i] = Step{Key: k}
		case json.Number:
			if n, err := k.Int64(); err == nil && n >= 0 {
				out[i] = Step{Key: string(k), Index: int(n), IsIndex: true}
			} else {
				out[i] = Step{Key: string(k)}
			}
		case bool:
			out[i] = Step{Key: contract.InlineText(k)}
		default:
			return nil, false, &EvalError{At: s.Ref.At, Msg: fmt.Sprintf("the index %s of %s is %s, not a key or an index", s.Ref.Raw, l.Raw, contract.KindOf(v))}
		}
	}
	return out, true, nil
}

// navigate follows steps through plain JSON.
func navigate(v any, steps []Step) (any, bool) {
	for _, s := range steps {
		switch cur := v.(type) {
		case map[string]any:
			key := s.Key
			next, ok := cur[key]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			if !s.IsIndex || s.Index >= len(cur) {
				return nil, false
			}
			v = cur[s.Index]
		default:
			return nil, false
		}
	}
	return v, true
}

// navigateValue follows steps through a data source as written; a notation
// met on the way is evaluated and the walk goes on in its value.
func (c *Context) navigateValue(v Value, steps []Step, depth int) (any, bool, error) {
	for i, s := range steps {
		switch cur := v.(type) {
		case *Object:
			next := cur.Get(s.Key)
			if next == nil {
				return nil, false, nil
			}
			v = next
		case *Array:
			if !s.IsIndex || s.Index >= len(cur.Items) {
				return nil, false, nil
			}
			v = cur.Items[s.Index]
		default:
			got, err := c.eval(v, "$", "", depth)
			if err != nil {
				return nil, false, err
			}
			got, ok := navigate(got, steps[i:])
			return got, ok, nil
		}
	}
	got, err := c.eval(v, "$", "", depth)
	return got, err == nil, err
}

// echo reads $(request.…).
func (r *EchoRequest) echo(steps []Step) (any, bool) {
	if len(steps) == 0 || steps[0].IsIndex {
		return nil, false
	}
	rest := steps[1:]
	// many reads a repeated query parameter or header: its first value, or
	// the value at [i].
	many := func(vs []string) (any, bool) {
		switch {
		case len(vs) == 0:
			return nil, false
		case len(rest) == 1:
			return vs[0], true
		case len(rest) == 2 && rest[1].IsIndex && rest[1].Index < len(vs):
			return vs[rest[1].Index], true
		}
		return nil, false
	}
	switch steps[0].Key {
	case "method":
		return r.Method, len(rest) == 0
	case "path":
		if len(rest) == 0 {
			return r.Path, true
		}
		v, ok := r.PathParams[rest[0].Key]
		return v, ok && len(rest) == 1
	case "query":
		if len(rest) == 0 {
			return nil, false
		}
		return many(r.Query[rest[0].Key])
	case "headers":
		if len(rest) == 0 {
			return nil, false
		}
		return many(r.Headers.Values(rest[0].Key))
	case "body":
		return navigate(r.Body, rest)
	}
	return nil, false
}

// origin tells where a lookup's root is found, in the order lookups try:
// the request (for $(request.…) when there is one), the values captured,
// the data sources.
type origin uint8

const (
	fromNowhere origin = iota
	fromRequest
	fromStore
	fromData
)

func (c *Context) origin(root string) origin {
	if root == "request" && c.Request != nil {
		return fromRequest
	}
	if _, ok := c.Store[root]; ok {
		return fromStore
	}
	if _, ok := c.Data[root]; ok {
		return fromData
	}
	return fromNowhere
}

// operandValue is the value an operand of exact stands for: a literal, or
// the referenced value as written (notations inside it stay text, as exact
// compares literally).
func (c *Context) operandValue(op *Operand, path, field string, depth int) (any, error) {
	switch op.Kind {
	case OperandLiteral:
		return op.Literal, nil
	case OperandRef:
		v, ok, err := c.literalRef(op.Ref, depth)
		if err != nil {
			return nil, err
		}
		if !ok {
			return c.fill(Unresolved{Notation: op.Ref.Raw, Name: op.Ref.Root, Path: path, Field: field, At: op.At}, true)
		}
		return v, nil
	case OperandTemplate:
		return Literalize(op.Template), nil
	}
	return c.fill(Unresolved{Notation: op.Raw, Type: op.Type, Path: path, Field: field, At: op.At}, false)
}

// literalRef resolves a reference to its value as written: a data source's
// notations are not evaluated.
func (c *Context) literalRef(l *Lookup, depth int) (any, bool, error) {
	if c.origin(l.Root) != fromData {
		return c.resolve(l, depth)
	}
	steps, ok, err := c.steps(l, depth)
	if err != nil || !ok {
		return nil, false, err
	}
	v, ok := navigate(Literalize(c.Data[l.Root]), steps)
	return v, ok, nil
}

// refValue resolves a reference to a value tree: a data source's part as
// written (its matchers stay matchers), or anything else as literals.
func (c *Context) refValue(l *Lookup, depth int) (Value, bool, error) {
	if c.origin(l.Root) != fromData {
		got, ok, err := c.resolve(l, depth)
		if err != nil || !ok {
			return nil, ok, err
		}
		return valueOf(got, l.At), true, nil
	}
	steps, ok, err := c.steps(l, depth)
	if err != nil || !ok {
		return nil, false, err
	}
	v := c.Data[l.Root]
	for _, s := range steps {
		switch cur := v.(type) {
		case *Object:
			v = cur.Get(s.Key)
		case *Array:
			if !s.IsIndex || s.Index >= len(cur.Items) {
				return nil, false, nil
			}
			v = cur.Items[s.Index]
		default:
			v = nil
		}
		if v == nil {
			return nil, false, nil
		}
	}
	return v, true, nil
}

// valueOf turns plain JSON into a literal value tree located at at.
func valueOf(v any, at Loc) Value {
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		o := &Object{At: at}
		for _, k := range keys {
			o.Fields = append(o.Fields, Field{Key: k, KeyAt: at, Value: valueOf(v[k], at)})
		}
		return o
	case []any:
		a := &Array{At: at}
		for _, it := range v {
			a.Items = append(a.Items, valueOf(it, at))
		}
		return a
	}
	return &Literal{Value: v, At: at}
}
