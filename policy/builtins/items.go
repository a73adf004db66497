package builtins

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.values_at(items, path) -> [value]
//
// the values at a path under each item of a list, in the list's order, a
// path listing object keys (strings) and array indices (numbers) as a
// Rego reference reads them and null standing for every member of an
// object (in Rego's order, by key) or element of an array; an item
// without a value there gives none. specgate.values_at(input.operations,
// ["responses", null, "content", null]) are the media types of every
// response of every operation, as the comprehension
// [m | some op in input.operations; some r in op.responses; some m in
// r.content] gives them, without an iteration of Rego per operation,
// response and media type.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.values_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A)),
			types.NewArray(nil, types.A)),
	}, valuesAtBuiltin)
}

func valuesAtBuiltin(_ rego.BuiltinContext, items, path *ast.Term) (*ast.Term, error) {
	values, err := valuesUnder("specgate.values_at", items, path)
	if err != nil {
		return nil, err
	}
	return ast.ArrayTerm(values...), nil
}

// valuesUnder reads the operands of builtin, a list and a path, and gives
// the values at the path under each item, as specgate.values_at lists
// them.
func valuesUnder(builtin string, items, path *ast.Term) ([]*ast.Term, error) {
	list, p, err := arrays(builtin, items, path)
	if err != nil {
		return nil, err
	}
	steps, err := valuesPath(builtin, p, true)
	if err != nil {
		return nil, err
	}
	var out []*ast.Term
	for i := range list.Len() {
		out = collectValues(out, list.Elem(i), steps)
	}
	return out, nil
}

// specgate.keys_at(items, path) -> [key]
//
// the distinct keys of the objects and indices of the arrays at a path
// under each item of a list (the path read as specgate.values_at reads
// it; the keys as `some k, _ in x` names them), each once, in the order
// they are first met: specgate.keys_at(ops, ["node", "responses", null,
// "content"]) are the media type names of every response an operation
// writes, where the comprehension [k | some op in ops; some r in
// op.node.responses; some k, _ in r.content] lists one for each response
// and a set of them hashes each.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.keys_at",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A)),
			types.NewArray(nil, types.A)),
	}, keysAtBuiltin)
}

func keysAtBuiltin(_ rego.BuiltinContext, items, path *ast.Term) (*ast.Term, error) {
	values, err := valuesUnder("specgate.keys_at", items, path)
	if err != nil {
		return nil, err
	}
	seen := ast.NewSet()
	var out []*ast.Term
	for _, v := range values {
		add := func(k *ast.Term) {
			if !seen.Contains(k) {
				seen.Add(k)
				out = append(out, k)
			}
		}
		switch c := v.Value.(type) {
		case ast.Object:
			c.Foreach(func(k, _ *ast.Term) { add(k) })
		case *ast.Array:
			for i := range c.Len() {
				add(ast.InternedTerm(i))
			}
		}
	}
	return ast.ArrayTerm(out...), nil
}

// valuesPath reads a path given to builtin (specgate.values_at and the
// builtins that read values as it does) as its steps; null, for every
// member, only if withAny.
func valuesPath(builtin string, p *ast.Array, withAny bool) ([]valuesStep, error) {
	steps := make([]valuesStep, p.Len())
	for i := range p.Len() {
		switch k := p.Elem(i).Value.(type) {
		case ast.String:
			steps[i] = valuesStep{key: p.Elem(i)}
		case ast.Number:
			n, ok := k.Int()
			if !ok {
				return nil, fmt.Errorf("%s: element %d of the path must be an integer, got %s", builtin, i, k)
			}
			steps[i] = valuesStep{index: n, isIndex: true}
		case ast.Null:
			if withAny {
				steps[i] = valuesStep{any: true}
				break
			}
			return nil, fmt.Errorf("%s: element %d of the path must be a string or a number, got null", builtin, i)
		default:
			if !withAny {
				return nil, fmt.Errorf("%s: element %d of the path must be a string or a number, got %s", builtin, i, ast.ValueName(k))
			}
			return nil, fmt.Errorf("%s: element %d of the path must be a string, a number or null, got %s", builtin, i, ast.ValueName(k))
		}
	}
	return steps, nil
}

