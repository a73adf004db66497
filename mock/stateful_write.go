package mock

import (
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// respondState is the stateful mock's Responder.
func (s *Server) respondState(x *Exchange) (*Answer, bool) {
	c := x.op.crud
	if c == nil {
		return nil, false
	}
	body, isObject := x.Value.(map[string]any)
	if c.role == roleCreate || c.role == roleReplace || c.role == roleMerge {
		switch {
		case !x.hasValue:
			// No body: a create or replace of nothing but what the path
			// and the schema give, an empty merge patch.
			body = map[string]any{}
		case !isObject:
			stateless(x, fmt.Sprintf("the request body is %s, not a JSON object: not one resource", contract.KindOf(x.Value)))
			return nil, false
		}
	}
	st := s.state.of(x.op.api.stateKey)
	parents := map[string]string{}
	for _, p := range c.parents {
		if v, ok := x.Route.Param(p); ok {
			parents[p] = v
		}
	}
	id, _ := x.Route.Param(c.idParam)
	httpx.LogAttrs(x.Request.Context(), slog.String("state", roleNames[c.role]+" "+c.collection))
	switch c.role {
	case roleCreate:
		return s.create(x, st, c, parents, body)
	case roleList:
		st.mu.RLock()
		defer st.mu.RUnlock()
		return s.list(x, st, c, parents), true
	case roleClear:
		st.mu.Lock()
		coll := st.collection(c.collection)
		for _, r := range coll.list() {
			if parentsMatch(r, parents) {
				coll.remove(r)
			}
		}
		st.mu.Unlock()
		return s.stateAnswer(x, c, c.status, nil), true
	case roleRead:
		st.mu.RLock()
		r := st.collection(c.collection).find(id, parents)
		st.mu.RUnlock()
		if r == nil {
			return s.notFound(x, c, id, parents), true
		}
		return s.stateAnswer(x, c, c.status, r.Value), true
	case roleReplace:
		return s.replace(x, st, c, parents, id, body)
	case roleMerge:
		return s.merge(x, st, c, parents, id, body), true
	case roleRemove:
		st.mu.Lock()
		coll := st.collection(c.collection)
		r := coll.find(id, parents)
		if r == nil {
			st.mu.Unlock()
			return s.notFound(x, c, id, parents), true
		}
		coll.remove(r)
		st.mu.Unlock()
		return s.stateAnswer(x, c, c.status, r.Value), true
	}
	return nil, false
}

// create stores a new resource: the request's body with a new id, the
// path's parameters in the fields of their names, and the required fields
// it lacks (readOnly ones such as createdAt) generated from the
// resource's schema.
//
// A request whose body cannot make a resource that fits the schema (the
// operation's request and response describe different things: an action
// rather than a create) is left to the stateless mock: ok is false.
func (s *Server) create(x *Exchange, st *store, c *crud, parents map[string]string, body map[string]any) (*Answer, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if a := s.checkParents(x, st, c, parents); a != nil {
		return a, true
	}
	if a := s.checkForeignKeys(x, st, c, body); a != nil {
		return a, true
	}
	coll := st.collection(c.collection)
	var id any
	if given, ok := body[c.idField]; ok && given != nil && !c.idReadOnly {
		if coll.taken(scalarText(given), parents) != nil {
			return s.storeRefusal(x, http.StatusConflict, kindConflict,
				fmt.Sprintf("%s: the %s collection holds a resource with %s %s%s already; nothing was stored", x.op, c.collection, c.idField, scalarText(given), under(c, parents))), true
		}
		id = given
	} else {
		id = s.newID(x.op, c, coll)
	}
	v, problem := s.buildResource(x, c, body, id, parents)
	if problem != "" {
		stateless(x, problem)
		return nil, false
	}
	r := &resource{ID: scalarText(id), Parents: parents, Value: v}
	a := s.stateAnswer(x, c, c.status, v)
	if a.Problem == nil {
		coll.put(r)
		if h := locationHeader(c.success); h != "" {
			a.Header.Set(h, strings.TrimSuffix(x.Request.URL.Path, "/")+"/"+url.PathEscape(r.ID))
		}
	}
	return a, true
}

// under says which parents a resource is under, for messages: " under
// userId 1".
func under(c *crud, parents map[string]string) string {
	var b strings.Builder
	for _, p := range c.parents {
		if v, ok := parents[p]; ok {
			if b.Len() == 0 {
				b.WriteString(" under ")
			} else {
				b.WriteString(", ")
			}
			b.WriteString(p + " " + v)
		}
	}
	return b.String()
}

// checkParents refuses to store a resource under a parent that does not
// exist (an order of a user the store does not hold): 404 naming it. A
// parent is checked where the spec serves its item path (/users/{email}
// for /users/{email}/orders) from the store and its collection can be
// created or holds resources; a parent the store cannot know of is taken
// on trust.
func (s *Server) checkParents(x *Exchange, st *store, c *crud, parents map[string]string) *Answer {
	for _, ref := range c.parentRefs {
		coll := st.collections[ref.collection]
		if !ref.creatable && (coll == nil || len(coll.byID) == 0) {
			continue
		}
		before := make(map[string]string, len(ref.before))
		for _, b := range ref.before {
			if v, ok := parents[b]; ok {
				before[b] = v
			}
		}
		if coll != nil && coll.taken(parents[ref.param], before) != nil {
			continue
		}
		return s.storeRefusal(x, http.StatusNotFound, kindNoResource,
			fmt.Sprintf("%s: the %s collection holds no resource with %s %s, which the path names; nothing was stored", x.op, ref.collection, ref.idField, parents[ref.param]))
	}
	return nil
}

// stateless notes in the request's log line why the store left a request
// to the stateless mock.
func stateless(x *Exchange, why string) {
	httpx.LogAttrs(x.Request.Context(), slog.String("stateless", why))
}

// newID draws the id of a new resource: by the id field's type and
// format, or generated from its schema when that constrains its values
// (tried until it is one the collection does not hold).
func (s *Server) newID(op *operation, c *crud, coll *collection) any {
	if c.idSchema != nil {
		if sc, err := op.api.schemas.Compile(c.idSchema, c.idSchemaSrc); err == nil {
			for range 64 {
				coll.drawn++
				h := fnv.New64a()
				fmt.Fprintf(h, "%d\x00%s\x00%d", s.opts.Seed, c.collection, coll.drawn)
				v, err := sc.Generate(schema.NewGeneratorWith(h.Sum64(), schema.GeneratorOptions{PreferGenerated: true}), schema.Response)
				if err != nil {
					break
				}
				if !coll.has(scalarText(v)) {
					return v
				}
			}
		}
	}
	return s.state.drawID(op.api.stateKey, c.collection, coll, c.idKind)
}

// buildResource makes a resource of a body: the body, its id and parent
// fields, and the required fields it still lacks (readOnly ones such as
// createdAt, at any depth) generated. Nothing optional is made up: a
// later filter on an optional field matches only what a client wrote.
// problem says why no valid resource comes of it.
func (s *Server) buildResource(x *Exchange, c *crud, body map[string]any, id any, parents map[string]string) (map[string]any, string) {
	t := typer{x.op.api.doc}
	v := make(map[string]any, len(body)+4)
	for k, f := range body {
		v[k] = f
	}
	// A property the body leaves out takes the default its request schema
	// declares (done: false), rather than a made-up value below.
	for name, d := range t.defaults(c.request, 0) {
		if _, sent := v[name]; !sent && t.property(c.resource, name, 0) != nil {
			v[name] = d
		}
	}
	if t.property(c.resource, c.idField, 0) != nil || t.doc.Deref(c.resource).Get("additionalProperties") == nil {
		v[c.idField] = id // the resource's schema has room for its id
	}
	for p, text := range parents {
		if ps := t.property(c.resource, p, 0); ps != nil {
			v[p] = t.coerce(ps, text, 0)
		}
	}
	sc, err := x.op.api.schemas.Compile(c.resource, c.resourceSrc)
	if err != nil {
		return v, ""
	}
	if len(sc.Validate(v, schema.Response)) == 0 {
		return v, ""
	}
	// Take the required fields it lacks from a value generated for the
	// resource.
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s", s.opts.Seed, c.collection, scalarText(id))
	gen, err := sc.Generate(schema.NewGenerator(h.Sum64()), schema.Response)
	if err != nil {
		return nil, fmt.Sprintf("no value of the %s resource's schema can be generated: %v", c.collection, err)
	}
	filled, _ := t.fillRequired(c.resource, v, gen, 0).(map[string]any)
	probs := sc.Validate(filled, schema.Response)
	if len(probs) == 0 {
		return filled, ""
	}
	return nil, fmt.Sprintf("the request's body does not make a %s resource that fits its schema: %s", c.collection, probs[0])
}

// fillRequired adds to v the members that schema n requires and v lacks,
// taken from g, a value generated for n, in v's objects at every depth
// (an array's items from g's items). What n does not require is left as
// v has it.
func (t typer) fillRequired(n *spec.Node, v, g any, depth int) any {
	if depth > 16 {
		return v
	}
	switch vv := v.(type) {
	case map[string]any:
		gm, _ := g.(map[string]any)
		if gm == nil {
			return v
		}
		out := maps.Clone(vv)
		for _, name := range t.required(n, 0) {
			if _, has := out[name]; !has {
				if gv, ok := gm[name]; ok {
					out[name] = gv
				}
			}
		}
		for k, x := range out {
			if gx, ok := gm[k]; ok {
				out[k] = t.fillRequired(t.property(n, k, 0), x, gx, depth+1)
			}
		}
		return out
	case []any:
		ga, _ := g.([]any)
		if len(ga) == 0 {
			return v
		}
		it := t.items(n)
		out := make([]any, len(vv))
		for i, x := range vv {
			out[i] = t.fillRequired(it, x, ga[min(i, len(ga)-1)], depth+1)
		}
		return out
	}
	return v
}

// defaults are the defaults that object schema n declares for its
// properties, through allOf; the first one written wins.
func (t typer) defaults(n *spec.Node, depth int) map[string]any {
	n = t.doc.Deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return nil
	}
	out := map[string]any{}
	if props := n.Get("properties"); props != nil && props.Kind == spec.Object {
		for _, f := range props.Fields {
			if d := t.doc.Deref(f.Value).Get("default"); d != nil {
				out[f.Key] = schema.JSONValue(d)
			}
		}
	}
	if list := n.Get("allOf"); list != nil && list.Kind == spec.Array {
		for _, m := range list.Items {
			for k, d := range t.defaults(m, depth+1) {
				if _, ok := out[k]; !ok {
					out[k] = d
				}
			}
		}
	}
	return out
}

