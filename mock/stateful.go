package mock

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// The stateful mock (type: stateful-mock, --stateful) answers the
// operations shaped as create, read, update and delete from a store that
// keeps what requests did, through the Responder seam: a valid request
// reaches it after the contract's checks, and what it does not take (other
// shapes, other methods, a Prefer header) the stateless mock answers.
//
// A collection is named by the last fixed segment of a path, before an
// optional trailing {id} parameter: /orders and /orders/{orderId} are
// "orders", and so is /users/{userId}/orders, whose userId is a parent of
// the orders created under it. Paths ending in the same segment share one
// collection within a spec, and the items under different parents are
// different items. What the store refuses of a valid request is answered
// within the contract (storeRefusal).

// role is what an operation does to its collection.
type role uint8

const (
	roleNone    role = iota
	roleCreate       // POST /c
	roleList         // GET /c
	roleClear        // DELETE /c
	roleRead         // GET /c/{id}
	roleReplace      // PUT /c/{id}
	roleMerge        // PATCH /c/{id}
	roleRemove       // DELETE /c/{id}
)

var roleNames = [...]string{"", "create", "list", "clear", "read", "replace", "merge", "remove"}

// crud is how the stateful mock answers one operation.
type crud struct {
	role       role
	collection string
	idParam    string   // the trailing {id} of an item path
	parents    []string // the path's other parameters
	idField    string
	idKind     idKind
	// idReadOnly is true when the id field is readOnly: a create always
	// draws the id, whatever the body says; otherwise a body's id is kept
	// (a natural key such as a SKU).
	idReadOnly bool
	// idSchema is the id field's schema when its values are constrained
	// (a pattern, a length, a format other than uuid): drawn ids are
	// generated from it.
	idSchema    *spec.Node
	idSchemaSrc spec.Path
	// resource is the schema of one resource (the item schema of a list),
	// and where it is written.
	resource    *spec.Node
	resourceSrc spec.Path
	// success is the response answered, its status and its JSON media
	// type (nil when it has no JSON content).
	success *spec.Response
	status  int
	media   *spec.MediaType
	created int // the status of a PUT that creates: a declared 201, else status
	// foreignKeys maps a field to the collection its value must be an id
	// of (x-foreign-keys).
	foreignKeys map[string]string
	// list is how a list answer is laid out and paged.
	list listShape
	// path is the operation's path template; parentRefs the parents of
	// its path that name resources of the store, checked before a create.
	path       string
	parentRefs []parentRef
}

// parentRef is a parameter of a path that names a resource of another
// collection of the store: {email} of /users/{email}/orders names a
// resource of users, where the spec serves /users/{email}.
type parentRef struct {
	param      string
	collection string
	idField    string   // the parent collection's id field, for messages
	before     []string // the path's parameters before it: the parent's own parents
	// creatable is true when the spec creates resources of the parent
	// collection (a POST or a PUT): a parent the store does not hold is
	// then missing, where one of a collection filled by seeding only is
	// checked only while the collection holds resources.
	creatable bool
}

// listShape is the layout of a list answer and its paging.
type listShape struct {
	// items is the property holding the items when the answer is an
	// object (a wrapper such as {data: [...], has_more: true}); "" when it
	// is the array itself.
	items                       string
	total, hasMore, nextCursor  string // properties of the wrapper that say so, when it has them
	nextLink                    string // a property of the wrapper that links to the next page (next, next_url)
	limit, offset, page, cursor string // the query parameters of each paging style the operation declares
	pageBase                    int    // the first page's number: 0 or 1
	limitDefault                int    // the limit parameter's default, -1 for none
}