// valuesStep is one element of a path given to specgate.values_at: an object's
// key, an array's index, or every member (any).
type valuesStep struct {
	key     *ast.Term
	index   int
	isIndex bool
	any     bool
}

// collectValues appends to out the values at the path steps under t.
func collectValues(out []*ast.Term, t *ast.Term, steps []valuesStep) []*ast.Term {
	if len(steps) == 0 {
		return append(out, t)
	}
	s, rest := steps[0], steps[1:]
	switch c := t.Value.(type) {
	case ast.Object:
		switch {
		case s.any:
			c.Foreach(func(_, member *ast.Term) { out = collectValues(out, member, rest) })
		case s.key != nil:
			if member := c.Get(s.key); member != nil {
				out = collectValues(out, member, rest)
			}
		}
	case *ast.Array:
		switch {
		case s.any:
			for i := range c.Len() {
				out = collectValues(out, c.Elem(i), rest)
			}
		case s.isIndex && s.index >= 0 && s.index < c.Len():
			out = collectValues(out, c.Elem(s.index), rest)
		}
	}
	return out
}

// anyValue tells whether one of the values at the path steps under t
// satisfies pred, visiting them as collectValues lists them and stopping
// at the first.
func anyValue(t *ast.Term, steps []valuesStep, pred func(*ast.Term) bool) bool {
	if len(steps) == 0 {
		return pred(t)
	}
	s, rest := steps[0], steps[1:]
	switch c := t.Value.(type) {
	case ast.Object:
		switch {
		case s.any:
			return c.Until(func(_, member *ast.Term) bool { return anyValue(member, rest, pred) })
		case s.key != nil:
			if member := c.Get(s.key); member != nil {
				return anyValue(member, rest, pred)
			}
		}
	case *ast.Array:
		switch {
		case s.any:
			return c.Until(func(elem *ast.Term) bool { return anyValue(elem, rest, pred) })
		case s.isIndex && s.index >= 0 && s.index < c.Len():
			return anyValue(c.Elem(s.index), rest, pred)
		}
	}
	return false
}

// specgate.matching and specgate.positions_matching find the few items of
// a large list whose name, status or method (any string at a path) a
// regular expression matches, in one call: in Rego, each item costs an
// iteration, a lookup and a call of regex.match, which is most of a rule
// that reports a few of many parameters or judges every operation by its
// statuses.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.matching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
			types.NewArray(nil, types.A)),
	}, matchingBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.positions_matching",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
			types.NewArray([]types.Type{types.NewArray(nil, types.N), types.NewArray(nil, types.N)}, nil)),
	}, positionsMatchingBuiltin)
}

// matchingBuiltin is specgate.matching(items, path, pattern) -> [item]:
// the items of a list that hold, at the path, a string the regular
// expression matches (as regex.match(pattern, s) would), in order. The
// path starts at the item itself, not its node (["name"] is `item.name`,
// ["node", "description"] is `item.node.description`), and is read as
// specgate.values_at reads it: object keys, array indices, and null for
// any member or element, an item being kept when any string it reaches
// matches (["parameters", null, "name"] keeps the operations with a
// parameter so named). Items that hold something else there are left out.
func matchingBuiltin(_ rego.BuiltinContext, items, path, pattern *ast.Term) (*ast.Term, error) {
	list, m, err := newMatcher("specgate.matching", items, path, pattern)
	if err != nil {
		return nil, err
	}
	var out []*ast.Term
	for i := range list.Len() {
		if m.matches(list.Elem(i)) {
			out = append(out, list.Elem(i))
		}
	}
	return ast.ArrayTerm(out...), nil
}

