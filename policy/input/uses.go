package input

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/builtins"
	"github.com/specgate/specgate/spec"
)

// bodyUses are the uses of the responses and request bodies of ops (the
// operations under paths, webhooks and callbacks, in that order, with
// their converted terms), each judged once: once per operation for one
// written in place, once for one written as a $ref, with the first
// operation that uses it. They are input.responseUses and
// input.index.requestBodyUses (style.response_uses and request_body_uses),
// so that a response hundreds of operations share is judged once.
//
// Responses are {op, response, name, at}, request bodies {op,
// requestBody, name, at}: name is how messages name it (a shared one by
// its reference and its first operation; style.response_name), at where
// findings about it go (the target of a local $ref; style.response_at).
func bodyUses(ops []*spec.Operation, terms []*ast.Term) (responses, requestBodies *ast.Term) {
	first := map[string]int{}         // a $ref → the first operation using it
	users := map[string]int{}         // a $ref → how many operations use it
	last := map[string]int{}          // a $ref → the last operation counted
	firstResponse := map[string]int{} // a $ref → the first operation using it for a response
	firstBody := map[string]int{}     // a $ref → the first operation using it for its request body
	// use counts operation i among the users of n's $ref, noting it in
	// firstThere (firstResponse or firstBody) if it is the first there.
	use := func(n *spec.Node, i int, firstThere map[string]int) {
		r, ok := refString(n)
		if !ok {
			return
		}
		if _, seen := first[r]; !seen {
			first[r], last[r] = i, -1
		}
		if _, seen := firstThere[r]; !seen {
			firstThere[r] = i
		}
		if last[r] != i {
			users[r]++
			last[r] = i
		}
	}
	for i, op := range ops {
		if rs := op.Node.Get("responses"); rs != nil && rs.Kind == spec.Object {
			for _, f := range rs.Fields {
				use(f.Value, i, firstResponse)
			}
		}
		use(op.Node.Get("requestBody"), i, firstBody)
	}
	// shared is the name and the place of a use of a $ref: named by the
	// reference and its users, at the target of a local reference (else
	// where the operation writes it).
	shared := func(what, ref string, at *ast.Term) (*ast.Term, *ast.Term) {
		if path, ok := localRefPath(ref); ok {
			at = path
		}
		return ast.StringTerm(what + " " + ref + " (used by " + sharedBy(operationName(ops[first[ref]]), users[ref]) + ")"), at
	}
	field := func(i int, key *ast.Term) *ast.Term { return terms[i].Value.(ast.Object).Get(key) }
	source := func(t *ast.Term) *ast.Term { return t.Value.(ast.Object).Get(sourceKey) }
	responseRef := func(i int, status string) (string, bool) {
		return refString(ops[i].Node.Get("responses").Get(status))
	}
	var resps, bodies []*ast.Term
	addResponse := func(i, j int, ref string) {
		resp := field(i, responsesKey).Value.(*ast.Array).Elem(j)
		name, at := ast.StringTerm(operationName(ops[i])+" response "+ops[i].Responses[j].Status), source(resp)
		if ref != "" {
			name, at = shared("response", ref, at)
		}
		resps = append(resps, ast.ObjectTerm([2]*ast.Term{opKey, terms[i]}, [2]*ast.Term{responseKey, resp},
			[2]*ast.Term{nameKey, name}, [2]*ast.Term{atKey, at}))
	}
	addBody := func(i int, ref string) {
		body := field(i, requestBodyKey)
		name, at := ast.StringTerm("the request body of "+operationName(ops[i])), source(body)
		if ref != "" {
			name, at = shared("request body", ref, at)
		}
		bodies = append(bodies, ast.ObjectTerm([2]*ast.Term{opKey, terms[i]}, [2]*ast.Term{requestBodyKey, body},
			[2]*ast.Term{nameKey, name}, [2]*ast.Term{atKey, at}))
	}
	bodyRef := func(i int) (string, bool) { return refString(ops[i].Node.Get("requestBody")) }
	for i, op := range ops {
		for j, r := range op.Responses {
			if _, ok := responseRef(i, r.Status); !ok {
				addResponse(i, j, "")
			}
		}
		if _, ok := bodyRef(i); !ok && op.RequestBody != nil {
			addBody(i, "")
		}
	}
	// A shared one is judged with the first operation that uses the
	// reference for a response (for a request body), which the first user
	// of the reference, whom its name quotes, may not be.
	for _, ref := range slices.Sorted(maps.Keys(first)) {
		if i, ok := firstResponse[ref]; ok {
			for j, r := range ops[i].Responses {
				if got, ok := responseRef(i, r.Status); ok && got == ref {
					addResponse(i, j, ref)
				}
			}
		}
		if k, ok := firstBody[ref]; ok && ops[k].RequestBody != nil {
			addBody(k, ref)
		}
	}
	return ast.ArrayTerm(resps...), ast.ArrayTerm(bodies...)
}

