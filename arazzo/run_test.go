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

func TestRunShopWorkflows(t *testing.T) {
	srv, calls := shopServer(t)
	c := checked(t, "testdata/shop.arazzo.yaml")
	r, err := NewRunner(c, Options{
		BaseURL: srv.URL,
		Inputs:  map[string]map[string]any{"login": {"user": "alice"}, "order": {"item": "tea", "quantity": json.Number("2")}},
		Sleep:   func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
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
		{"location", "create", `success criterion "^/api/orders/\\d+$" did not hold`},
		{"shipped", "create", `success criterion "$[?@ == 'placed']" did not hold`},
		{"free", "receipt", `success criterion "/receipt/total[. > 0]" did not hold`},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			srv, _ := shopServer(t, tc.fault)
			r, err := NewRunner(c, Options{BaseURL: srv.URL, Sleep: func(context.Context, time.Duration) error { return nil },
				Inputs: map[string]map[string]any{"login": {"user": "alice"}, "order": {"item": "tea", "quantity": json.Number("2")}}})
			if err != nil {
				t.Fatal(err)
			}
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
