package examples

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// FixResult is what Fix did to one example file.
type FixResult struct {
	File string
	// Before and After are the file's text; After equals Before when
	// nothing was repaired.
	Before, After []byte
	// Fixed are the findings the repairs removed, Left those no repair
	// removes (an operation that does not exist, an undeclared status, the
	// method of a 405 example, …), as found after the repairs.
	Fixed, Left []Finding
}

// Changed reports whether the fix changed the file.
func (r *FixResult) Changed() bool { return string(r.Before) != string(r.After) }

// maxFixRounds bounds the rounds of repairs: each round repairs what the
// last check found, and a repaired value may reveal another problem (a
// property added to an object that the object's schema then limits).
const maxFixRounds = 8

// FixFile repairs an example file; see Fix. defaultName names the example
// when it has no name key ("" for its file name).
func (k *Checker) FixFile(path, defaultName string, opts Options, g *schema.Generator) (*FixResult, error) {
	data, rerr := readLimited(path, opts.limits().MaxFileSize)
	if rerr != nil {
		return nil, Errors{rerr}
	}
	return k.Fix(path, data, defaultName, opts, g)
}

// Fix repairs the example in data (the text of the file name) with the
// smallest changes that make it valid, round after round until a check
// finds nothing a repair can change; docs/examples.md ("Fixing examples")
// lists the repairs. What is valid is kept as written, notations included:
// a JSON file keeps its bytes outside the repaired values, a YAML file is
// rewritten through yaml.v3 nodes with its comments, key order and
// indentation. Values are drawn from g. The error is an Errors when the
// file is not an example.
func (k *Checker) Fix(name string, data []byte, defaultName string, opts Options, g *schema.Generator) (*FixResult, error) {
	if defaultName == "" {
		base := filepath.Base(name)
		defaultName = strings.TrimSuffix(base, filepath.Ext(base))
	}
	res := &FixResult{File: name, Before: data, After: data}
	var first []Finding
	for round := 0; ; round++ {
		ex, err := parse(name, res.After, defaultName, opts)
		if err != nil {
			if round == 0 {
				return nil, err
			}
			return nil, fmt.Errorf("%s: a repair made the example unreadable: %w", name, err)
		}
		found := k.Check(ex)
		if round == 0 {
			first = found
		}
		res.Left = found
		if len(found) == 0 || round == maxFixRounds {
			break
		}
		root, err := spec.Parse(name, res.After, opts.limits())
		if err != nil {
			return nil, err
		}
		edits := k.repairs(ex, root, found, g)
		if len(edits) == 0 {
			break
		}
		next, err := applyEdits(name, res.After, edits)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if string(next) == string(res.After) {
			break
		}
		res.After = next
	}
	for _, f := range first {
		if !slices.ContainsFunc(res.Left, func(l Finding) bool { return l.Code == f.Code && l.Path == f.Path }) {
			res.Fixed = append(res.Fixed, f)
		}
	}
	return res, nil
}

// WriteFix writes a fixed file when the fix changed it.
func WriteFix(r *FixResult) error {
	if !r.Changed() {
		return nil
	}
	st, err := os.Stat(r.File)
	if err != nil {
		return err
	}
	return os.WriteFile(r.File, r.After, st.Mode().Perm())
}

// fixer plans the repairs of one round.
type fixer struct {
	k     *Checker
	ex    *Example
	root  *spec.Node // the file as it is now
	g     *schema.Generator
	edits []edit
	op    *spec.Operation
	base  []any
	// request records that the request's missing parts were completed.
	request bool
}

// repairs plans one round of repairs for the findings of an example.
func (k *Checker) repairs(ex *Example, root *spec.Node, found []Finding, g *schema.Generator) []edit {
	fx := &fixer{k: k, ex: ex, root: root, g: g}
	if ex.Partial {
		fx.base = []any{"partial"}
	}
	if t := k.Route(ex); t.Status == 0 {
		fx.op = t.Op
	}
	for _, f := range found {
		fx.repair(f)
	}
	return fx.edits
}

