package examples

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// GeneratedFile is an example file that Generate made: its name in the
// examples folder and its JSON text.
type GeneratedFile struct {
	Name string // "getPet_200.json"
	// Op is the operation; Status the response key it exercises ("200",
	// "4XX", "default"), or "405" and "415" for the examples of an
	// undeclared method and an unsupported Content-Type.
	Op        *spec.Operation
	Status    string
	MediaType string // the response's media type; "" when it has no body
	Data      []byte
}

// Generate makes one external example per operation, declared response
// status and response media type, with values drawn from g (the same seed
// gives the same files), each valid against the specification:
//
//   - the request carries the path parameters, the required query
//     parameters, headers and cookies, a body when the operation declares
//     one (form fields and multipart parts for forms), and the credentials
//     of the operation's first security alternative as ${SCHEME:placeholder}
//     templates, so that a run reads them from the environment;
//   - a 400 or 422 example's request breaks the contract in one place (a
//     required property, parameter or body left out, a value of the wrong
//     type, else a query parameter the operation does not declare); a 401
//     example's carries no credentials;
//   - the response has the status (a range 4XX as 400, default as a status
//     nothing else declares), a Content-Type, the required headers, and a
//     body of the media type's schema;
//   - besides, one 405 example per path, with a method the path does not
//     declare, and one 415 example per operation that takes a body, with a
//     Content-Type it does not accept, when there is one.
//
// Files are named after the operation (its operationId, else the method
// and path) and the status, with the media type when a status declares
// several. The error lists what could not be generated (a schema no value
// satisfies); the other files are still returned.
func (k *Checker) Generate(g *schema.Generator) ([]GeneratedFile, error) {
	return k.generateAll(&generator{k: k, g: g, names: map[string]bool{}, failed: map[*spec.Operation]bool{}})
}

// GenerateSeeded is Generate with each file's values drawn from seed
// mixed with what the file exemplifies (its operation, status and media
// type): a file has the same values whatever else the spec declares, so
// that adding an operation changes no other file.
func (k *Checker) GenerateSeeded(seed uint64) ([]GeneratedFile, error) {
	return k.generateAll(&generator{k: k, seed: seed, seeded: true, names: map[string]bool{}, failed: map[*spec.Operation]bool{}})
}

func (k *Checker) generateAll(gen *generator) ([]GeneratedFile, error) {
	var errs []error
	byPath := map[string][]*spec.Operation{}
	var paths []string
	for _, op := range k.c.Operations() {
		if _, seen := byPath[op.Path]; !seen {
			paths = append(paths, op.Path)
		}
		byPath[op.Path] = append(byPath[op.Path], op)
	}
	for _, path := range paths {
		for _, op := range byPath[path] {
			errs = append(errs, gen.operation(op)...)
			if err := gen.unsupportedType(op); err != nil {
				errs = append(errs, err)
			}
		}
		if err := gen.methodNotAllowed(byPath[path]); err != nil {
			errs = append(errs, err)
		}
	}
	return gen.files, errors.Join(errs...)
}

type generator struct {
	k *Checker
	// g draws the values of the file being made: one generator for every
	// file, or with seeded one per file (see forFile).
	g      *schema.Generator
	seed   uint64
	seeded bool
	files  []GeneratedFile
	names  map[string]bool
	// failed holds the operations whose request cannot be made: said
	// once, not again for each of their responses, 415 and 405 examples.
	failed map[*spec.Operation]bool
}

// forFile sets the generator of the file that exemplifies key.
func (gen *generator) forFile(key string) {
	if gen.seeded {
		h := fnv.New64a()
		h.Write([]byte(key))
		gen.g = schema.NewGenerator(gen.seed ^ h.Sum64())
	}
}

// exchange is a generated example before it is written.
type exchange struct {
	op      *spec.Operation
	method  string
	path    string // serialized, without a server prefix
	pathVal map[string]any
	query   map[string]any
	headers map[string]any
	body    any
	media   string // the request body's media type; "" without a body
	// secret holds the names of the headers and query parameters that
	// carry credentials.
	secret map[string]bool

	status      int
	respHeaders map[string]any
	respBody    any
	respMedia   string
}

