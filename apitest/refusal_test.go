package apitest

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/reports"
)

// accountsService is a correct service of testdata/refusals/accounts.yaml:
// /accounts/historicalBalances is a literal path beside
// /accounts/{accountId}, so that PUT of it is routed to putAccount (and
// refused with 400 for its missing body), and a method no template
// declares is answered 405 with Allow and no body, as most frameworks
// answer it.
type accountsService struct{}

func (accountsService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	writeJSON := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	fail := func(status int, msg string) { writeJSON(status, map[string]any{"code": status, "message": msg}) }
	allow := func(methods ...string) bool {
		if slices.Contains(methods, r.Method) {
			return true
		}
		w.Header().Set("Allow", strings.Join(methods, ", "))
		w.WriteHeader(http.StatusMethodNotAllowed)
		return false
	}
	account := func() (map[string]any, bool) {
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
			fail(http.StatusUnsupportedMediaType, "send JSON")
			return nil, false
		}
		var a map[string]any
		if err := json.NewDecoder(r.Body).Decode(&a); err != nil {
			fail(http.StatusBadRequest, "not an account")
			return nil, false
		}
		if name, ok := a["name"].(string); !ok || name == "" {
			fail(http.StatusBadRequest, "name is required")
			return nil, false
		}
		return a, true
	}
	path := r.URL.Path
	switch {
	case path == "/accounts":
		if !allow("GET", "POST") {
			return
		}
		if r.Method == "GET" {
			writeJSON(http.StatusOK, []any{map[string]any{"name": "main"}})
			return
		}
		if a, ok := account(); ok {
			writeJSON(http.StatusCreated, a)
		}
	case path == "/accounts/historicalBalances" && r.Method == "GET":
		writeJSON(http.StatusOK, []any{1, 2})
	case strings.HasPrefix(path, "/accounts/") && !strings.Contains(path[len("/accounts/"):], "/"):
		if !allow("GET", "PUT") {
			return
		}
		if r.Method == "GET" {
			writeJSON(http.StatusOK, map[string]any{"name": path[len("/accounts/"):]})
			return
		}
		if a, ok := account(); ok {
			writeJSON(http.StatusOK, a)
		}
	default:
		fail(http.StatusNotFound, "no such resource")
	}
}

func runAccounts(t *testing.T) *collect {
	t.Helper()
	return runPets(t, accountsService{}, Options{Specs: []SpecSource{{Path: "testdata/refusals/accounts.yaml"}}, Negative: true})
}

// A 405 test sends a method that the concrete URL truly lacks: PUT
// /accounts/historicalBalances is routed to PUT /accounts/{accountId},
// so its 405 test sends POST; every test passes against a correct service.
func TestUndeclaredMethodOfTheConcreteURL(t *testing.T) {
	c := runAccounts(t)
	var methods []string
	for _, r := range c.results {
		if r.Test.refuses == refusesMethod && r.Test.Kind == Negative {
			methods = append(methods, r.Test.Method+" "+r.Test.Path)
		}
		if r.Outcome != Passed {
			t.Errorf("%s: %s %s", r.Test.Title(), r.Outcome, r.Message())
		}
	}
	want := []string{"PUT /accounts", "POST /accounts/historicalBalances", "POST /accounts/{accountId}"}
	if !slices.Equal(methods, want) {
		t.Errorf("undeclared method tests %v, want %v", methods, want)
	}
}

// An undeclared method has no operation: its 405 answer (a negative
// test's or a 405 example's) is held to the 405 and its Allow header, not
// to the default response of another operation of the path.
func TestUndeclaredMethodIsNoOperationsDefault(t *testing.T) {
	c := runAccounts(t)
	r := c.byTitle(t, "DELETE /accounts -> 405 (example: delete_not_allowed)")
	if r.Outcome != Passed {
		t.Errorf("the 405 example: %s", r.Message())
	}
	if got := c.byTitle(t, "PUT /accounts -> 405 (negative: undeclared method PUT)"); got.Outcome != Passed {
		t.Errorf("the 405 test: %s", got.Message())
	}
	// Without Allow, unsupported_method fails the example as it fails the
	// negative test.
	bare := runPets(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "DELETE" {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		accountsService{}.ServeHTTP(w, r)
	}), Options{Specs: []SpecSource{{Path: "testdata/refusals/accounts.yaml"}}, Filter: "METHOD=DELETE"})
	r = bare.byTitle(t, "DELETE /accounts -> 405 (example: delete_not_allowed)")
	if got := bare.failedChecks(r); !slices.Equal(got, []string{"unsupported_method", "example_headers_match"}) {
		t.Errorf("a 405 without Allow failed %v (%s), want unsupported_method and example_headers_match", got, r.Message())
	}
}

// Tests that prove the service refuses what the spec does not declare
// create no coverage row of their own and nothing missing in the spec:
// the 405s have no row, the 415s count under the operation's declared
// request type where the spec declares their answer (here by default).
func TestRefusalsInCoverage(t *testing.T) {
	c := runAccounts(t)
	if len(c.summary.Coverage) != 1 {
		t.Fatalf("coverage of %d specs", len(c.summary.Coverage))
	}
	for _, row := range c.summary.Coverage[0].Rows {
		if row.Coverage == reports.MissingInSpec || row.Status == "405" || strings.Contains(row.RequestType, "unsupported") || row.RequestType == "text/plain" {
			t.Errorf("row %s %s [%s] %s %s: %s", row.Method, row.Path, row.RequestType, row.Status, row.ResponseType, row.Coverage)
		}
	}
	for _, row := range c.summary.Coverage[0].Rows {
		if row.Method == "POST" && row.Status == "default" {
			if row.Coverage != reports.Covered || row.RequestType != "application/json" {
				t.Errorf("POST /accounts default: %s [%s], want covered by the 400 and 415 answers", row.Coverage, row.RequestType)
			}
			return
		}
	}
	t.Error("no row of POST /accounts default")
}