func (fx *fixer) add(e edit) { fx.edits = append(fx.edits, e) }

// current is the plain value of the file at segs.
func (fx *fixer) current(segs []any) (any, bool) {
	n := nodeAt(fx.root, segs)
	if n == nil {
		return nil, false
	}
	return schema.JSONValue(n), true
}

func (fx *fixer) reqSegs(more ...any) []any {
	return with(with(fx.base, "http-request"), more...)
}

func (fx *fixer) respSegs(more ...any) []any {
	return with(with(fx.base, "http-response"), more...)
}

func (fx *fixer) repair(f Finding) {
	switch f.Code {
	case CodeBodyInvalid, CodeParamInvalid:
		fx.value(f)
	case CodeSecurityInvalid:
		fx.credential(f)
	case CodeParamUndeclared:
		fx.dropQuery(f)
	case CodeContentType:
		fx.contentType(f)
	}
}

// value repairs a value that breaks its schema.
func (fx *fixer) value(f Finding) {
	if len(f.segs) > 0 && f.segs[len(f.segs)-1] == "path" && fx.isRequestPart(f.segs, "path") {
		fx.pathValue(f)
		return
	}
	switch f.keyword {
	case "undeclared":
		fx.add(edit{kind: editRemove, segs: f.segs})
	case "additionalProperties", "properties", "false", "unevaluatedProperties":
		if _, isKey := f.segs[len(f.segs)-1].(string); isKey {
			fx.add(edit{kind: editRemove, segs: f.segs})
		}
	case "required":
		fx.required(f)
	case "type":
		cur, ok := fx.current(f.segs)
		if !ok {
			return
		}
		want := wantedTypes(subschema(f.rule, "type"))
		if s, isString := cur.(string); isString && isTypeNotation(s) {
			if fixed := retype(s, want); fixed != "" {
				fx.add(edit{kind: editSet, segs: f.segs, value: fixed})
			}
			return
		}
		if v, ok := coerce(cur, want); ok {
			fx.add(edit{kind: editSet, segs: f.segs, value: v})
			return
		}
		fx.replace(f)
	default:
		fx.replace(f)
	}
}

// isRequestPart reports whether segs is the request's part named part.
func (fx *fixer) isRequestPart(segs []any, part string) bool {
	want := fx.reqSegs(part)
	return len(segs) == len(want) && hasPrefix(segs, want)
}

// replace sets the failing value to a generated value of the schema that
// holds the failing keyword.
func (fx *fixer) replace(f Finding) {
	sub := subschema(f.rule, f.keyword)
	if sub == nil {
		return
	}
	dir := f.dir
	if dir == 0 {
		dir = schema.Request
	}
	v, err := fx.k.generate(sub, nil, fx.g, dir)
	if err != nil {
		return
	}
	fx.add(edit{kind: editSet, segs: f.segs, value: v})
}

// required adds what a finding says is missing: a property of an object,
// or the request's required parameters and body.
func (fx *fixer) required(f Finding) {
	if n := nodeAt(fx.root, f.segs); n != nil && n.Kind == spec.Object && !fx.isRequest(f.segs) && !fx.isRequestPart(f.segs, "query") {
		name := missingProperty(schema.Problem{Schema: f.rule, Message: f.Message})
		if name == "" || n.Get(name) != nil {
			return
		}
		dir := f.dir
		if dir == 0 {
			dir = schema.Request
		}
		v, err := fx.k.propertyValue(f.rule, name, fx.g, dir)
		if err != nil {
			return
		}
		fx.add(edit{kind: editAdd, segs: f.segs, key: name, value: v})
		return
	}
	fx.completeRequest()
}

func (fx *fixer) isRequest(segs []any) bool {
	want := fx.reqSegs()
	return len(segs) == len(want) && hasPrefix(segs, want)
}

