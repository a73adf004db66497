package mock

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
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
	// request is the schema of the request's body, whose defaults fill
	// what a create or a replace leaves out.
	request *spec.Node
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
	c.request = reqSchema
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