// planStateful gives each operation of a spec the part it plays in the
// stateful mock, and each collection one id field and kind of id.
func planStateful(a *api) {
	t := typer{a.doc}
	byCollection := map[string][]*crud{}
	for _, op := range a.ops {
		c := planOperation(a, t, op)
		if c == nil {
			continue
		}
		op.crud = c
		byCollection[c.collection] = append(byCollection[c.collection], c)
	}
	for _, plans := range byCollection {
		// One id field for the collection: a declared x-id-field wins,
		// then "id", then the item path's parameter when the resource has
		// a property of its name.
		field, declared := "", false
		for _, c := range plans {
			if f := extension(a.doc, c.resource, "x-id-field", 0); f != "" && !declared {
				field, declared = f, true
			}
		}
		if field == "" {
			field = "id"
			has := func(name string) bool {
				for _, c := range plans {
					if t.property(c.resource, name, 0) != nil {
						return true
					}
				}
				return false
			}
			if !has("id") {
				for _, c := range plans {
					if c.idParam != "" && has(c.idParam) {
						field = c.idParam
						break
					}
				}
			}
		}
		kind, readOnly := idString, false
		var idSchema *spec.Node
		var idSrc spec.Path
		for _, c := range plans {
			if n := t.property(c.resource, field, 0); n != nil {
				kind = idKindOf(a.doc, t, n)
				d := a.doc.Deref(n)
				readOnly = d.Get("readOnly").IsTrue()
				if kind == idString && constrained(d) {
					idSchema, idSrc = n, append(slices.Clone(c.resourceSrc), "properties", field)
				}
				break
			}
		}
		for _, c := range plans {
			c.idField, c.idKind, c.idReadOnly, c.idSchema, c.idSchemaSrc = field, kind, readOnly, idSchema, idSrc
		}
	}
	for _, plans := range byCollection {
		for _, c := range plans {
			c.parentRefs = parentRefsOf(c, byCollection)
		}
	}
}

// parentRefsOf finds the parameters of c's path that name resources of
// the store: {p} after a fixed segment naming a collection whose item
// path (the path up to {p}, whatever its parameters are called) is one
// of the store's operations.
func parentRefsOf(c *crud, byCollection map[string][]*crud) []parentRef {
	var refs []parentRef
	segs := strings.Split(strings.Trim(c.path, "/"), "/")
	var before []string
	for i, seg := range segs {
		p, ok := wholeParam(seg)
		if !ok {
			continue
		}
		if p == c.idParam && i == len(segs)-1 {
			break
		}
		if i > 0 && !strings.ContainsAny(segs[i-1], "{}") {
			item := shape(strings.Join(segs[:i+1], "/"))
			ref := parentRef{param: p, collection: segs[i-1], before: slices.Clone(before)}
			served := false
			for _, pc := range byCollection[ref.collection] {
				switch pc.role {
				case roleRead, roleReplace, roleMerge, roleRemove:
					if shape(strings.Trim(pc.path, "/")) == item {
						served, ref.idField = true, pc.idField
					}
				}
				if pc.role == roleCreate || pc.role == roleReplace {
					ref.creatable = true
				}
			}
			if served {
				refs = append(refs, ref)
			}
		}
		before = append(before, p)
	}
	return refs
}

// constrained reports whether a string schema limits its values beyond
// being text.
func constrained(n *spec.Node) bool {
	for _, k := range []string{"pattern", "minLength", "maxLength", "enum", "const", "format"} {
		if n.Get(k) != nil {
			return true
		}
	}
	return false
}

func idKindOf(doc *spec.Document, t typer, n *spec.Node) idKind {
	ts := t.types(n)
	switch {
	case ts&contract.TypeInteger != 0 && ts&contract.TypeString == 0:
		return idInteger
	case ts&contract.TypeString != 0 && doc.Deref(n).GetStr("format") == "uuid":
		return idUUID
	}
	return idString
}

// extension reads a string extension of a schema (x-id-field), through
// allOf.
func extension(doc *spec.Document, n *spec.Node, key string, depth int) string {
	n = doc.Deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return ""
	}
	if v := n.GetStr(key); v != "" {
		return v
	}
	if all := n.Get("allOf"); all != nil && all.Kind == spec.Array {
		for _, m := range all.Items {
			if v := extension(doc, m, key, depth+1); v != "" {
				return v
			}
		}
	}
	return ""
}

// foreignKeys reads x-foreign-keys of a schema (through allOf): field →
// the collection named by the last fixed segment of the path it gives.
func foreignKeys(doc *spec.Document, n *spec.Node, out map[string]string, depth int) {
	n = doc.Deref(n)
	if n == nil || n.Kind != spec.Object || depth > 8 {
		return
	}
	if fk := n.Get("x-foreign-keys"); fk != nil && fk.Kind == spec.Object {
		for _, f := range fk.Fields {
			if name, _, _ := collectionOf(f.Value.Value); name != "" {
				out[f.Key] = name
			}
		}
	}
	if all := n.Get("allOf"); all != nil && all.Kind == spec.Array {
		for _, m := range all.Items {
			foreignKeys(doc, m, out, depth+1)
		}
	}
}