// completeRequest adds the required query parameters, headers and body
// the request leaves out, once a round.
func (fx *fixer) completeRequest() {
	if fx.request || fx.op == nil {
		return
	}
	fx.request = true
	req := fx.ex.Request
	query, headers := map[string]any{}, map[string]any{}
	for _, p := range fx.op.Parameters {
		if !p.Required {
			continue
		}
		switch {
		case p.In == "query" && findParam(req.Query, p.Name) == nil:
			if v, err := fx.k.paramValue(p, fx.g); err == nil {
				query[p.Name] = v
			}
		case p.In == "header" && req.Header(p.Name) == nil:
			switch strings.ToLower(p.Name) {
			case "accept", "content-type", "authorization":
				continue
			}
			if v, err := fx.k.paramValue(p, fx.g); err == nil {
				headers[p.Name] = headerText(v)
			}
		}
	}
	if rb := fx.op.RequestBody; rb != nil && rb.Required && len(rb.Content) > 0 && req.Body == nil && req.FormFields == nil && req.Multipart == nil {
		ct := req.ContentType
		if ct == "" {
			ct = firstJSON(requestTypes(fx.op))
		}
		if m := declaredMedia(rb.Content, ct); m != nil && m.Schema != nil {
			if v, err := fx.k.generate(m.Schema, m.SchemaSource, fx.g, schema.Request); err == nil {
				fx.add(edit{kind: editAdd, segs: fx.reqSegs(), key: "body", value: v})
				if req.Header("Content-Type") == nil {
					headers["Content-Type"] = concreteType(m.Name)
				}
			}
		}
	}
	fx.addAll("query", query)
	fx.addAll("headers", headers)
}

// addAll adds members to an object of the request, writing the object
// when it has none.
func (fx *fixer) addAll(object string, members map[string]any) {
	if len(members) == 0 {
		return
	}
	segs := fx.reqSegs(object)
	if n := nodeAt(fx.root, segs); n == nil {
		fx.add(edit{kind: editAdd, segs: fx.reqSegs(), key: object, value: members})
		return
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		fx.add(edit{kind: editAdd, segs: segs, key: k, value: members[k]})
	}
}

// pathValue repairs a path parameter, or a query parameter written in the
// path's query string, by rewriting the path.
func (fx *fixer) pathValue(f Finding) {
	cur, ok := fx.current(f.segs)
	path, isString := cur.(string)
	if !ok || !isString || fx.op == nil {
		return
	}
	p, q, hasQuery := strings.Cut(path, "?")
	if f.in == contract.InPath {
		t := fx.k.Route(fx.ex)
		if t.Route == nil {
			return
		}
		for _, pp := range t.Route.PathParams {
			if pp.Name != f.param {
				continue
			}
			for _, sp := range fx.op.Parameters {
				if sp.In == "path" && sp.Name == pp.Name {
					v, err := fx.k.paramValue(sp, fx.g)
					if err != nil {
						return
					}
					fixed := strings.Replace(p, "/"+pp.Raw, "/"+url.PathEscape(contract.InlineText(v)), 1)
					if hasQuery {
						fixed += "?" + q
					}
					fx.add(edit{kind: editSet, segs: f.segs, value: fixed})
					return
				}
			}
		}
		return
	}
	if !hasQuery {
		return
	}
	for _, sp := range fx.op.Parameters {
		if f.in != contract.InQuery || sp.In != "query" || !keyOf(f.param, sp.Name) {
			continue
		}
		v, err := fx.k.paramValue(sp, fx.g)
		if err != nil {
			return
		}
		fx.add(edit{kind: editSet, segs: f.segs, value: p + "?" + setQuery(q, sp.Name, contract.InlineText(v))})
		return
	}
}

// setQuery replaces the value of a name in a query string (or drops the
// name when value is nil).
func setQuery(q, name string, value ...string) string {
	var out []string
	done := false
	for _, pair := range strings.Split(q, "&") {
		raw, _, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(raw); err == nil && n == name {
			if len(value) > 0 && !done {
				out = append(out, raw+"="+url.QueryEscape(value[0]))
				done = true
			}
			continue
		}
		if pair != "" {
			out = append(out, pair)
		}
	}
	return strings.Join(out, "&")
}

