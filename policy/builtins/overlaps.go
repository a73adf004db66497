package builtins

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// specgate.path_overlaps(items) -> [[a, b, checks]]: the pairs of paths
// that one request may match with neither more specific than the other,
// as far as their segments say. items are as naming.path_items gives them
// (segments, shape with each whole template "{}", methods). A pair [a, b]
// (positions in items) shares a method and a segment count; at the first
// segment k where their shapes differ, a has a whole template and b not;
// every later difference has a whole template on one side; and b is less
// specific than a somewhere after k, or a segment mixing text and
// templates faces a whole template at k or after. checks lists [i, j,
// text]: the template at segment j of path i must accept text, the other
// path's segment, where that is text. no-ambiguous-paths decides them
// against the parameters' schemas; in Rego, walking every candidate pair
// took most of a second on an API of a few hundred paths.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.path_overlaps",
		Decl: types.NewFunction(types.Args(types.NewArray(nil, types.A)),
			types.NewArray(nil, types.NewArray([]types.Type{types.N, types.N, types.NewArray(nil, types.A)}, nil))),
	}, pathOverlapsBuiltin)
}

// overlapPath is one path item, read for specgate.path_overlaps.
type overlapPath struct {
	raw, shape []string
	methods    map[string]bool
	// prefixes[k] names the shape of the segments before k
	// (see pathOverlapsBuiltin).
	prefixes []string
}

func pathOverlapsBuiltin(_ rego.BuiltinContext, items *ast.Term) (_ *ast.Term, err error) {
	defer guard("specgate.path_overlaps", &err)
	arr, ok := items.Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("specgate.path_overlaps: operand must be an array of path items, got %s", ast.ValueName(items.Value))
	}
	paths := make([]overlapPath, arr.Len())
	for i := range arr.Len() {
		p, err := readOverlapPath(arr.Elem(i))
		if err != nil {
			return nil, fmt.Errorf("specgate.path_overlaps: item %d: %w", i, err)
		}
		paths[i] = p
	}
	// templates indexes, by segment count, position k and the shape
	// before k, the paths with a whole template at k.
	type at struct {
		n, k   int
		prefix string
	}
	templates := map[at][]int{}
	for i, p := range paths {
		for k, s := range p.shape {
			if s == "{}" {
				key := at{len(p.shape), k, p.prefixes[k]}
				templates[key] = append(templates[key], i)
			}
		}
	}
	var out []*ast.Term
	for b, pb := range paths {
		for k, s := range pb.shape {
			if s == "{}" {
				continue
			}
			for _, a := range templates[at{len(pb.shape), k, pb.prefixes[k]}] {
				if checks, ok := overlap(paths[a], pb, a, b, k); ok {
					out = append(out, ast.ArrayTerm(ast.InternedTerm(a), ast.InternedTerm(b), ast.ArrayTerm(checks...)))
				}
			}
		}
	}
	return ast.ArrayTerm(out...), nil
}

// overlap tells whether paths a and b, alike in shape before k, where a
// has a whole template and b does not, can match one request with
// neither more specific, and what their templates must accept for it.
func overlap(pa, pb overlapPath, a, b, k int) ([]*ast.Term, bool) {
	common := false
	for m := range pa.methods {
		if pb.methods[m] {
			common = true
			break
		}
	}
	if !common {
		return nil, false
	}
	var checks []*ast.Term
	check := func(i, j int, text string) {
		checks = append(checks, ast.ArrayTerm(ast.InternedTerm(i), ast.InternedTerm(j), ast.StringTerm(text)))
	}
	crossing := mixed(pb.shape[k])
	if !crossing {
		check(a, k, pb.raw[k])
	}
	for j := k + 1; j < len(pb.shape); j++ {
		x, y := pa.shape[j], pb.shape[j]
		switch {
		case x == y:
		case x == "{}":
			// a is less specific here: its template takes b's text.
			if mixed(y) {
				crossing = true
			} else {
				check(a, j, pb.raw[j])
			}
		case y == "{}":
			// b is less specific here.
			crossing = true
			if !mixed(x) {
				check(b, j, pa.raw[j])
			}
		default:
			return nil, false // two different texts: no request matches both
		}
	}
	return checks, crossing
}

// mixed tells whether a segment's shape mixes text and templates.
func mixed(shape string) bool { return shape != "{}" && strings.Contains(shape, "{}") }

func readOverlapPath(t *ast.Term) (overlapPath, error) {
	obj, ok := t.Value.(ast.Object)
	if !ok {
		return overlapPath{}, fmt.Errorf("not an object")
	}
	var p overlapPath
	var err error
	if p.raw, err = stringsOf(obj, "segments"); err != nil {
		return p, err
	}
	if p.shape, err = stringsOf(obj, "shape"); err != nil {
		return p, err
	}
	if len(p.raw) != len(p.shape) {
		return p, fmt.Errorf("%d segments but a shape of %d", len(p.raw), len(p.shape))
	}
	methods, err := stringsOf(obj, "methods")
	if err != nil {
		return p, err
	}
	p.methods = make(map[string]bool, len(methods))
	for _, m := range methods {
		p.methods[m] = true
	}
	p.prefixes = make([]string, len(p.shape))
	var prefix strings.Builder
	for k, s := range p.shape {
		p.prefixes[k] = prefix.String()
		prefix.WriteString(s)
		prefix.WriteByte('/') // a shape holds no slash
	}
	return p, nil
}

// stringsOf reads obj[key], an array or a set of strings.
func stringsOf(obj ast.Object, key string) ([]string, error) {
	t := obj.Get(ast.InternedTerm(key))
	if t == nil {
		return nil, fmt.Errorf("no %s", key)
	}
	var out []string
	var bad error
	add := func(e *ast.Term) {
		if s, ok := e.Value.(ast.String); ok {
			out = append(out, string(s))
		} else if bad == nil {
			bad = fmt.Errorf("%s holds %s, not a string", key, ast.ValueName(e.Value))
		}
	}
	switch v := t.Value.(type) {
	case *ast.Array:
		v.Foreach(add)
	case ast.Set:
		v.Foreach(add)
	default:
		return nil, fmt.Errorf("%s is %s, not an array", key, ast.ValueName(t.Value))
	}
	return out, bad
}