// positionsMatchingBuiltin is specgate.positions_matching(items, path,
// pattern) -> [matching, others]: the positions of the items that
// specgate.matching keeps, and of the others, each in order.
// specgate.positions_matching(input.operations, ["responses", null,
// "status"], `^2`)[1] are the operations without a 2xx response, by
// position, for set differences with other indexes of operations.
func positionsMatchingBuiltin(_ rego.BuiltinContext, items, path, pattern *ast.Term) (*ast.Term, error) {
	list, m, err := newMatcher("specgate.positions_matching", items, path, pattern)
	if err != nil {
		return nil, err
	}
	var matching, others []*ast.Term
	for i := range list.Len() {
		if m.matches(list.Elem(i)) {
			matching = append(matching, ast.InternedTerm(i))
		} else {
			others = append(others, ast.InternedTerm(i))
		}
	}
	return ast.ArrayTerm(ast.ArrayTerm(matching...), ast.ArrayTerm(others...)), nil
}

// matcher tests an item's strings at a path against a regular expression,
// each distinct string once (a large API's names and statuses repeat).
type matcher struct {
	re    *regexp.Regexp
	steps []valuesStep
	seen  map[ast.String]bool
}

// newMatcher reads the operands of builtin: the list, and a matcher of
// the path and pattern.
func newMatcher(builtin string, items, path, pattern *ast.Term) (*ast.Array, *matcher, error) {
	list, p, err := arrays(builtin, items, path)
	if err != nil {
		return nil, nil, err
	}
	steps, err := valuesPath(builtin, p, true)
	if err != nil {
		return nil, nil, err
	}
	s, ok := pattern.Value.(ast.String)
	if !ok {
		return nil, nil, fmt.Errorf("%s: operand 3 must be a string, got %s", builtin, ast.ValueName(pattern.Value))
	}
	re, err := compiled(string(s))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", builtin, err)
	}
	return list, &matcher{re: re, steps: steps, seen: map[ast.String]bool{}}, nil
}

// matches tells whether a string the item reaches at the path matches.
func (m *matcher) matches(item *ast.Term) bool {
	return anyValue(item, m.steps, func(v *ast.Term) bool {
		s, ok := v.Value.(ast.String)
		if !ok {
			return false
		}
		match, ok := m.seen[s]
		if !ok {
			match = m.re.MatchString(string(s))
			m.seen[s] = match
		}
		return match
	})
}

// patterns keeps the regular expressions the matching builtins compiled,
// by their text: a rule calls them with a constant pattern, once or a few
// times an evaluation, and a rule set has a handful of them. Once it holds
// maxPatterns, it starts again empty (a caller that builds its patterns
// from the document must not grow it without bound).
var patterns struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}

const maxPatterns = 100

func compiled(pattern string) (*regexp.Regexp, error) {
	patterns.Lock()
	defer patterns.Unlock()
	if re, ok := patterns.m[pattern]; ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	if patterns.m == nil || len(patterns.m) >= maxPatterns {
		patterns.m = map[string]*regexp.Regexp{}
	}
	patterns.m[pattern] = re
	return re, nil
}

// specgate.with_repeats(items, key) -> [item] and
// specgate.elements_of_type(items, key, type) -> [typed, others]
//
// judge the array each item of a list (objects with a node, as those of
// input.schemasWith.enum) holds at a key of its node, for every item in
// one call: a rule about enums then reads the few that repeat a value, or
// that hold a value of another type than their schema's, where a test of
// each schema costs a function call and an iteration of Rego per value.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.with_repeats",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.S), types.NewArray(nil, types.A)),
	}, withRepeatsBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.elements_of_type",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A), types.S, types.S),
			types.NewArray([]types.Type{types.NewArray(nil, types.A), types.NewArray(nil, types.A)}, nil)),
	}, elementsOfTypeBuiltin)
}

// withRepeatsBuiltin is specgate.with_repeats(items, key): the items whose
// node holds at key an array with an element equal to an earlier one (as
// specgate.repeats finds them: as the members of a set are equal), in
// order.
func withRepeatsBuiltin(_ rego.BuiltinContext, items, key *ast.Term) (*ast.Term, error) {
	list, err := listAndKey("specgate.with_repeats", items, key)
	if err != nil {
		return nil, err
	}
	var out []*ast.Term
	eachNode(list, func(item *ast.Term, node ast.Value) {
		o, ok := node.(ast.Object)
		if !ok {
			return
		}
		if arr, ok := valueOf(o, key).(*ast.Array); ok && repeatsOne(arr) {
			out = append(out, item)
		}
	})
	return ast.ArrayTerm(out...), nil
}

