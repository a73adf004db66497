package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// atLeastOne requires one of keys (OpenAPI 3.1: paths, components or
// webhooks).
func atLeastOne(keys ...string) rule {
	return func(w *walker, o *object, n *spec.Node) {
		for _, k := range keys {
			if n.Field(k) != nil {
				return
			}
		}
		w.report(n, fmt.Sprintf("the %s must have at least one of %s", o.name, quoteList(keys, "or")))
	}
}

// exactlyOne requires one of a and b, not both (a Parameter's schema or
// content).
func exactlyOne(a, b string) rule {
	return func(w *walker, o *object, n *spec.Node) {
		switch {
		case n.Field(a) == nil && n.Field(b) == nil:
			w.report(n, fmt.Sprintf("the %s must have either %q or %q", o.name, a, b))
		case n.Field(a) != nil && n.Field(b) != nil:
			w.atField(n, b, fmt.Sprintf("%q and %q are mutually exclusive in the %s", a, b, o.name))
		}
	}
}

// notBoth forbids a and b together.
func notBoth(a, b string) rule {
	return func(w *walker, o *object, n *spec.Node) {
		if n.Field(a) != nil && n.Field(b) != nil {
			w.atField(n, b, fmt.Sprintf("%q and %q are mutually exclusive in the %s", a, b, o.name))
		}
	}
}

// singleEntry requires the map under key to have exactly one entry (the
// content of a Parameter or Header names one media type).
func singleEntry(key string) rule {
	return func(w *walker, o *object, n *spec.Node) {
		if v := n.Get(key); v != nil && v.Kind == spec.Object && len(v.Fields) != 1 {
			w.atField(n, key, fmt.Sprintf("%q must have exactly one entry in the %s, found %d", key, o.name, len(v.Fields)))
		}
	}
}

// requiredWhen requires fields when key has value (an oauth2 security
// scheme needs flows; a Swagger array parameter needs items).
func requiredWhen(key, value string, fields ...string) rule {
	return func(w *walker, o *object, n *spec.Node) {
		if n.GetStr(key) != value {
			return
		}
		for _, f := range fields {
			if n.Field(f) == nil {
				w.report(n, fmt.Sprintf("missing required field %q in the %s (required when %q is %q)", f, o.name, key, value))
			}
		}
	}
}

// pathParamRequired: a path parameter is always required, and must say so.
func pathParamRequired(w *walker, _ *object, n *spec.Node) {
	if n.GetStr("in") == "path" && !n.Get("required").IsTrue() {
		w.atField(n, "required", fmt.Sprintf("path parameter %q must have \"required: true\"", n.GetStr("name")))
	}
}

// nonEmptyResponses: a Responses object lists at least one response.
func nonEmptyResponses(w *walker, o *object, n *spec.Node) {
	for _, f := range n.Fields {
		if !isExtension(f.Key) {
			return
		}
	}
	w.report(n, fmt.Sprintf("the %s must contain at least one response code", o.name))
}

// defaultInEnum: since OpenAPI 3.1 a server variable's enum is not empty
// and holds its default.
func defaultInEnum(w *walker, _ *object, n *spec.Node) {
	enum := n.Get("enum")
	if enum == nil || enum.Kind != spec.Array {
		return
	}
	if len(enum.Items) == 0 {
		w.atField(n, "enum", "\"enum\" must not be empty")
		return
	}
	def := n.Get("default")
	if def == nil || def.Kind != spec.String {
		return
	}
	if !slices.ContainsFunc(enum.Items, func(it *spec.Node) bool { return it.Kind == spec.String && it.Value == def.Value }) {
		w.atField(n, "default", fmt.Sprintf("default %q is not one of the \"enum\" values", def.Value))
	}
}

// itemsWithArray: an OpenAPI 3.0 schema of type array says what its items
// are.
func itemsWithArray(w *walker, _ *object, n *spec.Node) {
	if n.GetStr("type") == "array" && n.Field("items") == nil {
		w.atField(n, "type", "\"items\" is required when \"type\" is \"array\"")
	}
}

// uniqueOperationID: an operationId is unique among all operations of the
// document, callbacks and webhooks included.
func uniqueOperationID(w *walker, _ *object, op *spec.Node) {
	v := op.Get("operationId")
	if v == nil || v.Kind != spec.String {
		return
	}
	first, ok := w.operationIDs[v.Value]
	if !ok {
		w.operationIDs[v.Value] = firstUse{node: v, file: w.file.Name, line: v.Range.Start.Line}
		return
	}
	if first.node == v {
		return
	}
	where := fmt.Sprintf("line %d", first.line)
	if first.file != w.file.Name {
		where = fmt.Sprintf("%s:%d", first.file, first.line)
	}
	w.atField(op, "operationId", fmt.Sprintf("duplicate operationId %q: first used at %s", v.Value, where))
}