// dropQuery drops a query parameter the operation does not declare.
func (fx *fixer) dropQuery(f Finding) {
	if fx.ex.Kind() == BadRequest {
		return
	}
	if !fx.isRequestPart(f.segs, "path") {
		fx.add(edit{kind: editRemove, segs: f.segs})
		return
	}
	cur, _ := fx.current(f.segs)
	path, _ := cur.(string)
	p, q, ok := strings.Cut(path, "?")
	name := quoted(f.Message, "query parameter ")
	if !ok || name == "" {
		return
	}
	if q = setQuery(q, name); q != "" {
		p += "?" + q
	}
	fx.add(edit{kind: editSet, segs: f.segs, value: p})
}

// quoted reads the quoted name after prefix in a message.
func quoted(msg, prefix string) string {
	i := strings.Index(msg, prefix)
	if i < 0 {
		return ""
	}
	rest := msg[i+len(prefix):]
	if len(rest) == 0 || rest[0] != '"' {
		return ""
	}
	end := strings.IndexByte(rest[1:], '"')
	if end < 0 {
		return ""
	}
	s, err := strconv.Unquote(rest[:end+2])
	if err != nil {
		return ""
	}
	return s
}

// credential repairs a credential of the wrong form, keeping its token.
func (fx *fixer) credential(f Finding) {
	cur, ok := fx.current(f.segs)
	value, isString := cur.(string)
	if !ok || fx.op == nil {
		return
	}
	if fx.isRequestPart(f.segs, "path") {
		p, q, _ := strings.Cut(value, "?")
		for _, s := range fx.k.opSchemes(fx.op) {
			if strings.EqualFold(s.Type, "apiKey") && s.In == "query" {
				fx.add(edit{kind: editSet, segs: f.segs, value: p + "?" + setQuery(q, s.ParamName, "${"+envName(s.Name)+":specgate-api-key}")})
				return
			}
		}
		return
	}
	if !isString || strings.TrimSpace(value) == "" {
		for _, s := range fx.k.opSchemes(fx.op) {
			if strings.EqualFold(s.Type, "apiKey") {
				fx.add(edit{kind: editSet, segs: f.segs, value: "${" + envName(s.Name) + ":specgate-api-key}"})
				return
			}
		}
		return
	}
	for _, s := range fx.k.opSchemes(fx.op) {
		switch strings.ToLower(s.Type) {
		case "http", "oauth2", "openidconnect":
			fx.add(edit{kind: editSet, segs: f.segs, value: repairCredential(s, value)})
			return
		}
	}
}

// repairCredential rewrites an Authorization value in the form a scheme
// takes, keeping the credential it carries.
func repairCredential(s *spec.SecurityScheme, value string) string {
	word, rest, spaced := strings.Cut(strings.TrimSpace(value), " ")
	rest = strings.TrimSpace(rest)
	env := envName(s.Name)
	scheme := strings.ToLower(s.Scheme)
	if !strings.EqualFold(s.Type, "http") {
		scheme = "bearer"
	}
	switch scheme {
	case "basic":
		cred := rest
		if !spaced || !strings.EqualFold(word, "basic") && strings.Contains(word, ":") {
			cred = strings.TrimSpace(value)
		}
		if strings.Contains(cred, ":") && !strings.Contains(cred, "$(") && !strings.Contains(cred, "${") {
			return "Basic " + base64.StdEncoding.EncodeToString([]byte(cred))
		}
		return "Basic ${" + env + ":" + PlaceholderCredential(s) + "}"
	case "bearer":
		token := rest
		if !spaced {
			token = word
			if strings.EqualFold(word, "bearer") {
				token = ""
			}
		}
		if token == "" {
			token = "${" + env + ":" + PlaceholderCredential(s) + "}"
		}
		return "Bearer " + token
	}
	if !spaced {
		return s.Scheme + " " + word
	}
	return s.Scheme + " " + rest
}

