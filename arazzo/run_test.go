package arazzo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/spec"
)

// shopServer is the service the shop workflows call: /status answers 503
// twice before 200, orders need the token login gives.
func shopServer(t *testing.T, faults ...string) (*httptest.Server, *[]string) {
	fault := func(f string) bool { return slices.Contains(faults, f) }
	t.Helper()
	var mu sync.Mutex
	var calls []string
	statusCalls := 0
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/login", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ User string }
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"token": "tok-%s"}`, in.User)
	})
	mux.HandleFunc("GET /api/status", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		statusCalls++
		n := statusCalls
		mu.Unlock()
		if n <= 2 {
			w.WriteHeader(503)
			return
		}
	})
	mux.HandleFunc("POST /api/orders", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-alice" {
			w.WriteHeader(401)
			return
		}
		var in map[string]any
		json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "application/json")
		loc, status, item := "/api/orders/7", "placed", in["item"]
		if fault("location") {
			loc = "/elsewhere/7"
		}
		if fault("shipped") {
			status = "shipped"
		}
		if fault("item") {
			item = "coffee"
		}
		w.Header().Set("Location", loc)
		w.WriteHeader(201)
		json.NewEncoder(w).Encode(map[string]any{"id": 7, "item": item, "quantity": in["quantity"], "status": status})
	})
	mux.HandleFunc("GET /api/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != "7" {
			w.WriteHeader(404)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id": 7, "item": "Tea", "quantity": 2, "status": "placed"}`)
	})
	mux.HandleFunc("GET /api/orders/{id}/receipt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		if fault("free") {
			fmt.Fprint(w, `<receipt><total>0</total></receipt>`)
			return
		}
		fmt.Fprint(w, `<receipt><total>12.5</total></receipt>`)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, r.Method+" "+r.URL.Path)
		mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func checked(t *testing.T, name string) *Checked {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	c, problems := Check(context.Background(), doc)
	for _, p := range problems {
		t.Errorf("unexpected problem: %s", p.Error())
	}
	return c
}