// parameterKeys are the keys of the parameter lists as written, {"pathItems":
// [keys], "operations": [keys]}, one per path item and per operation
// under paths, webhooks and callbacks (correctness.operations), in order:
// null where the item writes no list, else the key of each entry, null
// for an entry that cannot be read. A key is [in, name], a header's name
// lower-cased (header names have no case); an entry that is a local $ref
// is read from its target, as health.deref reads it (one level, within
// the entry document). operation-parameters-unique looks for a repeated
// key in each list, whose entries are mostly $refs that Rego would
// follow one by one.
func parameterKeys(root *spec.Node, items []*spec.PathItem, ops []*spec.Operation) *ast.Term {
	interned := map[string]*ast.Term{}
	key := func(p *spec.Node) *ast.Term {
		in, name := p.Get("in"), p.Get("name")
		if in == nil || in.Kind != spec.String || name == nil || name.Kind != spec.String {
			return ast.NullTerm()
		}
		n := name.Value
		if in.Value == "header" {
			n = strings.ToLower(n)
		}
		k := in.Value + "\x00" + n
		t, ok := interned[k]
		if !ok {
			t = ast.ArrayTerm(ast.StringTerm(in.Value), ast.StringTerm(n))
			interned[k] = t
		}
		return t
	}
	byRef := map[string]*ast.Term{} // the key of each $ref's target
	keys := func(owner *spec.Node) *ast.Term {
		list := owner.Get("parameters")
		if list == nil || list.Kind != spec.Array {
			return ast.NullTerm()
		}
		out := make([]*ast.Term, len(list.Items))
		for i, e := range list.Items {
			ref, isRef := refString(e)
			if !isRef {
				out[i] = key(e)
				continue
			}
			if out[i] = byRef[ref]; out[i] == nil {
				t := localTarget(root, e)
				out[i] = key(t)
				if t != e { // an unresolved $ref is read with its siblings
					byRef[ref] = out[i]
				}
			}
		}
		return ast.ArrayTerm(out...)
	}
	itemKeys := make([]*ast.Term, len(items))
	for i, it := range items {
		itemKeys[i] = keys(it.Node)
	}
	opKeys := make([]*ast.Term, len(ops))
	for i, op := range ops {
		opKeys[i] = keys(op.Node)
	}
	return ast.ObjectTerm([2]*ast.Term{ast.StringTerm("pathItems"), ast.ArrayTerm(itemKeys...)},
		[2]*ast.Term{ast.StringTerm("operations"), ast.ArrayTerm(opKeys...)})
}

// localTarget is what health.deref makes of a value: the object a local
// $ref of it names in the entry document (followed through objects only,
// and not itself a $ref), else the value.
func localTarget(root, n *spec.Node) *spec.Node {
	ref, ok := refString(n)
	if !ok {
		return n
	}
	segs, ok := refSegments(ref)
	if !ok {
		return n
	}
	t := root
	for _, seg := range segs {
		if t = t.Get(seg); t == nil {
			return n
		}
	}
	if t.Kind != spec.Object {
		return n
	}
	if _, isRef := refString(t); isRef {
		return n
	}
	return t
}

// sharedBy names the n operations that use a reference by the first of
// them (style.shared_by).
func sharedBy(first string, n int) string {
	switch n {
	case 1:
		return first
	case 2:
		return first + " and 1 other operation"
	}
	return first + " and " + strconv.Itoa(n-1) + " other operations"
}

// operationName is specgate.operation_name of an operation's view.
func operationName(op *spec.Operation) string {
	return builtins.NameOperation(op.Method, op.Path, op.Webhook, op.Callback)
}

// localRefPath is the path a local $ref names (util.ref_path): "#/a/x~1y"
// is ["a", "x/y"]; false for a reference to another file.
func localRefPath(ref string) (*ast.Term, bool) {
	segs, ok := refSegments(ref)
	if !ok {
		return nil, false
	}
	terms := make([]*ast.Term, len(segs))
	for i, seg := range segs {
		terms[i] = ast.StringTerm(seg)
	}
	return ast.ArrayTerm(terms...), true
}

// refSegments are the keys of the path a local $ref names, unescaped;
// false for a reference to another file.
func refSegments(ref string) ([]string, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	return pointerKeys(ref[1:]), true
}

// pointerKeys are the keys of a JSON pointer ("/a/x~1y" is "a", "x/y"),
// unescaped as util.unescape does; none for "".
func pointerKeys(ptr string) []string {
	if ptr == "" {
		return nil
	}
	keys := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, key := range keys {
		if strings.Contains(key, "~") {
			keys[i] = strings.ReplaceAll(strings.ReplaceAll(key, "~1", "/"), "~0", "~")
		}
	}
	return keys
}

var (
	opKey          = ast.StringTerm("op")
	nameKey        = ast.StringTerm("name")
	sourceKey      = ast.StringTerm("source")
	atKey          = ast.StringTerm("at")
	responseKey    = ast.StringTerm("response")
	responsesKey   = ast.StringTerm("responses")
	requestBodyKey = ast.StringTerm("requestBody")
)

// refString is the $ref of an object, when it is a string.
func refString(n *spec.Node) (string, bool) {
	if r := n.Get("$ref"); r != nil && r.Kind == spec.String {
		return r.Value, true
	}
	return "", false
}

// termsOf are the elements of an array term.
func termsOf(list *ast.Term) []*ast.Term {
	arr := list.Value.(*ast.Array)
	out := make([]*ast.Term, arr.Len())
	for i := range out {
		out[i] = arr.Elem(i)
	}
	return out
}