func (gen *generator) operation(op *spec.Operation) []error {
	var errs []error
	for _, r := range op.Responses {
		status := gen.statusOf(op, r.Status)
		if status == http.StatusMethodNotAllowed || status == http.StatusUnsupportedMediaType {
			continue // written by methodNotAllowed and unsupportedType
		}
		// A default beside declared successes stands for the other
		// outcomes: its example's request must lead to one, so it is the
		// request broken in one place, answered 400 (or 422).
		defaultError := r.Status == "default" && anyDeclared(op, 200, 299)
		if defaultError {
			if status = defaultErrorStatus(op); status == 0 {
				continue
			}
		}
		medias := r.Content
		if len(medias) == 0 || status == http.StatusNoContent || status == http.StatusNotModified {
			medias = []*spec.MediaType{nil}
		}
		for _, m := range medias {
			key := opName(op) + " " + r.Status
			if m != nil {
				key += " " + m.Name
			}
			gen.forFile(key)
			x, err := gen.request(op)
			if err != nil {
				// Every example of the operation needs the request: one
				// error says it.
				gen.failed[op] = true
				return append(errs, fmt.Errorf("%s %s: %w", strings.ToUpper(op.Method), op.Path, err))
			}
			x.status = status
			broken := false
			switch {
			case status == http.StatusUnauthorized:
				x.dropCredentials()
			case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
				broken = gen.breakRequest(x)
			}
			if defaultError && !broken {
				break // no request of the operation leads to its default response
			}
			if err := gen.response(x, r, m, len(r.Content) > 1); err != nil {
				errs = append(errs, fmt.Errorf("%s %s, response %s: %w", strings.ToUpper(op.Method), op.Path, r.Status, err))
				continue
			}
			name := opName(op) + "_" + r.Status
			if len(r.Content) > 1 && m != nil {
				name += "_" + mediaSlug(m.Name)
			}
			gen.add(name, op, r.Status, x)
		}
	}
	return errs
}

// statusOf picks the status an example of a response key sends: the
// status itself, the first of a range, and for default a status nothing
// else declares (200 when no 2xx is declared, else 500 and up).
func (gen *generator) statusOf(op *spec.Operation, key string) int {
	if code, err := strconv.Atoi(key); err == nil {
		return code
	}
	declared := func(code int) bool { return gen.k.c.Response(op, code) != nil && !isDefaultFor(op, code) }
	if len(key) == 3 && strings.EqualFold(key[1:], "XX") {
		base := int(key[0]-'0') * 100
		for code := base; code < base+100; code++ {
			if contract.ExactResponse(op, code) == nil {
				return code
			}
		}
		return base
	}
	if !anyDeclared(op, 200, 299) {
		return http.StatusOK
	}
	for _, code := range []int{500, 502, 503, 504, 501, 418} {
		if !declared(code) {
			return code
		}
	}
	return 599
}

// defaultErrorStatus is the status of a default example beside declared
// successes: 400, else 422, whichever only default covers; 0 when the
// operation declares both otherwise.
func defaultErrorStatus(op *spec.Operation) int {
	for _, code := range []int{http.StatusBadRequest, http.StatusUnprocessableEntity} {
		if isDefaultFor(op, code) {
			return code
		}
	}
	return 0
}

// isDefaultFor reports whether only the default response covers a status.
func isDefaultFor(op *spec.Operation, code int) bool {
	for _, r := range op.Responses {
		if r.Status == strconv.Itoa(code) || len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "XX") && r.Status[0] == byte('0'+code/100) {
			return false
		}
	}
	return true
}