// repeatsOne tells whether an element of arr equals an earlier one.
func repeatsOne(arr *ast.Array) bool {
	if arr.Len() < 2 {
		return false
	}
	seen := ast.NewSet()
	for i := range arr.Len() {
		if seen.Contains(arr.Elem(i)) {
			return true
		}
		seen.Add(arr.Elem(i))
	}
	return false
}

// elementsOfTypeBuiltin is specgate.elements_of_type(items, key, type):
// the items whose node holds at key an array of which every element has
// the type (as type_name names it: "string", "number", "boolean", "null",
// "array", "object"; an empty array qualifies), and the others (no
// array there, an element of another type, an item without a node), each
// in order.
func elementsOfTypeBuiltin(_ rego.BuiltinContext, items, key, typ *ast.Term) (*ast.Term, error) {
	list, err := listAndKey("specgate.elements_of_type", items, key)
	if err != nil {
		return nil, err
	}
	name, ok := typ.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.elements_of_type: operand 3 must be a string, got %s", ast.ValueName(typ.Value))
	}
	switch name {
	case "string", "number", "boolean", "null", "array", "object":
	default:
		return nil, fmt.Errorf("specgate.elements_of_type: operand 3 must name a JSON type (string, number, boolean, null, array or object), got %q", string(name))
	}
	var typed, others []*ast.Term
	for i := range list.Len() {
		item := list.Elem(i)
		var arr *ast.Array
		if o, ok := item.Value.(ast.Object); ok {
			if node, ok := valueOf(o, nodeKey).(ast.Object); ok {
				arr, _ = valueOf(node, key).(*ast.Array)
			}
		}
		if arr != nil && !arr.Until(func(e *ast.Term) bool { return ast.ValueName(e.Value) != string(name) }) {
			typed = append(typed, item)
		} else {
			others = append(others, item)
		}
	}
	return ast.ArrayTerm(ast.ArrayTerm(typed...), ast.ArrayTerm(others...)), nil
}

// specgate.violations_of builds the findings of a rule that reports one
// per item of a list, in one call: a rule with tens of thousands of
// findings (every string an API receives without a bound) spends most of
// its time building each one in Rego (a path by array.concat, a message
// by concat, an object), which Go does for a fraction of the cost.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.violations_of",
		Decl: findingsDecl,
	}, violationsOfBuiltin)
}

// findingsDecl is the type of the builtins that build findings from a
// list of items, a path suffix and a message template.
var findingsDecl = types.NewFunction(types.Args(types.NewArray(nil, types.A), types.NewArray(nil, types.A), types.S),
	types.NewArray(nil, types.NewObject([]*types.StaticProperty{
		types.NewStaticProperty("message", types.S),
		types.NewStaticProperty("path", types.NewArray(nil, types.A)),
	}, nil)))

var (
	sourceKey  = ast.StringTerm("source")
	pathKey    = ast.StringTerm("path")
	messageKey = ast.StringTerm("message")
)

// violationsOfBuiltin is specgate.violations_of(items, suffix, template)
// -> [{"path", "message"}]: for each item of a list (an object with a
// source, as those of input.schemas), in order, the finding
// {"path": array.concat(item.source, suffix), "message": …} whose message
// is the template with each {field} (a name of letters, digits and
// underscores in braces) replaced by the item's string at that field:
// specgate.violations_of(items, ["type"], "{label} is a string without
// maxLength"). Any other brace is text. An item that is not an object,
// whose source is not an array or whose field is missing or not a string
// gives no finding, as the comprehension that builds the same object
// would give none.
func violationsOfBuiltin(_ rego.BuiltinContext, items, suffix, template *ast.Term) (*ast.Term, error) {
	return violationsOf("specgate.violations_of", items, suffix, template, "", nil)
}