// required lists the properties that object schema n requires, through
// allOf.
func (t typer) required(n *spec.Node, depth int) []string {
	n = t.doc.Deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return nil
	}
	var out []string
	if req := n.Get("required"); req != nil && req.Kind == spec.Array {
		for _, it := range req.Items {
			if it.Kind == spec.String {
				out = append(out, it.Value)
			}
		}
	}
	if all := n.Get("allOf"); all != nil && all.Kind == spec.Array {
		for _, m := range all.Items {
			out = append(out, t.required(m, depth+1)...)
		}
	}
	return out
}

// replace stores the request's body as the resource of the path's id,
// creating it when there is none.
func (s *Server) replace(x *Exchange, st *store, c *crud, parents map[string]string, id string, body map[string]any) (*Answer, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	coll := st.collection(c.collection)
	old := coll.find(id, parents)
	if old == nil {
		if a := s.checkParents(x, st, c, parents); a != nil {
			return a, true
		}
	}
	if a := s.checkForeignKeys(x, st, c, body); a != nil {
		return a, true
	}
	t := typer{x.op.api.doc}
	typed := t.coerce(t.property(c.resource, c.idField, 0), id, 0)
	if old != nil {
		// What the server keeps (readOnly fields) stays when the client
		// does not send it.
		kept := make(map[string]any, len(body))
		for k, f := range body {
			kept[k] = f
		}
		for k, f := range old.Value {
			if _, sent := kept[k]; !sent {
				if ps := t.property(c.resource, k, 0); ps != nil && x.op.api.doc.Deref(ps).Get("readOnly").IsTrue() {
					kept[k] = f
				}
			}
		}
		body = kept
		parents = old.Parents
	}
	v, problem := s.buildResource(x, c, body, typed, parents)
	if problem != "" {
		stateless(x, problem)
		return nil, false
	}
	status := c.status
	if old == nil {
		status = c.created
	}
	a := s.stateAnswer(x, c, status, v)
	if a.Problem == nil {
		coll.put(&resource{ID: id, Parents: parents, Value: v})
	}
	return a, true
}