// shopRunner runs the shop's workflows against baseURL with the inputs
// they need, without waiting between retries.
func shopRunner(t *testing.T, c *Checked, baseURL string) *Runner {
	t.Helper()
	r, err := NewRunner(c, Options{
		BaseURL: baseURL,
		Inputs:  map[string]map[string]any{"login": {"user": "alice"}, "order": {"item": "tea", "quantity": json.Number("2")}},
		Sleep:   func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunShopWorkflows(t *testing.T) {
	srv, calls := shopServer(t)
	c := checked(t, "testdata/shop.arazzo.yaml")
	r := shopRunner(t, c, srv.URL)
	var steps []*StepResult
	results := r.Run(context.Background(), []string{"order", "after-missing"}, func(sr *StepResult) { steps = append(steps, sr) })

	var got []string
	for _, res := range results {
		got = append(got, res.ID+"="+string(res.Outcome))
	}
	want := []string{"login=passed", "order=passed", "missing-order=failed", "after-missing=skipped"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("workflows: got %v, want %v", got, want)
	}
	var stepsGot []string
	for _, sr := range steps {
		stepsGot = append(stepsGot, sr.Workflow+"."+sr.Step.ID+"="+string(sr.Outcome))
	}
	wantSteps := []string{"login.login=passed", "order.wait-ready=passed", "order.create=passed", "order.read=passed",
		"order.receipt=passed", "order.never=skipped", "missing-order.read-missing=failed", "after-missing.status=skipped"}
	if strings.Join(stepsGot, " ") != strings.Join(wantSteps, " ") {
		t.Fatalf("steps:\n got %v\nwant %v", stepsGot, wantSteps)
	}
	byID := map[string]*StepResult{}
	for _, sr := range steps {
		byID[sr.Workflow+"."+sr.Step.ID] = sr
	}
	if sr := byID["order.wait-ready"]; sr.Retries != 2 || len(sr.Exchanges) != 3 {
		t.Errorf("wait-ready: %d retries and %d exchanges, want 2 and 3", sr.Retries, len(sr.Exchanges))
	}
	if sr := byID["order.create"]; !strings.Contains(sr.Message, `success action "read-it" goes to step read`) {
		t.Errorf("create: message %q", sr.Message)
	}
	if sr := byID["order.create"]; string(sr.Exchanges[0].Body) != `{"item":"tea","quantity":2}` {
		t.Errorf("create sent %s", sr.Exchanges[0].Body)
	}
	if sr := byID["order.create"]; sr.Exchanges[0].Header.Get("Authorization") != "Bearer ****" {
		t.Errorf("the token is not masked in reports: %q", sr.Exchanges[0].Header.Get("Authorization"))
	}
	if res := results[1]; fmt.Sprint(res.Outputs) != "map[orderId:7 status:placed]" {
		t.Errorf("order outputs %v", res.Outputs)
	}
	if sr := byID["missing-order.read-missing"]; sr.Message != `success criterion "$statusCode == 200" did not hold ($statusCode is 404)` {
		t.Errorf("read-missing: %q", sr.Message)
	}
	if sr := byID["after-missing.status"]; sr.Message != `workflow "missing-order", which it depends on, did not pass` {
		t.Errorf("after-missing: %q", sr.Message)
	}
	for _, c := range *calls {
		if c == "GET /api/status" {
			continue
		}
		if strings.Contains(c, "never") {
			t.Errorf("the step skipped by goto ran: %s", c)
		}
	}
	want4 := []string{"POST /api/login", "GET /api/status", "GET /api/status", "GET /api/status", "POST /api/orders", "GET /api/orders/7", "GET /api/orders/7/receipt", "GET /api/orders/999"}
	if strings.Join(*calls, ", ") != strings.Join(want4, ", ") {
		t.Errorf("calls:\n got %v\nwant %v", *calls, want4)
	}
}

// TestRunCriteriaFail breaks the service in one way each: the criterion of
// that kind fails, and the message says which.
func TestRunCriteriaFail(t *testing.T) {
	c := checked(t, "testdata/shop.arazzo.yaml")
	for _, tc := range []struct{ fault, step, message string }{
		{"item", "create", `success criterion "$statusCode == 201 && $response.body#/item == $inputs.item" did not hold ($statusCode is 201, $response.body#/item is "coffee", $inputs.item is "tea")`},
		{"location", "create", `success criterion "^/api/orders/\\d+$" did not hold ($response.header.Location is "/elsewhere/7")`},
		{"shipped", "create", `success criterion "$[?@ == 'placed']" did not hold ($response.body is {"id":7,"item":"tea","quantity":2,"status":"shipped"})`},
		{"free", "receipt", `success criterion "/receipt/total[. > 0]" did not hold ($response.body is "<receipt><total>0</total></receipt>")`},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			srv, _ := shopServer(t, tc.fault)
			r := shopRunner(t, c, srv.URL)
			var failed []*StepResult
			res := r.Run(context.Background(), []string{"order"}, func(sr *StepResult) {
				if sr.Outcome == Failed {
					failed = append(failed, sr)
				}
			})
			if len(failed) != 1 || failed[0].Step.ID != tc.step || failed[0].Message != tc.message {
				for _, f := range failed {
					t.Logf("failed %s: %s", f.Step.ID, f.Message)
				}
				t.Fatalf("want step %s to fail with %q", tc.step, tc.message)
			}
			if res[len(res)-1].Outcome != Failed {
				t.Errorf("workflow order: %s", res[len(res)-1].Outcome)
			}
		})
	}
}

// TestReplace applies replacements of each target type to payloads: a
// JSON pointer sets one place (creating objects on the way), a JSONPath
// every node it selects; a JSONPath that selects nothing and an XPath
// target (named, or implied by an XML payload) fail, saying why.
func TestReplace(t *testing.T) {
	payload := func() any {
		return map[string]any{"pets": []any{map[string]any{"name": "a", "age": json.Number("1")}, map[string]any{"name": "b"}}}
	}
	for _, tc := range []struct {
		name, target, typ, contentType string
		want, err                      string
	}{
		{name: "pointer", target: "/pets/1/name", want: `{"pets":[{"age":1,"name":"a"},{"name":"X"}]}`},
		{name: "pointer creates objects", target: "/owner/name", typ: "jsonpointer", want: `{"owner":{"name":"X"},"pets":[{"age":1,"name":"a"},{"name":"b"}]}`},
		{name: "pointer past an index", target: "/pets/5/name", err: `"5" is not an index of the array`},
		{name: "jsonpath sets every node", target: "$.pets[*].name", typ: "jsonpath", want: `{"pets":[{"age":1,"name":"X"},{"name":"X"}]}`},
		{name: "jsonpath with a filter", target: "$.pets[?@.age].name", typ: "jsonpath", want: `{"pets":[{"age":1,"name":"X"},{"name":"b"}]}`},
		{name: "jsonpath selecting nothing", target: "$.owner", typ: "jsonpath", err: `JSONPath "$.owner" selects nothing in the payload`},
		{name: "xpath", target: "//name", typ: "xpath", err: "XPath targets are not applied"},
		{name: "xml payload", target: "/pets/name", contentType: "application/xml", err: "XPath targets are not applied"},
		{name: "unknown type", target: "x", typ: "css", err: `target selector type "css" is not one of jsonpointer, jsonpath, xpath`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := payload()
			got, err := replace(p, &Replacement{Target: tc.target, TargetType: tc.typ}, tc.contentType, "X")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if j := canonicalJSON(got); j != tc.want {
				t.Errorf("got %s\nwant %s", j, tc.want)
			}
			if j := canonicalJSON(p); j != `{"pets":[{"age":1,"name":"a"},{"name":"b"}]}` {
				t.Errorf("the payload itself changed: %s", j)
			}
		})
	}
}