// specgate.operation_violations is specgate.violations_of for operations,
// whose messages name them: the rules that report one finding per
// operation of thousands (each without a description, a summary, tags)
// spent most of their time naming each operation and building its finding
// in Rego.
func init() {
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.operation_violations",
		Decl: findingsDecl,
	}, operationViolationsBuiltin)
}

// operationViolationsBuiltin is specgate.operation_violations(ops, suffix,
// template) -> [{"path", "message"}]: specgate.violations_of(ops, suffix,
// template) where {operation} in the template is the operation's name as
// specgate.operation_name gives it ("GET /pets"): an operation without a
// method, or without a path or webhook, gives no finding, as a
// comprehension calling specgate.operation_name gives none.
func operationViolationsBuiltin(_ rego.BuiltinContext, ops, suffix, template *ast.Term) (*ast.Term, error) {
	return violationsOf("specgate.operation_violations", ops, suffix, template, "operation", operationName)
}

// violationsOf is the findings of specgate.violations_of, where a {field}
// of the template named self is the item's name by nameOf instead of its
// string at that field (and an item nameOf cannot name gives none).
func violationsOf(builtin string, items, suffix, template *ast.Term, self string, nameOf func(ast.Object) (string, bool)) (*ast.Term, error) {
	list, tail, err := arrays(builtin, items, suffix)
	if err != nil {
		return nil, err
	}
	t, ok := template.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("%s: operand 3 must be a string, got %s", builtin, ast.ValueName(template.Value))
	}
	parts := templateParts(string(t))
	named := false
	for i, p := range parts {
		if p.field != nil && self != "" && p.field.Value.Compare(ast.String(self)) == 0 {
			parts[i] = templatePart{self: true}
			named = true
		}
	}
	out := make([]*ast.Term, 0, list.Len())
	var b strings.Builder
	for i := range list.Len() {
		item, ok := list.Elem(i).Value.(ast.Object)
		if !ok {
			continue
		}
		source, ok := valueOf(item, sourceKey).(*ast.Array)
		if !ok {
			continue
		}
		var name string
		if named {
			if name, ok = nameOf(item); !ok {
				continue
			}
		}
		b.Reset()
		complete := true
		for _, p := range parts {
			switch {
			case p.self:
				b.WriteString(name)
				continue
			case p.field == nil:
				b.WriteString(p.text)
				continue
			}
			s, ok := valueOf(item, p.field).(ast.String)
			if !ok {
				complete = false
				break
			}
			b.WriteString(string(s))
		}
		if !complete {
			continue
		}
		path := make([]*ast.Term, 0, source.Len()+tail.Len())
		source.Foreach(func(t *ast.Term) { path = append(path, t) })
		tail.Foreach(func(t *ast.Term) { path = append(path, t) })
		out = append(out, ast.ObjectTerm(
			ast.Item(pathKey, ast.ArrayTerm(path...)),
			ast.Item(messageKey, ast.StringTerm(b.String())),
		))
	}
	return ast.ArrayTerm(out...), nil
}

// templatePart is a run of a message template: text, or the field whose
// value takes its place.
type templatePart struct {
	text  string
	field *ast.Term
	self  bool // the item's name (see violationsOf)
}

// templateParts splits a template at its {field} references.
func templateParts(t string) []templatePart {
	var parts []templatePart
	text := 0
	for i := 0; i < len(t); i++ {
		if t[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(t) && isFieldByte(t[j]) {
			j++
		}
		if j == i+1 || j == len(t) || t[j] != '}' {
			continue
		}
		if text < i {
			parts = append(parts, templatePart{text: t[text:i]})
		}
		parts = append(parts, templatePart{field: ast.StringTerm(t[i+1 : j])})
		text = j + 1
		i = j
	}
	if text < len(t) {
		parts = append(parts, templatePart{text: t[text:]})
	}
	return parts
}

func isFieldByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