// merge applies the request's body to the resource as a JSON merge patch
// (RFC 7396): members it writes replace, null removes, objects merge, and
// what it leaves out stays. The id and parent fields do not change.
func (s *Server) merge(x *Exchange, st *store, c *crud, parents map[string]string, id string, patch map[string]any) *Answer {
	st.mu.Lock()
	defer st.mu.Unlock()
	coll := st.collection(c.collection)
	old := coll.find(id, parents)
	if old == nil {
		return s.notFound(x, c, id, parents)
	}
	merged, _ := mergePatch(old.Value, patch).(map[string]any)
	if merged == nil {
		merged = map[string]any{}
	}
	merged[c.idField] = old.Value[c.idField]
	for p := range old.Parents {
		if v, ok := old.Value[p]; ok {
			merged[p] = v
		}
	}
	if a := s.checkForeignKeys(x, st, c, merged); a != nil {
		return a
	}
	if sc, err := x.op.api.schemas.Compile(c.resource, c.resourceSrc); err == nil {
		if probs := sc.Validate(merged, schema.Response); len(probs) > 0 {
			// The patch is invalid input, refused as the contract refuses
			// a request that breaks its schema: 400, or 422 where that is
			// all the operation declares for it, as a problem document
			// where it declares neither; never a 404 that says the
			// resource is gone.
			status := http.StatusBadRequest
			if contract.ExactResponse(x.op.op, http.StatusUnprocessableEntity) != nil && contract.ExactResponse(x.op.op, http.StatusBadRequest) == nil {
				status = http.StatusUnprocessableEntity
			}
			return s.refusal(x, problems.New(status, kindOf(status),
				fmt.Sprintf("%s: the patch makes a %s resource that breaks its schema: %s; nothing was stored", x.op, c.collection, probs[0])))
		}
	}
	a := s.stateAnswer(x, c, c.status, merged)
	if a.Problem == nil {
		coll.put(&resource{ID: old.ID, Parents: old.Parents, Value: merged})
	}
	return a
}

// mergePatch applies a JSON merge patch (RFC 7396) to a value.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	out := make(map[string]any, len(t)+len(p))
	if ok {
		for k, v := range t {
			out[k] = v
		}
	}
	for k, v := range p {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatch(out[k], v)
	}
	return out
}

// checkForeignKeys refuses (400) a resource whose field that
// x-foreign-keys names holds the id of no resource of its collection.
func (s *Server) checkForeignKeys(x *Exchange, st *store, c *crud, v map[string]any) *Answer {
	for _, field := range slices.Sorted(maps.Keys(c.foreignKeys)) {
		val, ok := v[field]
		if !ok || val == nil {
			continue
		}
		target := c.foreignKeys[field]
		if st.collections[target] == nil || !st.collections[target].has(scalarText(val)) {
			return s.storeRefusal(x, http.StatusBadRequest, kindForeignKey,
				fmt.Sprintf("%s: %s %s names no resource of %s (x-foreign-keys); nothing was stored", x.op, field, scalarText(val), target))
		}
	}
	return nil
}
