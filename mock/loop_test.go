package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// The loop: the mock serves a spec, and a client built on the same
// contract package sends every operation a valid request (generated from
// the schemas, serialized by the contract's request builder, with
// credentials for its security) and checks every answer with
// contract.CheckResponse. A valid request must never be refused, answered
// with a 5xx, or answered with a response that breaks the spec: either
// would be a bug of the mock or of the contract, in one direction or the
// other.
//
// The small corpus specs and this package's fixtures (every parameter
// style, path template shape, media type, composition, discriminator,
// nullable, formats and constraints) run always; the large corpus specs
// run every eighth operation, and all of them with SPECGATE_LOOP=1.

const corpusDir = "../../shared/corpus"

func TestLoop(t *testing.T) {
	all := os.Getenv("SPECGATE_LOOP") == "1"
	large := 8
	if all {
		large = 1
	}
	specs := []struct {
		path  string
		every int
	}{
		{"testdata/loop/styles.yaml", 1},
		{"testdata/loop/bodies.yaml", 1},
		{"testdata/loop/openapi31.yaml", 1},
		{"testdata/loop/swagger.yaml", 1},
		{"testdata/pets.yaml", 1},
		{"testdata/shop.yaml", 1},
		{"testdata/aws.yaml", 1},
		{corpusDir + "/petstore-expanded.yaml", 1},
		{corpusDir + "/petstore-separate-v2/spec/swagger.yaml", 1},
		{corpusDir + "/uspto.yaml", 1},
		{corpusDir + "/uber-v2.json", 1},
		{corpusDir + "/discord.json", large},
		{corpusDir + "/openai.yaml", large},
		{corpusDir + "/twilio-api-v2010.json", large},
		{corpusDir + "/stripe.yaml", large},
		{corpusDir + "/kubernetes.json", large},
		{corpusDir + "/github.json", large},
	}
	for _, stateful := range []bool{false, true} {
		for _, sp := range specs {
			name := filepath.Base(sp.path)
			if stateful {
				name = "stateful/" + name
			}
			t.Run(name, func(t *testing.T) {
				if _, err := os.Stat(sp.path); err != nil {
					t.Skipf("no %s: %v", sp.path, err)
				}
				if testing.Short() && strings.HasPrefix(sp.path, corpusDir) && sp.every > 1 {
					t.Skip("a large corpus spec, with -short")
				}
				runLoop(t, sp.path, sp.every, stateful)
			})
		}
	}
}

// loopClient is the client side of the loop.
type loopClient struct {
	c     *contract.Contract
	doc   *spec.Document
	set   *schema.Set
	creds map[string]string
}

