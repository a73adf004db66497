package mock

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

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