func anyDeclared(op *spec.Operation, lo, hi int) bool {
	for _, r := range op.Responses {
		if code, err := strconv.Atoi(r.Status); err == nil && code >= lo && code <= hi {
			return true
		}
		if len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "XX") && int(r.Status[0]-'0') == lo/100 {
			return true
		}
	}
	return false
}

// request generates a valid request of op: path parameters, required
// query parameters, headers and cookies, credentials, and a body.
func (gen *generator) request(op *spec.Operation) (*exchange, error) {
	k := gen.k
	x := &exchange{op: op, method: strings.ToUpper(op.Method), pathVal: map[string]any{}, query: map[string]any{}, headers: map[string]any{}, secret: map[string]bool{}}
	var cookies []string
	for _, p := range op.Parameters {
		if !p.Required && p.In != "path" {
			continue
		}
		switch strings.ToLower(p.Name) {
		case "accept", "content-type", "authorization":
			if p.In == "header" {
				continue
			}
		}
		v, err := k.paramValue(p, gen.g)
		if err != nil {
			return nil, err
		}
		switch p.In {
		case "path":
			x.pathVal[p.Name] = v
		case "query":
			x.query[p.Name] = v
		case "header":
			x.headers[p.Name] = v
		case "cookie":
			cookies = append(cookies, p.Name+"="+text(v))
		}
	}
	cookies = append(cookies, gen.credentials(x)...)
	if len(cookies) > 0 {
		x.headers["Cookie"] = strings.Join(cookies, "; ")
	}
	built, err := k.c.BuildRequest(op, contract.Values{Path: x.pathVal})
	if err != nil {
		return nil, err
	}
	x.path = built.Path
	if _, fixed, ok := strings.Cut(op.Path, "?"); ok && fixed != "" {
		// The query the path template writes (openai's ?beta=true) selects
		// the operation: it stays in the path, where no break touches it.
		x.path += "?" + fixed
	}
	if rb := op.RequestBody; rb != nil {
		if err := gen.requestBody(x, rb); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// requestBody generates the body of a request in its first JSON media
// type (else its first), or the fields of a Swagger form.
func (gen *generator) requestBody(x *exchange, rb *spec.RequestBody) error {
	if len(rb.FormData) > 0 {
		fields := map[string]any{}
		for _, p := range rb.FormData {
			if !p.Required {
				continue
			}
			if p.Schema != nil && p.Schema.GetStr("type") == "file" {
				fields[p.Name] = "file content"
				continue
			}
			v, err := gen.k.paramValue(p, gen.g)
			if err != nil {
				return err
			}
			fields[p.Name] = v
		}
		x.body, x.media = fields, "application/x-www-form-urlencoded"
		if names := requestTypes(x.op); len(names) > 0 {
			x.media = concreteType(names[0])
		}
		return nil
	}
	if len(rb.Content) == 0 {
		return nil
	}
	m := declaredMedia(rb.Content, firstJSON(requestTypes(x.op)))
	x.media = concreteType(m.Name)
	v, ok, err := gen.k.mediaValue(m, gen.g, schema.Request)
	switch {
	case err != nil:
		return fmt.Errorf("request body: %w", err)
	case !ok:
		v = ""
	}
	if isForm(x.media) {
		if _, isObject := v.(map[string]any); !isObject {
			v = map[string]any{} // a form is fields; a schema of any value allows none
		}
	}
	x.body = v
	if !isJSONType(x.media) && isScalar(v) {
		// A scalar body of another type is written as the text it travels
		// as (XML: an element).
		built, err := gen.k.c.BuildRequest(x.op, contract.Values{Path: x.pathVal, Body: v, MediaType: x.media})
		if err != nil {
			return fmt.Errorf("request body: %w", err)
		}
		x.body = string(built.Body)
	}
	return nil
}

// mediaValue is a value of a body of media type m: its own example (of
// example or of the first of examples) when its schema, if it has one,
// accepts it; else one generated from the schema. ok is false when m has
// neither.
func (k *Checker) mediaValue(m *spec.MediaType, g *schema.Generator, dir schema.Direction) (v any, ok bool, err error) {
	if ex, found := k.mediaExample(m); found {
		if m.Schema == nil {
			return ex, true, nil
		}
		if sc, err := k.schemas.Compile(m.Schema, m.SchemaSource); err == nil && len(sc.Validate(ex, dir)) == 0 {
			return ex, true, nil
		}
	}
	if m.Schema == nil {
		return nil, false, nil
	}
	v, err = k.generate(m.Schema, m.SchemaSource, g, dir)
	return v, err == nil, err
}

// mediaExample is the example a media type writes: example, else the
// value of the first of examples.
func (k *Checker) mediaExample(m *spec.MediaType) (any, bool) {
	n := k.doc.Deref(m.Node)
	if v := n.Get("example"); v != nil {
		return plainJSON(v), true
	}
	if exs := n.Get("examples"); exs != nil && exs.Kind == spec.Object {
		for _, f := range exs.Fields {
			if v := k.doc.Deref(f.Value).Get("value"); v != nil {
				return plainJSON(v), true
			}
		}
	}
	return nil, false
}

func isForm(mt string) bool {
	return strings.HasPrefix(mt, "application/x-www-form-urlencoded") || strings.HasPrefix(mt, "multipart/")
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any, nil:
		return false
	}
	return true
}

// concreteType is a media type a body can be sent as, for a declared one
// that may be a range.
func concreteType(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	base = strings.TrimSpace(base)
	switch {
	case base == "*/*" || base == "application/*":
		return "application/json"
	case base == "text/*":
		return "text/plain"
	case strings.HasSuffix(base, "/*"):
		return strings.TrimSuffix(base, "*") + "octet-stream"
	}
	return mt
}

// credentials writes the credentials of the operation's first security
// alternative as templates of environment variables named after the
// schemes, and returns the cookies among them.
func (gen *generator) credentials(x *exchange) []string {
	op := x.op
	if op.Security == nil || len(op.Security.Alternatives) == 0 {
		return nil
	}
	var cookies []string
	for _, ref := range op.Security.Alternatives[0].Schemes {
		s := gen.k.schemes[ref.Name]
		if s == nil {
			continue
		}
		env := envName(s.Name)
		switch strings.ToLower(s.Type) {
		case "http":
			switch strings.ToLower(s.Scheme) {
			case "basic":
				x.headers["Authorization"] = "Basic ${" + env + ":" + PlaceholderCredential(s) + "}"
			case "bearer":
				x.headers["Authorization"] = "Bearer ${" + env + ":" + PlaceholderCredential(s) + "}"
			default:
				x.headers["Authorization"] = s.Scheme + " ${" + env + ":" + PlaceholderCredential(s) + "}"
			}
			x.secret["Authorization"] = true
		case "oauth2", "openidconnect":
			x.headers["Authorization"] = "Bearer ${" + env + ":" + PlaceholderCredential(s) + "}"
			x.secret["Authorization"] = true
		case "apikey":
			key := "${" + env + ":" + PlaceholderCredential(s) + "}"
			switch s.In {
			case "header":
				x.headers[s.ParamName] = key
				x.secret[s.ParamName] = true
			case "query":
				x.query[s.ParamName] = key
				x.secret[s.ParamName] = true
			case "cookie":
				cookies = append(cookies, s.ParamName+"="+key)
			}
		}
	}
	return cookies
}

var envNameChars = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// envName is the environment variable that holds a scheme's credential:
// its name, as the tests read it, when it can name a variable.
func envName(scheme string) string {
	if envNameRE().MatchString(scheme) {
		return scheme
	}
	name := strings.Trim(envNameChars.ReplaceAllString(scheme, "_"), "_")
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "SCHEME_" + name
	}
	return name
}