func newLoopClient(t *testing.T, path string, load spec.Options) *loopClient {
	doc, err := spec.NewLoader(load).Load(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	set := schema.NewSet(doc)
	c, err := contract.New(doc, set, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	creds := map[string]string{}
	for _, sc := range doc.Views().SecuritySchemes {
		switch {
		case sc.Type == "http" && strings.EqualFold(sc.Scheme, "basic"), sc.Type == "basic":
			creds[sc.Name] = "user:secret"
		default:
			creds[sc.Name] = "specgate-token"
		}
	}
	return &loopClient{c: c, doc: doc, set: set, creds: creds}
}

// runLoop runs the loop over one spec. The stateful mock may also answer
// a request for an id its store does not hold with a 404 problem, a
// create of a natural key it holds with a 409, and a list whose stored
// resources were created through another path of the same collection
// with another schema with a 500 state-invalid (real specs reuse a last
// segment, GitHub's "labels", for different things): valid requests,
// answered as its documentation says.
func runLoop(t *testing.T, path string, every int, stateful bool) {
	began := time.Now()
	// A spec split over folders reads the tree above its own.
	load := spec.Options{RefRoot: filepath.Dir(filepath.Dir(path))}
	m := start(t, Options{Specs: []SpecSource{{Path: path}}, Load: load, Stateful: stateful})
	cl := newLoopClient(t, path, load)
	client := &http.Client{Timeout: 30 * time.Second}
	var sent, skipped, stateAnswers, refusals int
	var failures []string
	for i, op := range cl.c.Operations() {
		if i%every != 0 {
			continue
		}
		what := strings.ToUpper(op.Method) + " " + op.Path
		accepts := []string{""}
		if resp, _ := lowestSuccess(op); resp != nil && len(resp.Content) > 0 {
			accepts = mediaNames(resp.Content)
		}
		for i, accept := range accepts {
			built, why := cl.request(op, accept)
			if built == nil {
				skipped++
				t.Logf("%s: skipped: %s", what, why)
				break
			}
			if i == 0 {
				n, fails := cl.refusals(client, m.url, op, built)
				refusals += n
				failures = append(failures, fails...)
			}
			req, err := built.HTTPRequest(context.Background(), m.url+cl.c.Prefix(op))
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			resp, body, err := exchange(client, req)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%s: %v", what, err))
				continue
			}
			sent++
			if accept != "" {
				what = fmt.Sprintf("%s %s (Accept: %s)", strings.ToUpper(op.Method), op.Path, accept)
			}
			switch {
			case stateful && resp.Header.Get("Content-Type") == "application/problem+json" &&
				(resp.StatusCode == 404 || resp.StatusCode == 409 || resp.StatusCode == 500 && strings.Contains(string(body), "#"+kindStateInvalid)):
				stateAnswers++
			case resp.StatusCode >= 500:
				failures = append(failures, fmt.Sprintf("%s: %d %s", what, resp.StatusCode, clip(body)))
			case resp.Header.Get("Content-Type") == "application/problem+json":
				failures = append(failures, fmt.Sprintf("%s: a valid request was refused (%s %s): %d %s", what, built.Method, built.URL(""), resp.StatusCode, clip(body)))
			default:
				probs := cl.c.CheckResponse(op, &contract.Response{Status: resp.StatusCode, Header: resp.Header, Body: body, Method: built.Method})
				for _, p := range probs {
					failures = append(failures, fmt.Sprintf("%s: %d answer breaks the contract: %s (body %s)", what, resp.StatusCode, p, clip(body)))
				}
			}
		}
	}
	for i, f := range failures {
		if i == 30 {
			t.Errorf("… and %d more", len(failures)-i)
			break
		}
		t.Error(f)
	}
	t.Logf("%s: %d requests and %d refusals, %d skipped (no valid request can be written), %d failures, %d 404/409/state-invalid answers of the store, in %s",
		path, sent, refusals, skipped, len(failures), stateAnswers, time.Since(began).Round(time.Millisecond))
	if sent == 0 {
		t.Errorf("no request was sent")
	}
}

// mutant is a request that breaks its operation's contract in one place.
type mutant struct {
	name string
	req  *contract.BuiltRequest
}

// mutants are requests of op made from its valid request built, each
// broken in one place: no credentials, an Accept the operation cannot
// answer, a Content-Type it does not take, no body, a body of another
// type, a required query parameter or header left out, a method the path
// does not declare.
func (cl *loopClient) mutants(op *spec.Operation, built *contract.BuiltRequest) []mutant {
	clone := func() *contract.BuiltRequest {
		c := *built
		c.Header = built.Header.Clone()
		return &c
	}
	var out []mutant
	if op.Security != nil && len(op.Security.Alternatives) > 0 {
		if r, _ := cl.build(op, "", false); r != nil {
			out = append(out, mutant{"no credentials", r})
		}
	}
	r := clone()
	r.Header.Set("Accept", "application/x-specgate-none")
	out = append(out, mutant{"an Accept it cannot answer", r})
	if op.RequestBody != nil && len(op.RequestBody.Content) > 0 {
		r = clone()
		r.Header.Set("Content-Type", "application/x-specgate-none")
		r.Body = []byte("specgate")
		out = append(out, mutant{"an unsupported Content-Type", r})
		r = clone()
		r.Header.Del("Content-Type")
		r.Body = nil
		out = append(out, mutant{"no body", r})
		if isJSON(built.MediaType) {
			r = clone()
			r.Body = []byte(`"specgate"`)
			out = append(out, mutant{"a string body", r})
		}
	}
	for _, p := range op.Parameters {
		if !p.Required {
			continue
		}
		switch p.In {
		case "query":
			q, err := url.ParseQuery(built.RawQuery)
			if err != nil {
				continue
			}
			q.Del(p.Name)
			r = clone()
			r.RawQuery = q.Encode()
			out = append(out, mutant{"no query parameter " + p.Name, r})
		case "header":
			if strings.EqualFold(p.Name, "Accept") || strings.EqualFold(p.Name, "Content-Type") || strings.EqualFold(p.Name, "Authorization") {
				continue
			}
			r = clone()
			r.Header.Del(p.Name)
			out = append(out, mutant{"no header " + p.Name, r})
		default:
			continue
		}
		break
	}
	prefix := cl.c.Prefix(op)
	for _, m := range []string{"PUT", "POST", "DELETE", "PATCH", "GET"} {
		if _, err := cl.c.Route(m, strings.TrimRight(prefix, "/")+built.Path); isMethodNotAllowed(err) {
			r = clone()
			r.Method, r.Body = m, nil
			r.Header.Del("Content-Type")
			out = append(out, mutant{"the undeclared method " + m, r})
			break
		}
	}
	return out
}

// refusals sends op's mutants that the contract refuses and judges the
// answers: the status the contract calls for (an error example may answer
// a 400 with 422, a 401 with 403), and an answer valid against the
// response the operation declares for it (a 405, against the 405 that an
// operation of the path declares by its code), or a problem where it
// declares none.
func (cl *loopClient) refusals(client *http.Client, base string, op *spec.Operation, built *contract.BuiltRequest) (int, []string) {
	prefix := cl.c.Prefix(op)
	var failures []string
	sent := 0
	for _, mu := range cl.mutants(op, built) {
		res := cl.c.CheckRequest(mu.req.Request(prefix))
		if res.OK() {
			continue
		}
		req, err := mu.req.HTTPRequest(context.Background(), base+prefix)
		if err != nil {
			continue
		}
		what := fmt.Sprintf("%s %s with %s", strings.ToUpper(op.Method), op.Path, mu.name)
		resp, body, err := exchange(client, req)
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", what, err))
			continue
		}
		sent++
		got, want := resp.StatusCode, res.Status
		invalid := func(st int) bool { return st == 400 || st == 422 }
		if got != want && !(invalid(want) && invalid(got)) && !(want == 401 && got == 403) {
			failures = append(failures, fmt.Sprintf("%s: %d, want %d (%s): %s", what, got, want, res.Problems[0].Message, clip(body)))
			continue
		}
		declaredBy := op
		if got == http.StatusMethodNotAllowed {
			declaredBy = nil
			for _, m := range res.Allow {
				if rt, err := cl.c.Route(m, strings.TrimRight(prefix, "/")+built.Path); err == nil && declaredResponse(rt.Op, "405") != nil {
					declaredBy = rt.Op
					break
				}
			}
		}
		var declared *spec.Response
		if declaredBy != nil {
			declared = cl.c.Response(declaredBy, got)
		}
		ct := resp.Header.Get("Content-Type")
		switch {
		case declared == nil && ct != "application/problem+json":
			failures = append(failures, fmt.Sprintf("%s: %d %s, want a problem (the operation declares no %d)", what, got, ct, got))
		case declared == nil:
		case ct == "application/problem+json" && mediaNamed(declared.Content, "application/problem+json") == nil:
			failures = append(failures, fmt.Sprintf("%s: a problem, where the operation declares %d (%s): %s", what, got, strings.Join(mediaNames(declared.Content), ", "), clip(body)))
		default:
			for _, p := range cl.c.CheckResponse(declaredBy, &contract.Response{Status: got, Header: resp.Header, Body: body, Method: req.Method}) {
				failures = append(failures, fmt.Sprintf("%s: the refusal %d breaks the contract: %s (body %s)", what, got, p, clip(body)))
			}
		}
	}
	return sent, failures
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// request builds a valid request of op: every path parameter and every
// required one, the body in a media type the contract writes (JSON
// first), an Accept header for one of the success response's media types,
// and credentials for its security. nil, with the reason, when no valid
// request can be written.
func (cl *loopClient) request(op *spec.Operation, accept string) (*contract.BuiltRequest, string) {
	return cl.build(op, accept, true)
}

// build is request, with credentials or without them.
func (cl *loopClient) build(op *spec.Operation, accept string, creds bool) (*contract.BuiltRequest, string) {
	h := fnv.New64a()
	h.Write([]byte(op.Method + " " + op.Path))
	g := schema.NewGenerator(h.Sum64())
	v := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Header: map[string]any{}, Cookie: map[string]any{}}
	for _, p := range op.Parameters {
		if !p.Required && p.In != "path" {
			continue
		}
		if p.In == "header" && (strings.EqualFold(p.Name, "Accept") || strings.EqualFold(p.Name, "Content-Type") || strings.EqualFold(p.Name, "Authorization")) {
			continue
		}
		node, src := p.Schema, p.SchemaSource
		if node == nil {
			if c := p.Node.Get("content"); c != nil && len(c.Fields) > 0 {
				node = c.Fields[0].Value.Get("schema")
				src = append(append(spec.Path{}, p.Source...), "content", c.Fields[0].Key, "schema")
			}
		}
		val, why := cl.generate(node, src, g)
		if why != "" {
			return nil, fmt.Sprintf("%s parameter %s: %s", p.In, p.Name, why)
		}
		v.Set(p.In, p.Name, val)
	}
	if rb := op.RequestBody; rb != nil && len(rb.Content) > 0 {
		mt := rb.Content[0]
		for _, m := range rb.Content {
			if isJSON(m.Name) {
				mt = m
				break
			}
		}
		name := mt.Name
		if strings.Contains(name, "*") {
			name = "application/json" // a concrete type the range covers
		}
		var body any
		switch {
		case len(rb.FormData) > 0:
			// Swagger 2.0 formData: a field per parameter (a file's
			// content for type: file).
			form := map[string]any{}
			for _, p := range rb.FormData {
				if !p.Required {
					continue
				}
				if p.Node.GetStr("type") == "file" {
					form[p.Name] = contract.File{Filename: "photo.png", ContentType: "image/png", Data: []byte("png")}
					continue
				}
				val, why := cl.generate(p.Schema, p.SchemaSource, g)
				if why != "" {
					return nil, "formData " + p.Name + ": " + why
				}
				form[p.Name] = val
			}
			body = form
		case mt.Schema != nil:
			val, why := cl.generate(mt.Schema, mt.SchemaSource, g)
			if why != "" {
				return nil, "request body: " + why
			}
			body = val
		case isJSON(name):
			body = map[string]any{}
		default:
			body = []byte("specgate")
		}
		if body == nil {
			body = json.RawMessage("null")
		}
		v.Body, v.MediaType = body, name
	}
	if accept != "" {
		v.Header["Accept"] = accept
	}
	built, err := cl.c.BuildRequest(op, v)
	if err != nil {
		return nil, "the contract cannot write it: " + err.Error()
	}
	if !creds {
		return built, ""
	}
	if err := cl.c.Authorize(op, built, cl.creds); err != nil {
		return nil, "credentials: " + err.Error()
	}
	return built, ""
}