// TestAsyncAPIStepsSkipped runs a workflow that calls an HTTP operation and
// then sends and receives AsyncAPI messages: the HTTP step runs, the
// AsyncAPI steps (validated, with their channel and operation found) are
// reported skipped with the reason, and the workflow passes.
func TestAsyncAPIStepsSkipped(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/orders" {
			w.WriteHeader(404)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		fmt.Fprint(w, `{"id": 9}`)
	}))
	defer srv.Close()
	c := checked(t, "testdata/async/order-events.arazzo.yaml")
	r, err := NewRunner(c, Options{BaseURLs: map[string]string{"shop": srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	var steps []*StepResult
	results := r.Run(context.Background(), nil, func(sr *StepResult) { steps = append(steps, sr) })
	if len(results) != 1 || results[0].Outcome != Passed {
		t.Fatalf("workflow: %+v", results)
	}
	const why = "AsyncAPI steps are validated but not run: specgate sends HTTP requests, and has no client for message brokers"
	want := []struct {
		id      string
		outcome Outcome
		target  string
		message string
	}{
		{"create", Passed, "POST /orders (createOrder)", ""},
		{"announce", Skipped, "AsyncAPI channel orderPlaced", why},
		{"observe", Skipped, "AsyncAPI operation onOrderPlaced", why},
	}
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(steps), len(want))
	}
	for i, w := range want {
		sr := steps[i]
		if sr.Step.ID != w.id || sr.Outcome != w.outcome || sr.Target != w.target || sr.Message != w.message {
			t.Errorf("step %d: %s %s %q %q; want %s %s %q %q", i, sr.Step.ID, sr.Outcome, sr.Target, sr.Message, w.id, w.outcome, w.target, w.message)
		}
	}
	if tc := steps[1].Test("order-events.arazzo.yaml"); tc.Status != "skipped" || !slices.Contains(tc.Tags, "asyncapi") || tc.Message != why {
		t.Errorf("the report's test of announce: status %s, tags %v, message %q", tc.Status, tc.Tags, tc.Message)
	}
}

// A nil sink means no progress report: the run goes on, executed and
// skipped steps alike, and returns the same results.
func TestRunNilSink(t *testing.T) {
	srv, _ := shopServer(t)
	c := checked(t, "testdata/shop.arazzo.yaml")
	r := shopRunner(t, c, srv.URL)
	var got []string
	for _, res := range r.Run(context.Background(), []string{"order", "after-missing"}, nil) {
		for _, sr := range res.Steps {
			got = append(got, sr.Workflow+"."+sr.Step.ID+"="+string(sr.Outcome))
		}
	}
	want := []string{"login.login=passed", "order.wait-ready=passed", "order.create=passed", "order.read=passed",
		"order.receipt=passed", "order.never=skipped", "missing-order.read-missing=failed", "after-missing.status=skipped"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("steps:\n got %v\nwant %v", got, want)
	}
}