// collectionOf reads a path template: the collection it names, and the
// trailing {id} parameter when it is an item path.
func collectionOf(path string) (name, idParam string, item bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	last := segs[len(segs)-1]
	if p, ok := wholeParam(last); ok && len(segs) > 1 {
		prev := segs[len(segs)-2]
		if strings.ContainsAny(prev, "{}") || prev == "" {
			return "", "", false
		}
		return prev, p, true
	}
	if strings.ContainsAny(last, "{}") || last == "" {
		return "", "", false
	}
	return last, "", false
}

// wholeParam reports whether a segment is one parameter, "{id}".
func wholeParam(seg string) (string, bool) {
	if len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}' && !strings.ContainsAny(seg[1:len(seg)-1], "{}") {
		return seg[1 : len(seg)-1], true
	}
	return "", false
}

// planOperation is the part op plays, or nil when the stateless mock
// answers it.
func planOperation(a *api, t typer, op *operation) *crud {
	name, idParam, item := collectionOf(op.path)
	if name == "" {
		return nil
	}
	c := &crud{collection: name, idParam: idParam, success: op.success, status: op.successStatus, created: op.successStatus, path: op.path}
	switch m := op.method; {
	case !item && m == "post":
		c.role = roleCreate
	case !item && m == "get":
		c.role = roleList
	case !item && m == "delete":
		c.role = roleClear
	case item && m == "get":
		c.role = roleRead
	case item && m == "put":
		c.role = roleReplace
	case item && m == "patch":
		c.role = roleMerge
	case item && m == "delete":
		c.role = roleRemove
	default:
		return nil
	}
	if c.success == nil {
		return nil
	}
	if c.status == 0 {
		c.status = http.StatusOK
	}
	for _, seg := range strings.Split(op.path, "/") {
		if p, ok := wholeParam(seg); ok && p != idParam {
			c.parents = append(c.parents, p)
		}
	}
	if r := declaredResponse(op.op, "201"); r != nil && c.role == roleReplace {
		c.created = http.StatusCreated
	}
	for _, mt := range c.success.Content {
		if isJSON(mt.Name) {
			c.media = mt
			break
		}
	}
	if len(c.success.Content) > 0 && c.media == nil {
		return nil // an answer that is not JSON: the stateless mock's
	}
	var reqSchema *spec.Node
	var reqSrc spec.Path
	if rb := op.op.RequestBody; rb != nil {
		// A JSON body first; else a form's fields, which the contract
		// decodes into an object as well.
		for _, wantJSON := range []bool{true, false} {
			for _, mt := range rb.Content {
				if reqSchema == nil && mt.Schema != nil && isJSON(mt.Name) == wantJSON && t.types(mt.Schema)&contract.TypeObject != 0 {
					reqSchema, reqSrc = mt.Schema, mt.SchemaSource
				}
			}
		}
		if reqSchema == nil && (c.role == roleCreate || c.role == roleReplace || c.role == roleMerge) {
			return nil
		}
	}
	if c.media != nil && c.media.Schema != nil {
		c.resource, c.resourceSrc = c.media.Schema, c.media.SchemaSource
	}
	if c.role == roleList {
		if c.resource == nil || !c.planList(a, t, op) {
			return nil
		}
	}
	if c.resource == nil || t.types(c.resource)&contract.TypeObject == 0 {
		if reqSchema == nil || c.role == roleList {
			if c.role != roleRemove && c.role != roleClear {
				return nil
			}
		} else {
			c.resource, c.resourceSrc = reqSchema, reqSrc
		}
	}
	c.foreignKeys = map[string]string{}
	foreignKeys(a.doc, reqSchema, c.foreignKeys, 0)
	foreignKeys(a.doc, c.resource, c.foreignKeys, 0)
	return c
}