// dropCredentials leaves the credentials out, for a 401 example.
func (x *exchange) dropCredentials() {
	for name := range x.secret {
		delete(x.headers, name)
		delete(x.query, name)
	}
	if c, ok := x.headers["Cookie"].(string); ok && strings.Contains(c, "${") {
		var keep []string
		for _, pair := range strings.Split(c, "; ") {
			if !strings.Contains(pair, "${") {
				keep = append(keep, pair)
			}
		}
		if len(keep) == 0 {
			delete(x.headers, "Cookie")
		} else {
			x.headers["Cookie"] = strings.Join(keep, "; ")
		}
	}
}

// breakRequest breaks a 400 or 422 example's request in one place: the
// first change, in a documented order, that the contract rejects; else it
// adds a query parameter the operation does not declare, and reports false.
func (gen *generator) breakRequest(x *exchange) bool {
	type change struct {
		apply, undo func()
	}
	var changes []change
	if obj, ok := x.body.(map[string]any); ok && x.media != "" {
		for _, key := range sortedKeys(obj) {
			v := obj[key]
			changes = append(changes, change{func() { delete(obj, key) }, func() { obj[key] = v }})
		}
		for _, key := range sortedKeys(obj) {
			v := obj[key]
			changes = append(changes, change{func() { obj[key] = []any{[]any{}} }, func() { obj[key] = v }})
		}
	}
	for _, key := range sortedKeys(x.query) {
		if x.secret[key] {
			continue
		}
		v := x.query[key]
		changes = append(changes,
			change{func() { delete(x.query, key) }, func() { x.query[key] = v }},
			change{func() { x.query[key] = "specgate-invalid" }, func() { x.query[key] = v }})
	}
	for _, key := range sortedKeys(x.headers) {
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

// response generates the response of an exchange for a declared response
// and one of its media types (nil when it declares none).
func (gen *generator) response(x *exchange, r *spec.Response, m *spec.MediaType, several bool) error {
	x.respHeaders = map[string]any{}
	for _, h := range r.Headers {
		if !h.Required || strings.EqualFold(h.Name, "Content-Type") {
			continue
		}
		v, err := gen.k.generate(h.Schema, h.SchemaSource, gen.g, schema.Response)
		if err != nil {
			return fmt.Errorf("header %s: %w", h.Name, err)
		}
		x.respHeaders[h.Name] = v
	}
	if m == nil {
		return nil
	}
	x.respMedia = concreteType(m.Name)
	x.respHeaders["Content-Type"] = x.respMedia
	if several && !strings.Contains(m.Name, "*") {
		x.headers["Accept"] = x.respMedia
	}
	v, ok, err := gen.k.mediaValue(m, gen.g, schema.Response)
	switch {
	case err != nil:
		return err
	case !ok:
		v = "content"
	}
	x.respBody = v
	if !isJSONType(x.respMedia) && isScalar(v) {
		// A scalar body of another type is written as the text it travels
		// as (XML: an element), as the contract encodes it.
		data, _, err := gen.k.c.EncodeResponse(x.op, x.status, x.respMedia, v)
		if err != nil {
			return err
		}
		x.respBody = string(data)
	}
	return nil
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

// explicitResponse is the response an operation declares for a status by
// the status itself or its range, not by default.
func explicitResponse(op *spec.Operation, code int) *spec.Response {
	var ranged *spec.Response
	for _, r := range op.Responses {
		if r.Status == strconv.Itoa(code) {
			return r
		}
		if len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "XX") && r.Status[0] == byte('0'+code/100) {
			ranged = r
		}
	}
	return ranged
}

func firstMedia(r *spec.Response) *spec.MediaType {
	if len(r.Content) == 0 {
		return nil
	}
	return declaredMedia(r.Content, firstJSON(mediaNames(r)))
}

// add writes an exchange as an example file named name (made unique).
func (gen *generator) add(name string, op *spec.Operation, status string, x *exchange) {
	base := name
	for i := 2; gen.names[strings.ToLower(name)]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	gen.names[strings.ToLower(name)] = true
	gen.files = append(gen.files, GeneratedFile{Name: name + ".json", Op: op, Status: status, MediaType: x.respMedia, Data: x.file()})
}

// file writes the exchange in the example format, keys in the order a
// reader expects them.
func (x *exchange) file() []byte {
	req := orderedMap{{"method", x.method}, {"path", x.path}}
	if len(x.query) > 0 {
		req = append(req, kv{"query", x.query})
	}
	headers := map[string]any{}
	for k, v := range x.headers {
		headers[k] = headerText(v)
	}
	if x.media != "" {
		headers["Content-Type"] = x.media
	}
	if len(headers) > 0 {
		req = append(req, kv{"headers", headers})
	}
	if x.media != "" {
		obj, isObject := x.body.(map[string]any)
		switch {
		case isObject && strings.HasPrefix(x.media, "application/x-www-form-urlencoded"):
			req = append(req, kv{"form-fields", obj})
		case isObject && strings.HasPrefix(x.media, "multipart/"):
			parts := []any{}
			for _, name := range sortedKeys(obj) {
				parts = append(parts, orderedMap{{"name", name}, {"content", obj[name]}})
			}
			req = append(req, kv{"multipart-formdata", parts})
		default:
			req = append(req, kv{"body", x.body})
		}
	}
	resp := orderedMap{{"status", x.status}}
	if len(x.respHeaders) > 0 {
		h := map[string]any{}
		for k, v := range x.respHeaders {
			h[k] = headerText(v)
		}
		resp = append(resp, kv{"headers", h})
	}
	if x.respMedia != "" {
		resp = append(resp, kv{"body", x.respBody})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(orderedMap{{"http-request", req}, {"http-response", resp}}); err != nil {
		panic(err) // generated values are JSON values
	}
	return b.Bytes()
}

// headerText writes a header's value as an example holds it: a scalar as
// it is, a structure as the text the parameter's style would give.
func headerText(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		return text(v)
	}
	return v
}

// kv and orderedMap write a JSON object with its keys in order.
type kv struct {
	key string
	val any
}

type orderedMap []kv

func (m orderedMap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(e.key)
		b.Write(key)
		b.WriteByte(':')
		var vb bytes.Buffer
		enc := json.NewEncoder(&vb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e.val); err != nil {
			return nil, err
		}
		b.Write(bytes.TrimSuffix(vb.Bytes(), []byte("\n")))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var slugChars = regexp.MustCompile(`[^A-Za-z0-9_.+-]+`)

// opName names an operation in file names: its operationId, else its
// method and path.
func opName(op *spec.Operation) string {
	if op.OperationID != "" {
		if s := strings.Trim(slugChars.ReplaceAllString(op.OperationID, "_"), "_."); s != "" {
			return s
		}
	}
	return op.Method + "_" + pathSlug(op.Path)
}

// pathSlug writes a path template for a file name: /pets/{petId} is
// pets_petId.
func pathSlug(path string) string {
	s := strings.Trim(slugChars.ReplaceAllString(strings.NewReplacer("{", "", "}", "").Replace(path), "_"), "_.")
	if s == "" {
		return "root"
	}
	return s
}

// mediaSlug writes a media type for a file name: application/xml is xml.
func mediaSlug(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	_, sub, _ := strings.Cut(strings.TrimSpace(base), "/")
	if sub == "" || sub == "*" {
		sub = strings.ReplaceAll(base, "*", "any")
	}
	return strings.Trim(slugChars.ReplaceAllString(strings.ReplaceAll(sub, "*", "any"), "_"), "_.")
}

// WriteFiles writes generated files into dir (made when missing), never
// over an existing file: those are returned as skipped, with their paths.
func WriteFiles(dir string, files []GeneratedFile) (written, skipped []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			skipped = append(skipped, path)
			continue
		}
		if err != nil {
			return written, skipped, err
		}
		_, werr := file.Write(f.Data)
		if cerr := file.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return written, skipped, werr
		}
		written = append(written, path)
	}
	sort.Strings(written)
	sort.Strings(skipped)
	return written, skipped, nil
}