var templateParam = lazyregexp.New(`\{([^{}]+)\}`)

// pathTemplates matches each path's template against its path parameters:
// every {name} is declared by an "in: path" parameter of each operation
// (its own or the path item's), and every path parameter appears in the
// template. methods are the operation fields of a Path Item; extraOps, when
// not empty, names a map of further operations (OpenAPI 3.2).
func pathTemplates(methods []string, extraOps string) rule {
	return func(w *walker, _ *object, paths *spec.Node) {
		base := w.here()
		for i := range paths.Fields {
			f := &paths.Fields[i]
			if strings.HasPrefix(f.Key, "/") {
				item, at := w.deref(f.Value, base.child(f))
				checkPathItem(w, f.Key, item, at, operationsOf(item, at, methods, extraOps))
			}
		}
	}
}

// operation is an operation of a path item with its place and method.
type operation struct {
	method string
	node   *spec.Node
	at     place
}

func operationsOf(item *spec.Node, at place, methods []string, extraOps string) []operation {
	var ops []operation
	for i := range item.Fields {
		f := &item.Fields[i]
		if slices.Contains(methods, f.Key) && f.Value.Kind == spec.Object {
			ops = append(ops, operation{f.Key, f.Value, at.child(f)})
		}
	}
	if extra := item.Field(extraOps); extraOps != "" && extra != nil && extra.Value.Kind == spec.Object {
		for i := range extra.Value.Fields {
			f := &extra.Value.Fields[i]
			if f.Value.Kind == spec.Object {
				ops = append(ops, operation{f.Key, f.Value, at.child(extra).child(f)})
			}
		}
	}
	return ops
}

func checkPathItem(w *walker, path string, item *spec.Node, at place, ops []operation) {
	if item.Kind != spec.Object {
		return
	}
	var names []string
	for _, m := range templateParam().FindAllStringSubmatch(path, -1) {
		names = append(names, m[1])
	}
	shared, sharedOK := w.pathParams(item, at, path, names)
	for _, op := range ops {
		own, ownOK := w.pathParams(op.node, op.at, path, names)
		if !sharedOK || !ownOK {
			continue // a broken $ref hides a parameter: it is reported already
		}
		for _, name := range names {
			if !own[name] && !shared[name] {
				w.at(op.at, func() {
					w.report(op.node, fmt.Sprintf("path parameter %q of %q is not declared for the %s operation (add a parameter with \"in: path\")", name, path, op.method))
				})
			}
		}
	}
}

// pathParams returns the names of the "in: path" parameters listed by
// holder (a path item or an operation), reporting those the template does
// not name; ok is false when a parameter could not be resolved. found is
// nil when there is none.
func (w *walker) pathParams(holder *spec.Node, at place, path string, names []string) (found map[string]bool, ok bool) {
	ok = true
	list := holder.Field("parameters")
	if list == nil || list.Value.Kind != spec.Array {
		return found, ok
	}
	listAt := at.child(list)
	for i, it := range list.Value.Items {
		// The parameter's own place is only needed for a problem.
		p := w.doc.Deref(it)
		if isRef(p) {
			ok = false
			continue
		}
		if p.GetStr("in") != "path" {
			continue
		}
		name := p.GetStr("name")
		if found == nil {
			found = map[string]bool{}
		}
		found[name] = true
		if !slices.Contains(names, name) {
			w.at(listAt.item(i), func() {
				w.report(it, fmt.Sprintf("path parameter %q does not appear in the path template %q", name, path))
			})
		}
	}
	return found, ok
}

// declaredSchemes: each name of a Security Requirement is a security
// scheme declared under path from the document root. With uriNames
// (OpenAPI 3.2) a name may instead be a URI reference to a scheme.
func declaredSchemes(uriNames bool, path ...string) rule {
	where := "/" + strings.Join(path, "/")
	return func(w *walker, _ *object, n *spec.Node) {
		schemes := w.doc.Root.Root
		for _, key := range path {
			schemes = w.doc.Deref(schemes.Get(key))
		}
		for i := range n.Fields {
			f := &n.Fields[i]
			if schemes.Get(f.Key) != nil || (uriNames && strings.ContainsAny(f.Key, "/#:")) {
				continue
			}
			w.reportKey(f, fmt.Sprintf("security scheme %q is not declared in %s", f.Key, where))
		}
	}
}