// planList reads how a list answer is laid out (the array, or an object
// with one array property of objects) and which paging parameters the
// operation declares.
func (c *crud) planList(a *api, t typer, op *operation) bool {
	doc := a.doc
	sch := doc.Deref(c.resource)
	ts := t.types(sch)
	switch {
	case ts&contract.TypeArray != 0:
		it := t.items(sch)
		if it == nil {
			return false
		}
		c.resource, c.resourceSrc = it, append(slices.Clone(c.resourceSrc), "items")
	case ts&contract.TypeObject != 0:
		props := sch.Get("properties")
		if props == nil {
			return false
		}
		var arrays []string
		for _, f := range props.Fields {
			if t.types(f.Value)&contract.TypeArray != 0 && t.items(f.Value) != nil {
				arrays = append(arrays, f.Key)
			}
		}
		switch {
		case len(arrays) == 1:
			c.list.items = arrays[0]
		case len(arrays) > 1:
			for _, pref := range []string{"data", "items", "results", "content", "records", "values", "elements", c.collection} {
				if slices.Contains(arrays, pref) {
					c.list.items = pref
					break
				}
			}
		}
		if c.list.items == "" {
			return false
		}
		it := t.items(props.Get(c.list.items))
		c.resource, c.resourceSrc = it, append(slices.Clone(c.resourceSrc), "properties", c.list.items, "items")
		for _, f := range props.Fields {
			ft := t.types(f.Value)
			switch k := strings.ToLower(strings.ReplaceAll(f.Key, "_", "")); {
			case ft&contract.TypeInteger != 0 && slices.Contains([]string{"total", "totalcount", "count", "totalitems", "totalelements", "totalresults"}, k):
				c.list.total = f.Key
			case ft&contract.TypeBoolean != 0 && slices.Contains([]string{"hasmore", "hasnext", "more"}, k):
				c.list.hasMore = f.Key
			case ft&contract.TypeString != 0 && (slices.Contains([]string{"next", "nextlink", "nexturl", "nexturi", "nextpageurl", "nextpageuri", "nextpagelink", "nexthref", "@odata.nextlink"}, k) ||
				slices.Contains([]string{"nextcursor", "nextpagetoken", "cursor", "nextpage"}, k) && isLinkFormat(doc.Deref(f.Value).GetStr("format"))):
				c.list.nextLink = f.Key
			case ft&contract.TypeString != 0 && slices.Contains([]string{"nextcursor", "nextpagetoken", "cursor", "nextpage"}, k):
				c.list.nextCursor = f.Key
			}
		}
	default:
		return false
	}
	if t.types(c.resource)&contract.TypeObject == 0 {
		return false
	}
	c.list.limitDefault = -1
	for _, p := range op.op.Parameters {
		if p.In != "query" {
			continue
		}
		switch k := strings.ToLower(strings.ReplaceAll(p.Name, "_", "")); k {
		case "limit", "size", "pagesize", "perpage", "maxresults", "count":
			if c.list.limit == "" || k == "limit" {
				c.list.limit = p.Name
				c.list.limitDefault = -1
				if d := a.doc.Deref(paramSchema(p)).Get("default"); d != nil {
					if n, err := strconv.Atoi(d.Value); err == nil && n >= 0 {
						c.list.limitDefault = n
					}
				}
			}
		case "offset", "skip", "start":
			c.list.offset = p.Name
		case "page", "pagenumber", "pageno":
			c.list.page = p.Name
			c.list.pageBase = 1
			if min := a.doc.Deref(paramSchema(p)).Get("minimum"); min != nil && min.Value == "0" {
				c.list.pageBase = 0
			}
		case "cursor", "after", "startingafter", "pagetoken", "continuationtoken":
			c.list.cursor = p.Name
		}
	}
	return true
}

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
			stateless(x, fmt.Sprintf("the request body is %s, not a JSON object: not one resource", jsonKind(x.Value)))
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

