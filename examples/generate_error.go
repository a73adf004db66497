package examples

import (
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// breakRequest breaks a 400 or 422 example's request in one place: the
// first change, in a documented order, that the contract rejects; else it
// adds a query parameter the operation does not declare, and reports false.
func (gen *generator) breakRequest(x *exchange) bool {
	type change struct {
		apply, undo func()
	}
	var changes []change
	if obj, ok := x.body.(map[string]any); ok && x.media != "" {
		for _, key := range slices.Sorted(maps.Keys(obj)) {
			v := obj[key]
			changes = append(changes, change{func() { delete(obj, key) }, func() { obj[key] = v }})
		}
		for _, key := range slices.Sorted(maps.Keys(obj)) {
			v := obj[key]
			changes = append(changes, change{func() { obj[key] = []any{[]any{}} }, func() { obj[key] = v }})
		}
	}
	for _, key := range slices.Sorted(maps.Keys(x.query)) {
		if x.secret[key] {
			continue
		}
		v := x.query[key]
		changes = append(changes,
			change{func() { delete(x.query, key) }, func() { x.query[key] = v }},
			change{func() { x.query[key] = "specgate-invalid" }, func() { x.query[key] = v }})
	}
	for _, key := range slices.Sorted(maps.Keys(x.headers)) {
		if x.secret[key] || key == "Cookie" {
			continue
		}
		v := x.headers[key]
		changes = append(changes, change{func() { delete(x.headers, key) }, func() { x.headers[key] = v }})
	}
	if x.body != nil && x.media != "" {
		body := x.body
		changes = append(changes, change{func() { x.body = []any{[]any{}} }, func() { x.body = body }})
	}
	for _, ch := range changes {
		ch.apply()
		if gen.rejected(x) {
			return true
		}
		ch.undo()
	}
	x.query["specgate-unexpected"] = "out-of-spec"
	return false
}

// rejected reports whether the contract finds the request invalid, in its
// parameters or body (not its credentials).
func (gen *generator) rejected(x *exchange) bool {
	res, ok := gen.check(x)
	if !ok {
		return false
	}
	for _, p := range res.Problems {
		switch p.In {
		case contract.InPath, contract.InQuery, contract.InHeader, contract.InCookie, contract.InBody:
			return true
		}
	}
	return false
}

// check sends a generated request through the contract's checks, with its
// templates at their defaults.
func (gen *generator) check(x *exchange) (*contract.RequestResult, bool) {
	v := contract.Values{Path: x.pathVal, Query: map[string]any{}, Header: map[string]any{}}
	for k, val := range x.query {
		v.Query[k] = defaults(val)
	}
	for k, val := range x.headers {
		v.Header[k] = defaults(val)
	}
	if x.media != "" {
		v.Body, v.MediaType = x.body, x.media
	}
	built, err := gen.k.c.BuildRequest(x.op, v)
	if err != nil {
		return nil, false
	}
	return gen.k.c.CheckRequest(built.Request(strings.TrimRight(gen.k.c.Prefix(x.op), "/"))), true
}

var envTemplate = regexp.MustCompile(`\$\{[^}:]*:([^}]*)\}`)

// defaults writes the ${NAME:default} templates of a value as their
// defaults.
func defaults(v any) any {
	if s, ok := v.(string); ok && strings.Contains(s, "${") {
		return envTemplate.ReplaceAllString(s, "$1")
	}
	return v
}

// methodNotAllowed writes the 405 example of a path: a method none of its
// operations declares, and that no other template of the same shape
// takes for the generated path (/pets/mine beside /pets/{id}).
func (gen *generator) methodNotAllowed(ops []*spec.Operation) error {
	var allow []string
	for _, op := range ops {
		allow = append(allow, strings.ToUpper(op.Method))
	}
	op := ops[0]
	if gen.failed[op] {
		return nil
	}
	gen.forFile(op.Path + " 405")
	x, err := gen.request(op)
	if err != nil {
		return fmt.Errorf("405 example of %s: %w", op.Path, err)
	}
	method := ""
	for _, m := range []string{"PUT", "PATCH", "DELETE", "POST", "GET"} {
		if t := gen.k.route(m, x.path); t.Status == http.StatusMethodNotAllowed && t.Op != nil && t.Op.Path == op.Path {
			method = m
			break
		}
	}
	if method == "" {
		return nil
	}
	x.method = method
	x.body, x.media = nil, ""
	x.status = http.StatusMethodNotAllowed
	x.respHeaders = map[string]any{"Allow": strings.Join(allow, ", ")}
	// A method the path does not declare has no operation: only a 405 the
	// operation declares by its code describes the answer, not a range or
	// default.
	if r := contract.ExactResponse(op, http.StatusMethodNotAllowed); r != nil {
		if err := gen.response(x, r, firstMedia(r), false); err != nil {
			return fmt.Errorf("405 example of %s: %w", op.Path, err)
		}
		x.respHeaders["Allow"] = strings.Join(allow, ", ")
	}
	gen.add(strings.ToLower(method)+"_"+pathSlug(op.Path)+"_405", op, "405", x)
	return nil
}

// unsupportedType writes the 415 example of an operation that takes a
// body: a Content-Type it does not accept.
func (gen *generator) unsupportedType(op *spec.Operation) error {
	names := requestTypes(op)
	if len(names) == 0 {
		return nil
	}
	ct := ""
	for _, cand := range []string{"text/plain", "application/xml", "application/json", "application/octet-stream", "text/csv"} {
		if _, ok := contract.MatchMediaType(cand, names); !ok {
			ct = cand
			break
		}
	}
	if ct == "" {
		return nil
	}
	if gen.failed[op] {
		return nil
	}
	gen.forFile(opName(op) + " 415")
	x, err := gen.request(op)
	if err != nil {
		return fmt.Errorf("415 example of %s %s: %w", strings.ToUpper(op.Method), op.Path, err)
	}
	x.body, x.media = "unsupported content", ct
	x.status = http.StatusUnsupportedMediaType
	x.respHeaders = map[string]any{}
	if r := explicitResponse(op, http.StatusUnsupportedMediaType); r != nil {
		if err := gen.response(x, r, firstMedia(r), false); err != nil {
			return fmt.Errorf("415 example of %s %s: %w", strings.ToUpper(op.Method), op.Path, err)
		}
	}
	gen.add(opName(op)+"_415", op, "415", x)
	return nil
}