func (cl *loopClient) generate(node *spec.Node, src spec.Path, g *schema.Generator) (any, string) {
	if node == nil {
		return "specgate", ""
	}
	sc, err := cl.set.Compile(node, src)
	if err != nil {
		return nil, "the schema does not compile: " + err.Error()
	}
	val, err := sc.Generate(g, schema.Request)
	if err != nil {
		return nil, "no value satisfies the schema: " + err.Error()
	}
	return val, ""
}

// TestNegativeLoop runs specgate's contract tests, --negative included,
// against the mock: every test of a spec served by the mock passes, its
// examples, its generated requests and its requests broken in one place
// (whose refusals are held to the responses the spec declares). This
// package's fixtures run always; every corpus spec with SPECGATE_LOOP=1.
func TestNegativeLoop(t *testing.T) {
	specs := []string{"testdata/refusals.yaml", "testdata/inline.yaml", "testdata/xml.yaml", "testdata/aws.yaml", "testdata/pets.yaml",
		"testdata/loop/styles.yaml", "testdata/loop/bodies.yaml", "testdata/loop/openapi31.yaml", "testdata/loop/swagger.yaml",
		corpusDir + "/petstore-expanded.yaml"}
	if os.Getenv("SPECGATE_LOOP") == "1" {
		corpus, err := corpusspecs.List(corpusDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range corpus {
			if !strings.HasPrefix(s.Name, "asyncapi") && !strings.HasPrefix(s.Name, "webhook") {
				specs = append(specs, s.Path)
			}
		}
	}
	for _, path := range specs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if _, err := os.Stat(path); err != nil {
				t.Skipf("no %s", path)
			}
			load := spec.Options{RefRoot: filepath.Dir(filepath.Dir(path))}
			m := start(t, Options{Specs: []SpecSource{{Path: path}}, Load: load})
			// The client's connections are closed before the mock shuts
			// down: net/http waits 5 s for one dialled and never used.
			tr := &http.Transport{MaxIdleConnsPerHost: 4}
			t.Cleanup(tr.CloseIdleConnections)
			plan, err := apitest.NewPlan(context.Background(), apitest.Options{
				Specs:    []apitest.SpecSource{{Path: path}},
				BaseURL:  m.url,
				Negative: true,
				Parallel: 4,
				Client:   &http.Client{Transport: tr, Timeout: 30 * time.Second},
				Getenv:   func(string) string { return "" },
				Loader:   spec.NewLoader(load),
			})
			if err != nil {
				t.Fatal(err)
			}
			c := &results{}
			sum := plan.Run(context.Background(), c)
			failed := 0
			for _, r := range c.list {
				if r.Outcome != apitest.Failed {
					continue
				}
				if failed++; failed <= 30 {
					t.Errorf("%s: %s", r.Test.Title(), r.Message())
				}
			}
			t.Logf("%s: %d tests, %d passed, %d failed, %d skipped", path, sum.Tests, sum.Passed, sum.Failed, sum.Skipped)
			if sum.Passed == 0 {
				t.Error("no test passed")
			}
		})
	}
}

// results collects a run's results.
type results struct{ list []*apitest.Result }

func (c *results) Begin(*apitest.RunInfo)   {}
func (c *results) Result(r *apitest.Result) { c.list = append(c.list, r) }
func (c *results) End(*apitest.Summary)     {}

// exchange sends req and reads the answer's body to its end (what it
// could read, on an error).
func exchange(client *http.Client, req *http.Request) (*http.Response, []byte, error) {
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body, nil
}