// jsonKind names the kind of a JSON value, for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return "an object"
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
			return s.storeRefusal(x, http.StatusBadRequest, kindBadRequest,
				fmt.Sprintf("%s: the patch makes a %s resource that breaks its schema: %s; nothing was stored", x.op, c.collection, probs[0]))
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
	for _, field := range sortedKeysOf(c.foreignKeys) {
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

func sortedKeysOf(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// list answers the collection's resources under the path's parents,
// filtered by the query parameters named as their fields, one page of
// them when the operation declares paging parameters.
func (s *Server) list(x *Exchange, st *store, c *crud, parents map[string]string) *Answer {
	t := typer{x.op.api.doc}
	var items []*resource
	coll := st.collections[c.collection]
	if coll != nil {
		for _, r := range coll.list() {
			if parentsMatch(r, parents) && s.filtered(t, c, x, r) {
				items = append(items, r)
			}
		}
	}
	total := len(items)
	q := x.Params.Query
	limit := c.list.limitDefault
	if n, ok := intParam(q, c.list.limit); ok && n >= 0 {
		limit = n
	}
	start := 0
	if n, ok := intParam(q, c.list.offset); ok && n > 0 {
		start = n
	}
	if n, ok := intParam(q, c.list.page); ok && limit > 0 {
		start = max(n-c.list.pageBase, 0) * limit
	}
	if cur, ok := q[c.list.cursor]; ok && c.list.cursor != "" && scalarText(cur) != "" {
		// The page starts after the resource the cursor names, among
		// those under the path's parents whatever the filters.
		var after *resource
		if coll != nil {
			after = coll.find(scalarText(cur), parents)
		}
		if after == nil {
			return s.storeRefusal(x, http.StatusBadRequest, kindBadCursor,
				fmt.Sprintf("%s: %s %s names no resource of %s%s", x.op, c.list.cursor, scalarText(cur), c.collection, under(c, parents)))
		}
		start = len(items)
		for i, r := range items {
			if r.seq > after.seq {
				start = i
				break
			}
		}
	}
	start = min(start, len(items))
	end := len(items)
	if limit >= 0 {
		end = min(start+limit, len(items))
	}
	page := items[start:end]
	values := make([]any, len(page))
	for i, r := range page {
		values[i] = project(t, c.resource, r.Value)
	}
	if c.list.items == "" {
		return s.stateAnswer(x, c, c.status, values)
	}
	// A wrapper: generated, then its items and what it says of them.
	wrapper := map[string]any{}
	if sc, err := x.op.api.schemas.Compile(c.media.Schema, c.media.SchemaSource); err == nil {
		if g, err := sc.Generate(schema.NewGenerator(s.seedFor(x.op, c.status, c.media.Name, false)), schema.Response); err == nil {
			if m, ok := g.(map[string]any); ok {
				wrapper = m
			}
		}
	}
	wrapper[c.list.items] = values
	more := end < len(items)
	if c.list.total != "" {
		wrapper[c.list.total] = jsonInt(total)
	}
	if c.list.hasMore != "" {
		wrapper[c.list.hasMore] = more
	}
	if c.list.nextCursor != "" {
		next := ""
		if more && len(page) > 0 {
			next = page[len(page)-1].ID
		}
		setNext(t, c.media.Schema, wrapper, c.list.nextCursor, next)
	}
	if c.list.nextLink != "" {
		next := ""
		if more && len(page) > 0 {
			next = nextPageURL(x, c, start, end, page[len(page)-1].ID)
		}
		setNext(t, c.media.Schema, wrapper, c.list.nextLink, next)
	}
	return s.stateAnswerRaw(x, c, c.status, wrapper)
}

// setNext writes what a wrapper says of the next page into its property
// key: next when there is one; else null where the schema allows it,
// nothing where the property is optional, and the generated value where
// it is required.
func setNext(t typer, sch *spec.Node, wrapper map[string]any, key, next string) {
	switch {
	case next != "":
		wrapper[key] = next
	case t.types(t.property(sch, key, 0))&contract.TypeNull != 0:
		wrapper[key] = nil
	case !requires(t.doc.Deref(sch), key):
		delete(wrapper, key)
	}
}

func requires(sch *spec.Node, key string) bool {
	if req := sch.Get("required"); req != nil && req.Kind == spec.Array {
		for _, it := range req.Items {
			if it.Value == key {
				return true
			}
		}
	}
	return false
}

// isLinkFormat reports whether a string format holds a link.
func isLinkFormat(f string) bool {
	return f == "uri" || f == "url" || f == "uri-reference" || f == "iri" || f == "iri-reference"
}

// nextPageURL is the URL of the page after items [start, end) of a list
// request: the request's URL with its page, offset or cursor moved on.
// "" when the operation has no parameter to ask for it.
func nextPageURL(x *Exchange, c *crud, start, end int, lastID string) string {
	q := x.Request.URL.Query()
	switch {
	case c.list.page != "":
		size := end - start
		if size <= 0 {
			return ""
		}
		q.Set(c.list.page, strconv.Itoa(end/size+c.list.pageBase))
	case c.list.offset != "":
		q.Set(c.list.offset, strconv.Itoa(end))
	case c.list.cursor != "":
		q.Set(c.list.cursor, lastID)
	default:
		return ""
	}
	scheme := "http"
	if x.Request.TLS != nil {
		scheme = "https"
	}
	u := url.URL{Scheme: scheme, Host: x.Request.Host, Path: x.Request.URL.Path, RawPath: x.Request.URL.RawPath, RawQuery: q.Encode()}
	return u.String()
}

// filtered tells whether a resource passes the query parameters that name
// its fields: a scalar equal to the field's value, a list holding it, or
// a value held by an array field.
func (s *Server) filtered(t typer, c *crud, x *Exchange, r *resource) bool {
	for name, want := range x.Params.Query {
		if name == c.list.limit || name == c.list.offset || name == c.list.page || name == c.list.cursor {
			continue
		}
		if t.property(c.resource, name, 0) == nil {
			continue
		}
		got, ok := r.Value[name]
		if !ok {
			return false
		}
		if !filterMatch(got, want) {
			return false
		}
	}
	return true
}

func filterMatch(got, want any) bool {
	switch w := want.(type) {
	case []any:
		if g, ok := got.([]any); ok {
			for _, x := range w {
				if !slices.ContainsFunc(g, func(y any) bool { return scalarText(x) == scalarText(y) }) {
					return false
				}
			}
			return true
		}
		return slices.ContainsFunc(w, func(x any) bool { return scalarText(x) == scalarText(got) })
	case map[string]any:
		return true // an object filter (deepObject) is not a field's value
	}
	if g, ok := got.([]any); ok {
		return slices.ContainsFunc(g, func(y any) bool { return scalarText(y) == scalarText(want) })
	}
	return scalarText(got) == scalarText(want)
}

func intParam(q map[string]any, name string) (int, bool) {
	if name == "" {
		return 0, false
	}
	v, ok := q[name]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(scalarText(v))
	return n, err == nil
}

func jsonInt(n int) any { return json.Number(strconv.Itoa(n)) }

// project is what a response shows of a stored resource: its writeOnly
// properties (a password) left out.
func project(t typer, sch *spec.Node, v map[string]any) map[string]any {
	var out map[string]any
	for k := range v {
		ps := t.property(sch, k, 0)
		if ps != nil && t.doc.Deref(ps).Get("writeOnly").IsTrue() {
			if out == nil {
				out = make(map[string]any, len(v))
				for k2, x := range v {
					out[k2] = x
				}
			}
			delete(out, k)
		}
	}
	if out == nil {
		return v
	}
	return out
}

// stateAnswer answers with a resource (or a list of them) for the
// operation's success response: the resource itself where the response
// is an object, nothing where it declares no content. The answer is
// checked against the response's schema: state never gives an invalid
// answer (a stored resource that no longer fits is a 500 and an error in
// the log, never reshaped in silence).
func (s *Server) stateAnswer(x *Exchange, c *crud, status int, v any) *Answer {
	if m, ok := v.(map[string]any); ok {
		v = project(typer{x.op.api.doc}, c.resource, m)
	}
	return s.stateAnswerRaw(x, c, status, v)
}

func (s *Server) stateAnswerRaw(x *Exchange, c *crud, status int, v any) *Answer {
	resp := x.op.success
	if status != x.op.successStatus {
		if r := contract.ResponseFor(x.op.op, status); r != nil {
			resp = r
		}
	}
	a := &Answer{Status: status, Header: http.Header{}, Example: "state"}
	var mt *spec.MediaType
	for _, m := range resp.Content {
		if isJSON(m.Name) {
			mt = m
			break
		}
	}
	if mt != nil {
		a.MediaType = mt.Name
		switch {
		case v == nil || (c.role == roleRemove || c.role == roleClear) && !fits(x, mt, v):
			// A deletion whose response is not the resource: generated.
			g, p := s.generate(x, resp, status, false)
			if p != nil {
				return &Answer{Status: p.Status, Problem: p}
			}
			g.Example = "state"
			return g
		default:
			if msg := s.invalidAnswer(x, mt, v); msg != "" {
				s.opts.Logger.Error("the stored state does not fit the response schema: answered 500", slog.String("operation", x.op.String()),
					slog.String("collection", c.collection), slog.String("problem", msg))
				return &Answer{Status: http.StatusInternalServerError, Problem: problems.New(http.StatusInternalServerError, kindStateInvalid,
					fmt.Sprintf("%s: the stored %s do not fit the response's schema: %s", x.op, c.collection, msg))}
			}
			a.Body = v
		}
	}
	s.fillHeaders(x, resp, a, false)
	return a
}

func fits(x *Exchange, mt *spec.MediaType, v any) bool {
	if mt.Schema == nil {
		return true
	}
	sc, err := x.op.api.schemas.Compile(mt.Schema, mt.SchemaSource)
	return err == nil && len(sc.Validate(v, schema.Response)) == 0
}

// notFound refuses a read, update or deletion of an id the collection
// does not hold under the path's parents (404).
func (s *Server) notFound(x *Exchange, c *crud, id string, parents map[string]string) *Answer {
	return s.storeRefusal(x, http.StatusNotFound, kindNoResource,
		fmt.Sprintf("%s: the %s collection holds no resource with %s %s%s", x.op, c.collection, c.idField, id, under(c, parents)))
}

// closerStatuses are, for each status the store refuses a request with,
// the client errors that say the same to a client when an operation does
// not declare the status itself, closest first.
var closerStatuses = map[int][]int{
	http.StatusNotFound:   {http.StatusGone, http.StatusBadRequest, http.StatusUnprocessableEntity},
	http.StatusConflict:   {http.StatusUnprocessableEntity, http.StatusBadRequest},
	http.StatusBadRequest: {http.StatusUnprocessableEntity, http.StatusConflict, http.StatusNotFound},
}

// storeRefusal answers a valid request that the store does not carry out
// (status and kind say why: 404 no such resource, 409 a key taken, 400 a
// foreign key or a cursor that names nothing), with a response the
// operation declares: the contract checked the request and found it
// valid, so the answer stays within the contract too. It is the
// operation's response for the status (the status, its range, default);
// else the one for the closest client error it declares (closerStatuses);
// else, where it declares none of them, the answer the stateless mock
// gives (a DELETE of what is not there gets its 204), nothing stored.
// The X-Specgate-Problem header and the log say what the store refused
// and how it was answered.
func (s *Server) storeRefusal(x *Exchange, status int, kind, detail string) *Answer {
	p := problems.New(status, kind, detail)
	if contract.ResponseFor(x.op.op, status) != nil {
		return s.refusal(x, p)
	}
	for _, alt := range closerStatuses[status] {
		if declaredResponse(x.op.op, strconv.Itoa(alt)) != nil {
			p.Status = alt
			p.Detail += fmt.Sprintf(" (%s declares no %d: answered with its %d)", x.op, status, alt)
			return s.refusal(x, p)
		}
	}
	codes := []string{strconv.Itoa(status)}
	for _, alt := range closerStatuses[status] {
		codes = append(codes, strconv.Itoa(alt))
	}
	p.Detail += fmt.Sprintf(" (%s declares no %s or %s: answered as the stateless mock would)", x.op, strings.Join(codes[:len(codes)-1], ", "), codes[len(codes)-1])
	a, prob := s.answerFromSpec(x, prefs{})
	if prob != nil {
		return &Answer{Status: prob.Status, Problem: prob}
	}
	a.Refused = p
	return a
}

// locationHeader is the name of a Location header the response declares.
func locationHeader(r *spec.Response) string {
	for _, h := range r.Headers {
		if strings.EqualFold(h.Name, "Location") {
			return h.Name
		}
	}
	return ""
}