// contentType repairs a Content-Type the operation does not take, a
// response Content-Type its status does not declare, or an Accept header
// the operation cannot answer.
func (fx *fixer) contentType(f Finding) {
	if fx.op == nil || len(f.segs) < 2 || f.segs[len(f.segs)-2] != "headers" {
		return
	}
	header, _ := f.segs[len(f.segs)-1].(string)
	if hasPrefix(f.segs, fx.respSegs()) {
		resp := fx.ex.Response
		if resp == nil {
			return
		}
		declared := fx.k.c.Response(fx.op, resp.Status)
		if declared == nil || len(declared.Content) == 0 {
			return
		}
		body, _ := fx.current(fx.respSegs("body"))
		fx.add(edit{kind: editSet, segs: f.segs, value: concreteType(responseType(declared, body))})
		return
	}
	if fx.ex.Kind() == UnsupportedMediaType {
		return
	}
	switch {
	case strings.EqualFold(header, "Accept"):
		var offered []string
		for _, r := range fx.op.Responses {
			for _, m := range r.Content {
				if !slices.Contains(offered, m.Name) {
					offered = append(offered, m.Name)
				}
			}
		}
		if len(offered) > 0 {
			fx.add(edit{kind: editSet, segs: f.segs, value: concreteType(firstJSON(offered))})
		}
	case strings.EqualFold(header, "Content-Type"):
		names := requestTypes(fx.op)
		if len(names) == 0 {
			return
		}
		body, _ := fx.current(fx.reqSegs("body"))
		ct := firstJSON(names)
		if _, isString := body.(string); isString {
			for _, n := range names {
				if strings.HasPrefix(n, "text/") {
					ct = n
					break
				}
			}
		}
		fx.add(edit{kind: editSet, segs: f.segs, value: concreteType(ct)})
	}
}

// wantedTypes lists the JSON types a schema's type keyword names.
func wantedTypes(sub *spec.Node) []string {
	t := sub.Get("type")
	switch {
	case t == nil:
		return nil
	case t.Kind == spec.String:
		return []string{t.Value}
	case t.Kind == spec.Array:
		var out []string
		for _, it := range t.Items {
			out = append(out, it.Value)
		}
		return out
	}
	return nil
}

// coerce converts a scalar whose text reads as one of the wanted types:
// "5" to 5, "true" to true, 5 to "5".
func coerce(v any, want []string) (any, bool) {
	s, isString := v.(string)
	for _, t := range want {
		switch t {
		case "integer":
			if isString {
				if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
					return json.Number(strconv.FormatInt(n, 10)), true
				}
			}
		case "number":
			if isString {
				if t := strings.TrimSpace(s); json.Valid([]byte(t)) && t != "" && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') {
					return json.Number(t), true
				}
			}
		case "boolean":
			if isString {
				switch strings.ToLower(strings.TrimSpace(s)) {
				case "true":
					return true, true
				case "false":
					return false, true
				}
			}
		case "string":
			switch v.(type) {
			case bool, nil:
				if v != nil {
					return contract.InlineText(v), true
				}
			case map[string]any, []any, string:
			default:
				return contract.InlineText(v), true
			}
		}
	}
	return nil, false
}

var typeNotationRE = regexp.MustCompile(`^\((?:([A-Za-z_][A-Za-z0-9_-]*):)?([a-z-]+)\)$|^\$match\(.*dataType:\s*([a-z-]+)`)

func isTypeNotation(s string) bool { return typeNotationRE.MatchString(s) }

// retype rewrites a placeholder, a capture or a dataType matcher for the
// first type a schema wants; "" when none is known.
func retype(s string, want []string) string {
	t := ""
	for _, w := range want {
		if w != "null" {
			t = w
			break
		}
	}
	if t == "" {
		return ""
	}
	m := typeNotationRE.FindStringSubmatchIndex(s)
	switch {
	case m == nil:
		return ""
	case m[4] >= 0:
		return s[:m[4]] + t + s[m[5]:]
	case m[6] >= 0:
		return s[:m[6]] + t + s[m[7]:]
	}
	return ""
}

// keyOf tells whether a serialized key (ids, filter[status]) is written for
// the parameter name.
func keyOf(key, name string) bool {
	return key == name || strings.HasPrefix(key, name+"[") || strings.HasPrefix(key, name+".")
}
