package mock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const storeSpec = "testdata/stateful/store.yaml"

func storeMock(t testing.TB, opts Options) *testMock {
	opts.Specs = []SpecSource{{Path: storeSpec}}
	opts.Stateful = true
	return start(t, opts)
}

// call sends a request with a JSON body (when body is not "") and checks
// that the answer has the status wanted and, below 400, that it is valid
// for the spec.
func (m *testMock) call(t testing.TB, k *checker, method, path, body string, status int) response {
	t.Helper()
	h := map[string]string{}
	if body != "" {
		h["Content-Type"] = "application/json"
		if method == "PATCH" && strings.HasPrefix(path, "/api/users/") && !strings.Contains(path, "/orders") {
			h["Content-Type"] = "application/merge-patch+json"
		}
	}
	r := m.do(t, method, path, h, body)
	if r.status != status {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, r.status, status, r.body)
	}
	if k != nil && status < 400 {
		k.valid(t, method, path, r)
	}
	return r
}

func obj(t testing.TB, r response) map[string]any {
	t.Helper()
	m, ok := r.json(t).(map[string]any)
	if !ok {
		t.Fatalf("not an object: %s", r.body)
	}
	return m
}

func names(t testing.TB, r response, key string) []string {
	t.Helper()
	v := r.json(t)
	if key != "" {
		v = v.(map[string]any)[key]
	}
	var out []string
	for _, it := range v.([]any) {
		m := it.(map[string]any)
		for _, f := range []string{"name", "title", "status"} {
			if s, ok := m[f].(string); ok {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// A whole CRUD scenario on a spec of nested collections with paging,
// filters, x-id-field and foreign keys, every answer checked against the
// spec: create → list shows it → patch → get shows the merge → put →
// delete → get is 404.
func TestStatefulCRUD(t *testing.T) {
	m := storeMock(t, Options{})
	k := newChecker(t, storeSpec)

	// Seeded from the inline list example.
	if got := names(t, m.call(t, k, "GET", "/api/users", "", 200), ""); !slices.Equal(got, []string{"Ada", "Grace"}) {
		t.Fatalf("seeded users %v", got)
	}
	r := m.call(t, k, "POST", "/api/users", `{"name": "Linus", "role": "member", "password": "secret"}`, 201)
	linus := obj(t, r)
	if linus["id"] != json.Number("3") || linus["createdAt"] == nil || linus["password"] != nil {
		t.Errorf("created %v: want id 3, a createdAt filled in, no password", linus)
	}
	if loc := r.header.Get("Location"); loc != "/api/users/3" {
		t.Errorf("Location %q", loc)
	}
	if got := names(t, m.call(t, k, "GET", "/api/users", "", 200), ""); !slices.Equal(got, []string{"Ada", "Grace", "Linus"}) {
		t.Errorf("after the create: %v", got)
	}
	if got := names(t, m.call(t, k, "GET", "/api/users?role=member", "", 200), ""); !slices.Equal(got, []string{"Grace", "Linus"}) {
		t.Errorf("filtered by role: %v", got)
	}
	if got := names(t, m.call(t, k, "GET", "/api/users?limit=1&offset=1", "", 200), ""); !slices.Equal(got, []string{"Grace"}) {
		t.Errorf("limit 1 offset 1: %v", got)
	}

	m.call(t, k, "PATCH", "/api/users/3", `{"email": "linus@example.com"}`, 200)
	got := obj(t, m.call(t, k, "GET", "/api/users/3", "", 200))
	if got["name"] != "Linus" || got["role"] != "member" || got["email"] != "linus@example.com" || got["createdAt"] != linus["createdAt"] {
		t.Errorf("after the merge: %v", got)
	}
	got = obj(t, m.call(t, k, "PATCH", "/api/users/3", `{"email": null, "role": "admin"}`, 200))
	if _, has := got["email"]; has || got["role"] != "admin" {
		t.Errorf("null removes, a value replaces: %v", got)
	}

	got = obj(t, m.call(t, k, "PUT", "/api/users/3", `{"name": "Linus T"}`, 200))
	if got["name"] != "Linus T" || got["role"] != nil || got["createdAt"] != linus["createdAt"] || got["id"] != json.Number("3") {
		t.Errorf("after the replace: %v (readOnly fields kept, the rest replaced)", got)
	}
	if got := obj(t, m.call(t, k, "PUT", "/api/users/9", `{"name": "Nine"}`, 201)); got["id"] != json.Number("9") {
		t.Errorf("PUT of a new id: %v", got)
	}

	m.call(t, k, "DELETE", "/api/users/3", "", 204)
	if got := obj(t, m.call(t, k, "GET", "/api/users/3", "", 404)); got["message"] != "no such user" {
		t.Errorf("404 answered %v, want the spec's 404 example", got)
	}
	m.call(t, k, "DELETE", "/api/users/3", "", 404)
	m.call(t, nil, "GET", "/api/users/abc", "", 400) // a malformed id

	// After the deletes, ids keep going up: a new user is 10.
	if got := obj(t, m.call(t, k, "POST", "/api/users", `{"name": "Ten"}`, 201)); got["id"] != json.Number("10") {
		t.Errorf("the next id %v", got["id"])
	}
}

// Orders live under their user: created with the user's id in userId,
// listed per user, a page at a time, and not reachable through another
// user.
func TestStatefulNested(t *testing.T) {
	m := storeMock(t, Options{})
	k := newChecker(t, storeSpec)
	var nos []string
	for i, status := range []string{"open", "paid", "open"} {
		r := m.call(t, k, "POST", "/api/users/1/orders", fmt.Sprintf(`{"status": %q, "items": [{"sku": "S-%d", "quantity": 1}]}`, status, i), 201)
		o := obj(t, r)
		if o["userId"] != json.Number("1") || len(o["orderNo"].(string)) != 36 {
			t.Errorf("order %v: want userId 1 and a uuid", o)
		}
		nos = append(nos, o["orderNo"].(string))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(nos)))) != 3 {
		t.Errorf("order numbers collide: %v", nos)
	}
	// A link to the next page is its URL; the last page has none.
	first := obj(t, m.call(t, k, "GET", "/api/users/1/orders?page_size=2", "", 200))
	if first["next"] != m.url+"/api/users/1/orders?page=2&page_size=2" || len(first["items"].([]any)) != 2 {
		t.Errorf("page 1 of size 2: %v", first)
	}
	page := obj(t, m.call(t, k, "GET", strings.TrimPrefix(first["next"].(string), m.url), "", 200))
	if page["total"] != json.Number("3") || len(page["items"].([]any)) != 1 || page["next"] != nil {
		t.Errorf("page 2 of size 2: %v", page)
	}
	open := obj(t, m.call(t, k, "GET", "/api/users/1/orders?status=open", "", 200))
	if open["total"] != json.Number("2") {
		t.Errorf("open orders: %v", open)
	}
	// User 2 has the order seeded from the POST example, and none of user 1's.
	two := obj(t, m.call(t, k, "GET", "/api/users/2/orders", "", 200))
	if two["total"] != json.Number("1") || names(t, response{body: mustJSON(two)}, "items")[0] != "paid" {
		t.Errorf("user 2's orders: %v", two)
	}
	// Not through another user: the operation declares no 404, so its 200
	// answers as the stateless mock's, and says why.
	r := m.call(t, k, "GET", "/api/users/2/orders/"+nos[0], "", 200)
	if h := r.header.Get(ProblemHeader); !strings.HasPrefix(h, "no-resource: GET /users/{userId}/orders/{orderNo}: the orders collection holds no resource with orderNo "+nos[0]+" under userId 2") {
		t.Errorf("%s: %q", ProblemHeader, h)
	}
	got := obj(t, m.call(t, k, "PATCH", "/api/users/1/orders/"+nos[0], `{"status": "shipped"}`, 200))
	if got["status"] != "shipped" || got["orderNo"] != nos[0] || len(got["items"].([]any)) != 1 {
		t.Errorf("patched order %v", got)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// Products are keyed by their sku (x-id-field), which the client gives;
// a list is paged by cursor; reviews must name a user and a product that
// exist (x-foreign-keys), and a review that does not stores nothing.
func TestStatefulKeysAndCursor(t *testing.T) {
	m := storeMock(t, Options{})
	k := newChecker(t, storeSpec)
	// LAMP-1 comes from the POST example's request and response.
	if got := obj(t, m.call(t, k, "GET", "/api/products/LAMP-1", "", 200)); got["title"] != "Lamp" {
		t.Errorf("seeded product %v", got)
	}
	m.call(t, k, "POST", "/api/products", `{"sku": "DESK-2", "title": "Desk", "price": 100}`, 201)
	// A taken sku: the operation declares no error, so its 201 answers as
	// the stateless mock's, says why, and stores nothing.
	p := m.call(t, k, "POST", "/api/products", `{"sku": "DESK-2", "title": "Other", "price": 1}`, 201)
	if h := p.header.Get(ProblemHeader); !strings.HasPrefix(h, "conflict: POST /products: the products collection holds a resource with sku DESK-2 already") {
		t.Errorf("%s: %q", ProblemHeader, h)
	}
	if got := obj(t, m.call(t, k, "GET", "/api/products/DESK-2", "", 200)); got["title"] != "Desk" {
		t.Errorf("the conflict changed the product: %v", got)
	}
	first := obj(t, m.call(t, k, "GET", "/api/products?limit=1", "", 200))
	if first["has_more"] != true || first["next_cursor"] != "LAMP-1" || names(t, response{body: mustJSON(first)}, "data")[0] != "Lamp" {
		t.Errorf("first page %v", first)
	}
	second := obj(t, m.call(t, k, "GET", "/api/products?limit=1&cursor=LAMP-1", "", 200))
	if second["has_more"] != false || second["next_cursor"] != nil || names(t, response{body: mustJSON(second)}, "data")[0] != "Desk" {
		t.Errorf("second page %v", second)
	}

	bad := m.call(t, k, "POST", "/api/reviews", `{"user_id": 99, "product_sku": "LAMP-1", "stars": 5}`, 201)
	if h := bad.header.Get(ProblemHeader); !strings.HasPrefix(h, "foreign-key: POST /reviews: user_id 99 names no resource of users (x-foreign-keys); nothing was stored") {
		t.Errorf("%s: %q", ProblemHeader, h)
	}
	if got := m.call(t, k, "GET", "/api/reviews", "", 200); string(got.body) != "[]" {
		t.Errorf("a refused review was stored: %s", got.body)
	}
	m.call(t, k, "POST", "/api/reviews", `{"user_id": 1, "product_sku": "LAMP-1", "stars": 5}`, 201)
	// A body that breaks the schema is refused by the contract, and loses
	// nothing.
	m.call(t, nil, "POST", "/api/reviews", `{"user_id": 1, "product_sku": "LAMP-1", "stars": 9}`, 400)
	if got := m.call(t, k, "GET", "/api/reviews", "", 200); len(got.json(t).([]any)) != 1 {
		t.Errorf("reviews %s", got.body)
	}
}

// The state endpoints dump the store and put it back to its seeded state;
// seeding reports the examples it left out, with where they are written.
func TestStateEndpoints(t *testing.T) {
	m := storeMock(t, Options{})
	k := newChecker(t, storeSpec)
	m.call(t, k, "POST", "/api/users", `{"name": "Temp"}`, 201)
	var dump struct {
		Specs map[string]struct {
			Collections map[string]struct {
				Count int
				Items []struct {
					ID      string
					Parents map[string]string
				}
			}
		}
		Seeding SeedReport
	}
	r := m.do(t, "GET", ReservedPrefix+"state", nil, "")
	if err := json.Unmarshal(r.body, &dump); err != nil {
		t.Fatalf("%v: %s", err, r.body)
	}
	users := dump.Specs[stateKey(storeSpec)].Collections["users"]
	if users.Count != 3 {
		t.Errorf("users in the dump: %+v", users)
	}
	if orders := dump.Specs[stateKey(storeSpec)].Collections["orders"]; orders.Count != 1 || orders.Items[0].Parents["userId"] != "2" {
		t.Errorf("orders in the dump: %+v", orders)
	}
	skipped := map[string]string{}
	for _, sk := range dump.Seeding.Skipped {
		skipped[sk.Example] = sk.Source + " " + sk.Reason
	}
	if !strings.Contains(skipped["echo-user"], "store_examples/echo-user.json:1:1 it holds notations") ||
		!strings.Contains(skipped["nameless"], "store_examples/nameless.json:1:1 its response does not fit the spec") ||
		!strings.Contains(skipped["nameless"], "name") {
		t.Errorf("seeding report %+v", dump.Seeding)
	}
	if dump.Seeding.Seeded != 4 { // Ada, Grace, LAMP-1, the order
		t.Errorf("seeded %d, want 4", dump.Seeding.Seeded)
	}
	if r := m.do(t, "DELETE", ReservedPrefix+"state", nil, ""); r.status != 204 {
		t.Fatalf("DELETE state: %d %s", r.status, r.body)
	}
	if got := names(t, m.call(t, k, "GET", "/api/users", "", 200), ""); !slices.Equal(got, []string{"Ada", "Grace"}) {
		t.Errorf("after the reset: %v", got)
	}
	m.do(t, "POST", ReservedPrefix+"state/save", nil, "").problem(t, 409, kindNoStateFile)
	// The stateless mock has no state.
	petsMock(t).do(t, "GET", ReservedPrefix+"state", nil, "").problem(t, 404, kindNotFound)
}

// Other methods, and requests with a Prefer header, are answered as the
// stateless mock answers them, and change nothing.
func TestStatefulLeavesTheRest(t *testing.T) {
	m := storeMock(t, Options{})
	r := m.do(t, "GET", "/api/users/1", map[string]string{"Prefer": "code=404"}, "")
	if r.status != 404 || !strings.Contains(string(r.body), "no such user") {
		t.Errorf("Prefer: %d %s", r.status, r.body)
	}
	if r := m.do(t, "GET", "/api/users/1", nil, ""); r.status != 200 || !strings.Contains(string(r.body), "Ada") {
		t.Errorf("the store answers without Prefer: %d %s", r.status, r.body)
	}
}

// Eight clients creating 10,000 resources at once get 10,000 distinct
// ids, and the store holds them all.
func TestStatefulParallelCreates(t *testing.T) {
	const clients, each = 8, 1250
	m := storeMock(t, Options{})
	var mu sync.Mutex
	ids := map[string]bool{}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{}
			for i := range each {
				body := fmt.Sprintf(`{"name": "u%d-%d"}`, c, i)
				resp, err := client.Post(m.url+"/api/users", "application/json", strings.NewReader(body))
				if err != nil {
					errs <- err
					return
				}
				var u struct{ ID json.Number }
				err = json.NewDecoder(resp.Body).Decode(&u)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 201 {
					errs <- fmt.Errorf("POST: %d %v", resp.StatusCode, err)
					return
				}
				mu.Lock()
				ids[u.ID.String()] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if len(ids) != clients*each {
		t.Errorf("%d distinct ids for %d creates", len(ids), clients*each)
	}
	r := m.do(t, "GET", "/api/users", nil, "")
	if n := len(r.json(t).([]any)); n != clients*each+2 {
		t.Errorf("the store lists %d users, want %d", n, clients*each+2)
	}
}

// The state file keeps the store across restarts: written on shutdown and
// on POST /_specgate/state/save, read at start. One that cannot be read
// (truncated, not JSON) keeps the mock from starting, with where.
func TestStateFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	opts := Options{Specs: []SpecSource{{Path: storeSpec}}, Stateful: true, StateFile: file, WatchInterval: -1}
	run := func(fn func(m *testMock)) { serveOnce(t, opts, fn) }
	run(func(m *testMock) {
		m.call(t, nil, "POST", "/api/users", `{"name": "Kept"}`, 201)
		if r := m.do(t, "POST", ReservedPrefix+"state/save", nil, ""); r.status != 200 {
			t.Errorf("save: %d %s", r.status, r.body)
		}
		if data, _ := os.ReadFile(file); !strings.Contains(string(data), "Kept") {
			t.Errorf("the saved file lacks the user:\n%s", data)
		}
		m.call(t, nil, "POST", "/api/users", `{"name": "On shutdown"}`, 201)
	})
	run(func(m *testMock) {
		if got := names(t, m.call(t, nil, "GET", "/api/users", "", 200), ""); !slices.Equal(got, []string{"Ada", "Grace", "Kept", "On shutdown"}) {
			t.Errorf("after the restart: %v", got)
		}
		if got := obj(t, m.call(t, nil, "POST", "/api/users", `{"name": "Next"}`, 201)); got["id"] != json.Number("5") {
			t.Errorf("ids go on after a restart: %v", got["id"])
		}
	})
	data, _ := os.ReadFile(file)
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", data[:len(data)/2], "the state file ends before its JSON does (truncated?)"},
		{"not JSON", []byte("{\n  \"version\": 1,\n  \"specs\": oops\n}\n"), file + ":3:12: the state file is not valid JSON"},
		// Columns count characters: "é" and "—" take 2 and 3 bytes.
		{"not JSON after a multi-byte character", []byte("{\n  \"version\": 1,\n  \"specs\": {\"café—\": oops}\n}\n"), file + ":3:22: the state file is not valid JSON"},
		// A value of the wrong type is placed where it starts.
		{"wrong type after a multi-byte character", []byte("{\"specs\": {\"—\": {}}, \"version\": \"1\"}"), file + ":1:33: the state file has string where int belongs (at version)"},
		{"an object of the wrong type", []byte("{\"specs\": {},\n \"version\": {\"major\": 1}}"), file + ":2:13: the state file has object where int belongs (at version)"},
		{"wrong shape", []byte(`{"version": 1, "specs": {"x": {"collections": {"c": {"items": [{"id": "1"}]}}}}}`), "an item without id or value"},
		{"other version", []byte(`{"version": 7, "specs": {}}`), "the state file is version 7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			os.WriteFile(file, tt.data, 0o644)
			_, err := New(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), file) {
				t.Errorf("error %v, want %q at %s", err, tt.want, file)
			}
			if after, _ := os.ReadFile(file); string(after) != string(tt.data) {
				t.Error("the unreadable state file was changed")
			}
		})
	}
}

// serveOnce serves a mock with opts while fn runs, then shuts it down
// (saving its state file) and fails the test if that fails.
func serveOnce(t *testing.T, opts Options, fn func(m *testMock)) {
	t.Helper()
	m, stop := serve(t, opts)
	fn(m)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// The state file names each spec by its absolute path, symbolic links
// resolved: the state saved for testdata/…/store.yaml is read back for
// the same file named by its absolute path or through a link. A file
// written by an older specgate (the path as typed, relative to the
// working directory) is read, and written back with the absolute path;
// the state of specs not served is kept and said in the log.
func TestStateFileKeys(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	abs, err := filepath.Abs(storeSpec)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "specs")
	if err := os.Symlink(filepath.Dir(abs), link); err != nil {
		t.Skip(err)
	}
	opts := func(spec string) Options {
		return Options{Specs: []SpecSource{{Path: spec}}, Stateful: true, StateFile: file, WatchInterval: -1}
	}
	serveOnce(t, opts(storeSpec), func(m *testMock) {
		m.call(t, nil, "POST", "/api/users", `{"name": "Kept"}`, 201)
	})
	var saved stateDoc
	if data, err := os.ReadFile(file); err != nil || json.Unmarshal(data, &saved) != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if got := slices.Collect(maps.Keys(saved.Specs)); !slices.Equal(got, []string{abs}) {
		t.Fatalf("the state file names the spec %v, want %s", got, abs)
	}
	for _, spec := range []string{abs, filepath.Join(link, "store.yaml"), "./" + storeSpec} {
		serveOnce(t, opts(spec), func(m *testMock) {
			if got := names(t, m.call(t, nil, "GET", "/api/users", "", 200), ""); !slices.Equal(got, []string{"Ada", "Grace", "Kept"}) {
				t.Errorf("served as %s: %v", spec, got)
			}
			if strings.Contains(m.logs.String(), `"msg":"the state file`) {
				t.Errorf("served as %s, warned:\n%s", spec, m.logs)
			}
		})
	}

	// An older file: the spec named as typed (twice: once relative, once
	// absolute and empty, as two runs wrote it), and another spec.
	older := `{"version": 1, "specs": {
  "` + abs + `": {"collections": {}},
  "` + storeSpec + `": {"collections": {"users": {"items": [{"id": "7", "value": {"id": 7, "name": "Older", "createdAt": "2024-01-01T00:00:00Z"}}]}}},
  "/elsewhere/other.yaml": {"collections": {"things": {"items": [{"id": "1", "value": {"id": 1}}]}}}}}`
	if err := os.WriteFile(file, []byte(older), 0o600); err != nil {
		t.Fatal(err)
	}
	serveOnce(t, opts(storeSpec), func(m *testMock) {
		if got := names(t, m.call(t, nil, "GET", "/api/users", "", 200), ""); !slices.Equal(got, []string{"Older"}) {
			t.Errorf("the older file's users: %v", got)
		}
		logs := m.logs.String()
		for _, want := range []string{
			"the state file holds the state of " + abs + " under 2 names (" + abs + ", " + storeSpec + "): read as one",
			"the state file holds the state of specs this mock does not serve: /elsewhere/other.yaml; it is kept in the file as it is",
		} {
			if !strings.Contains(logs, want) {
				t.Errorf("the log lacks %q:\n%s", want, logs)
			}
		}
	})
	saved = stateDoc{}
	if data, err := os.ReadFile(file); err != nil || json.Unmarshal(data, &saved) != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if got, want := slices.Sorted(maps.Keys(saved.Specs)), slices.Sorted(slices.Values([]string{"/elsewhere/other.yaml", abs})); !slices.Equal(got, want) {
		t.Errorf("the state file names %v", got)
	}
	if things := saved.Specs["/elsewhere/other.yaml"].Collections["things"]; len(things.Items) != 1 {
		t.Errorf("the state of the spec not served was not kept: %+v", saved.Specs)
	}
}

// A state file that could not be written is found at start, before any
// state is kept: the mock does not start, and says why.
func TestStateFileUnwritable(t *testing.T) {
	dir := t.TempDir()
	readOnly := filepath.Join(dir, "ro")
	if err := os.Mkdir(readOnly, 0o555); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, file, want string
	}{
		{"a missing folder", filepath.Join(dir, "missing", "state.json"), ": the state could not be saved there: open " + filepath.Join(dir, "missing") + "/.state.json.probe"},
		{"a folder", dir, ": the state file is a folder"},
		{"a read-only folder", filepath.Join(readOnly, "state.json"), ": the state could not be saved there: open " + readOnly + "/.state.json.probe"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "a read-only folder" && os.Getuid() == 0 {
				t.Skip("root writes in a read-only folder")
			}
			_, err := New(context.Background(), Options{Specs: []SpecSource{{Path: storeSpec}}, Stateful: true, StateFile: tt.file, WatchInterval: -1})
			var le *LoadError
			if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), tt.file+tt.want) {
				t.Errorf("error %v, want %q", err, tt.file+tt.want)
			}
		})
	}
}

// A stored resource that no longer fits the response schema (a state
// file written for another version of the spec) is a 500 and an error in
// the log, never reshaped.
func TestStateThatNoLongerFits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state.json")
	os.WriteFile(file, []byte(`{"version": 1, "specs": {"`+storeSpec+`": {"collections": {"users": {"items": [{"id": "1", "value": {"id": 1, "nickname": "old"}}]}}}}}`), 0o644)
	m := start(t, Options{Specs: []SpecSource{{Path: storeSpec}}, Stateful: true, StateFile: file})
	p := m.do(t, "GET", "/api/users/1", nil, "").problem(t, 500, kindStateInvalid)
	if !strings.Contains(p.Detail, "do not fit the response's schema") {
		t.Errorf("detail %q", p.Detail)
	}
	if !strings.Contains(m.logs.String(), "the stored state does not fit the response schema") {
		t.Errorf("no error in the log:\n%s", m.logs.String())
	}
}

// petstore-expanded.yaml, as it is: create → list shows it → get →
// delete → get is 404 (its default response, with the status said).
func TestStatefulPetstore(t *testing.T) {
	spec := corpusDir + "/petstore-expanded.yaml"
	if _, err := os.Stat(spec); err != nil {
		t.Skip(err)
	}
	m := start(t, Options{Specs: []SpecSource{{Path: spec}}, Stateful: true})
	k := newChecker(t, spec)
	m.call(t, k, "GET", "/v2/pets", "", 200)
	rex := obj(t, m.call(t, k, "POST", "/v2/pets", `{"name": "Rex", "tag": "dog"}`, 200))
	id := rex["id"].(json.Number).String()
	m.call(t, k, "POST", "/v2/pets", `{"name": "Tom"}`, 200)
	if got := names(t, m.call(t, k, "GET", "/v2/pets", "", 200), ""); !slices.Equal(got, []string{"Rex", "Tom"}) {
		t.Errorf("list %v", got)
	}
	if got := names(t, m.call(t, k, "GET", "/v2/pets?limit=1", "", 200), ""); !slices.Equal(got, []string{"Rex"}) {
		t.Errorf("limit 1: %v", got)
	}
	if got := obj(t, m.call(t, k, "GET", "/v2/pets/"+id, "", 200)); got["name"] != "Rex" || got["tag"] != "dog" {
		t.Errorf("get %v", got)
	}
	m.call(t, k, "DELETE", "/v2/pets/"+id, "", 204)
	r := m.call(t, k, "GET", "/v2/pets/"+id, "", 404)
	k.valid(t, "GET", "/v2/pets/"+id, r)
	if got := obj(t, r); got["code"] != json.Number("404") || !strings.Contains(got["message"].(string), "the pets collection holds no resource with id "+id) {
		t.Errorf("404 %v", got)
	}
}

// What the store holds survives a reload of the spec: the collections
// are the spec's and the store's, not the generation's.
func TestStatefulReload(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "api.yaml")
	write := func(extra string) {
		spec := `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /notes:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Note"}
      responses:
        "201":
          description: created
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Note"}
  /notes/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: a note
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Note"}
components:
  schemas:
    Note:
      type: object
      required: [id, text]
      properties:
        id: {type: integer, readOnly: true}
        text: {type: string}` + extra + "\n"
		rewrite(t, p, []byte(spec))
	}
	write("")
	m := start(t, Options{Specs: []SpecSource{{Path: p}}, Stateful: true, WatchInterval: 20 * time.Millisecond})
	m.call(t, nil, "POST", "/notes", `{"text": "before"}`, 201)
	write("\n        color: {type: string}")
	eventually(t, "the reload", func() bool { return strings.Contains(m.logs.String(), `"msg":"reloaded"`) })
	if got := obj(t, m.call(t, nil, "GET", "/notes/1", "", 200)); got["text"] != "before" {
		t.Errorf("after the reload: %v", got)
	}
	m.call(t, nil, "POST", "/notes", `{"text": "after", "color": "red"}`, 201)
	if got := obj(t, m.call(t, nil, "GET", "/notes/2", "", 200)); got["color"] != "red" {
		t.Errorf("the new field: %v", got)
	}
}

const marketSpec = "testdata/stateful/market.yaml"

func marketMock(t testing.TB) (*testMock, *checker) {
	return start(t, Options{Specs: []SpecSource{{Path: marketSpec}}, Stateful: true}), newChecker(t, marketSpec)
}

// keys are the member names of a JSON object, sorted.
func keys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// A create or a replace stores what the request gives, the path's
// parameters and the required fields it lacks: no optional field is made
// up, so that a later filter on one does not match made-up data.
func TestStatefulMakesNothingUp(t *testing.T) {
	m, k := marketMock(t)
	kay := obj(t, m.call(t, k, "POST", "/api/users", `{"email": "k@x.io", "name": "Kay"}`, 201))
	if got := keys(kay); !slices.Equal(got, []string{"createdAt", "email", "name"}) {
		t.Errorf("created %v: want the body and the required createdAt only", kay)
	}
	if got := obj(t, m.call(t, k, "GET", "/api/users?country=NL", "", 200)); len(got["items"].([]any)) != 0 || got["total"] != json.Number("0") {
		t.Errorf("?country=NL matched a user without a country: %v", got)
	}
	m.call(t, k, "POST", "/api/products", `{"sku": "ABC-123", "title": "Lamp"}`, 201)
	order := obj(t, m.call(t, k, "POST", "/api/users/k@x.io/orders", `{"sku": "ABC-123", "quantity": 1}`, 201))
	if got := keys(order); !slices.Equal(got, []string{"email", "id", "quantity", "sku"}) {
		t.Errorf("created order %v: want the body, the drawn id and the path's email", order)
	}
	path := "/api/users/k@x.io/orders/" + order["id"].(string)
	got := obj(t, m.call(t, k, "PUT", path, `{"sku": "ABC-123", "quantity": 2}`, 200))
	if !slices.Equal(keys(got), []string{"email", "id", "quantity", "sku"}) || got["quantity"] != json.Number("2") || got["id"] != order["id"] {
		t.Errorf("replaced order %v", got)
	}
}

// Collections share a store by their last segment, and the items under
// different parents are different items: two users each have a "home"
// address, and neither sees the other's.
func TestStatefulNestedIDs(t *testing.T) {
	const spec = "testdata/stateful/addresses.yaml"
	m := start(t, Options{Specs: []SpecSource{{Path: spec}}, Stateful: true})
	k := newChecker(t, spec)
	m.call(t, k, "POST", "/users/1/addresses", `{"label": "home", "city": "Amsterdam"}`, 201)
	m.call(t, k, "POST", "/users/2/addresses", `{"label": "home", "city": "Berlin"}`, 201)
	m.call(t, k, "POST", "/users/2/addresses", `{"label": "work", "city": "Bonn"}`, 201)
	for _, tt := range []struct{ user, city string }{{"1", "Amsterdam"}, {"2", "Berlin"}} {
		if got := obj(t, m.call(t, k, "GET", "/users/"+tt.user+"/addresses/home", "", 200)); got["city"] != tt.city || got["uid"] != json.Number(tt.user) {
			t.Errorf("user %s's home: %v", tt.user, got)
		}
	}
	var cities []string
	for _, it := range m.call(t, k, "GET", "/users/2/addresses", "", 200).json(t).([]any) {
		cities = append(cities, it.(map[string]any)["city"].(string))
	}
	if !slices.Equal(cities, []string{"Berlin", "Bonn"}) {
		t.Errorf("user 2's addresses: %v", cities)
	}
	// The same label twice under one user is a conflict; the operation
	// declares no status for it, so the answer is its 201, said to be a
	// refusal, and nothing changes.
	r := m.call(t, k, "POST", "/users/1/addresses", `{"label": "home", "city": "Utrecht"}`, 201)
	if h := r.header.Get(ProblemHeader); !strings.HasPrefix(h, "conflict: POST /users/{uid}/addresses: the addresses collection holds a resource with label home under uid 1 already") {
		t.Errorf("%s: %q", ProblemHeader, h)
	}
	if got := obj(t, m.call(t, k, "GET", "/users/1/addresses/home", "", 200)); got["city"] != "Amsterdam" {
		t.Errorf("the conflict changed the address: %v", got)
	}
}

// A PATCH without a body is an empty merge patch: the stored resource,
// unchanged, or 404 for a resource the store does not hold.
func TestStatefulPatchWithoutBody(t *testing.T) {
	m, k := marketMock(t)
	kay := m.call(t, k, "POST", "/api/users", `{"email": "k@x.io", "name": "Kay", "country": "NL"}`, 201)
	if got := m.call(t, k, "PATCH", "/api/users/k@x.io", "", 200); string(got.body) != string(kay.body) {
		t.Errorf("PATCH without a body answered %s, want the stored %s", got.body, kay.body)
	}
	r := m.call(t, nil, "PATCH", "/api/users/nope@example.com", "", 404)
	k.valid(t, "PATCH", "/api/users/nope@example.com", r)
	if h := r.header.Get(ProblemHeader); h != "no-resource: PATCH /users/{email}: the users collection holds no resource with email nope@example.com" {
		t.Errorf("%s: %q", ProblemHeader, h)
	}
}

// The store's refusals of valid requests (no such resource, a natural key
// taken, a foreign key or a parent that names nothing) are answers the
// operation declares: the status itself where it declares it, else the
// closest client error it declares, else — where it declares none — the
// answer of the stateless mock, nothing stored. X-Specgate-Problem says
// why each time, and every answer is valid for the spec.
func TestStatefulRefusalsKeepTheContract(t *testing.T) {
	m, k := marketMock(t)
	m.call(t, k, "POST", "/api/users", `{"email": "k@x.io", "name": "Kay"}`, 201)
	m.call(t, k, "POST", "/api/products", `{"sku": "ABC-123", "title": "Lamp"}`, 201)
	const missing = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
		header                   string
		body2                    string // the answer's body, when it has one to check
	}{
		{"a deletion of nothing, only 204 declared", "DELETE", "/api/users/k@x.io/orders/" + missing, "", 204,
			"no-resource: DELETE /users/{email}/orders/{orderId}: the orders collection holds no resource with id " + missing + " under email k@x.io (DELETE /users/{email}/orders/{orderId} declares no 404, 410, 400 or 422: answered as the stateless mock would)", ""},
		{"a foreign key naming nothing, 400 declared without content", "POST", "/api/users/k@x.io/orders", `{"sku": "XYZ-999", "quantity": 1}`, 400,
			"foreign-key: POST /users/{email}/orders: sku XYZ-999 names no resource of products (x-foreign-keys); nothing was stored", ""},
		{"a foreign key naming nothing, only 200 declared", "PUT", "/api/users/k@x.io/orders/" + missing, `{"sku": "XYZ-999", "quantity": 1}`, 200,
			"foreign-key: PUT /users/{email}/orders/{orderId}: sku XYZ-999 names no resource of products (x-foreign-keys); nothing was stored (PUT /users/{email}/orders/{orderId} declares no 400, 422, 409 or 404: answered as the stateless mock would)", ""},
		{"a taken key, 409 not declared but 400", "POST", "/api/users", `{"email": "k@x.io", "name": "Other"}`, 400,
			"conflict: POST /users: the users collection holds a resource with email k@x.io already; nothing was stored (POST /users declares no 409: answered with its 400)", ""},
		{"a taken key, only 201 declared", "POST", "/api/products", `{"sku": "ABC-123", "title": "Other"}`, 201,
			"conflict: POST /products: the products collection holds a resource with sku ABC-123 already; nothing was stored (POST /products declares no 409, 422 or 400: answered as the stateless mock would)", ""},
		{"a create under a parent that does not exist", "POST", "/api/users/nobody@x.io/orders", `{"sku": "ABC-123", "quantity": 1}`, 400,
			"no-resource: POST /users/{email}/orders: the users collection holds no resource with email nobody@x.io, which the path names; nothing was stored (POST /users/{email}/orders declares no 404: answered with its 400)", ""},
		{"a read of nothing, 404 declared", "GET", "/api/users/nope@x.io", "", 404,
			"no-resource: GET /users/{email}: the users collection holds no resource with email nope@x.io", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{}
			if tt.body != "" {
				h["Content-Type"] = "application/json"
			}
			r := m.do(t, tt.method, tt.path, h, tt.body)
			if r.status != tt.status {
				t.Fatalf("%d, want %d: %s", r.status, tt.status, r.body)
			}
			k.valid(t, tt.method, tt.path, r)
			if got := r.header.Get(ProblemHeader); got != tt.header {
				t.Errorf("%s:\n got %q\nwant %q", ProblemHeader, got, tt.header)
			}
		})
	}
	// Nothing of it was stored.
	users := obj(t, m.call(t, k, "GET", "/api/users", "", 200))
	if users["total"] != json.Number("1") || users["items"].([]any)[0].(map[string]any)["name"] != "Kay" {
		t.Errorf("users %v", users)
	}
	if got := m.call(t, k, "GET", "/api/products", "", 200).json(t).([]any); len(got) != 1 || got[0].(map[string]any)["title"] != "Lamp" {
		t.Errorf("products %v", got)
	}
	m.call(t, k, "GET", "/api/users/k@x.io/orders/"+missing, "", 404)
	if got := obj(t, m.call(t, k, "GET", "/api/users/nobody@x.io/orders", "", 200)); len(got["data"].([]any)) != 0 {
		t.Errorf("orders of nobody %v", got)
	}
}

// A cursor that names no resource is refused, in the form the operation
// declares for 400, naming the cursor.
func TestStatefulBogusCursor(t *testing.T) {
	m := storeMock(t, Options{})
	k := newChecker(t, storeSpec)
	r := m.do(t, "GET", "/api/products?cursor=NOPE-9", nil, "")
	k.valid(t, "GET", "/api/products?cursor=NOPE-9", r)
	if r.status != 400 || r.header.Get(ProblemHeader) != `bad-cursor: GET /products: cursor NOPE-9 names no resource of products` {
		t.Errorf("%d %q %s", r.status, r.header.Get(ProblemHeader), r.body)
	}
	if got := obj(t, r); got["code"] != json.Number("400") || !strings.Contains(got["message"].(string), "cursor NOPE-9") {
		t.Errorf("the 400 says %v", got)
	}
}

// A field the request leaves out takes the default its request schema
// declares, not a made-up value: the README's todos, created and replaced
// without done, are not done.
func TestStatefulDefaults(t *testing.T) {
	opts := Options{Specs: []SpecSource{{Path: filepath.Join("..", "examples", "todos.yaml")}}, Stateful: true, WatchInterval: -1}
	serveOnce(t, opts, func(m *testMock) {
		for i, tt := range []struct {
			method, path, body string
			status             int
			done               any
		}{
			{"POST", "/v1/todos", `{"title": "left out"}`, 201, false},
			{"POST", "/v1/todos", `{"title": "sent", "done": true}`, 201, true},
			{"PUT", "/v1/todos/2", `{"title": "replaced"}`, 200, false},
		} {
			got := obj(t, m.call(t, nil, tt.method, tt.path, tt.body, tt.status))
			if got["done"] != tt.done {
				t.Errorf("%d: %s %s %s: done is %v, want %v", i, tt.method, tt.path, tt.body, got["done"], tt.done)
			}
		}
	})
}

// A spec of webhooks alone serves nothing: the mock starts, and says so.
func TestNothingToServeIsWarned(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus", "webhook-example-3.1.yaml")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("no corpus beside the repository")
	}
	serveOnce(t, Options{Specs: []SpecSource{{Path: corpus}}, WatchInterval: -1}, func(m *testMock) {
		m.call(t, nil, "GET", "/pets", "", 404)
		if logs := m.logs.String(); !strings.Contains(logs, `"msg":"the spec declares no operation to serve: every request to it is answered 404"`) || !strings.Contains(logs, `"webhooks":1`) {
			t.Errorf("no warning of a spec with nothing to serve:\n%s", logs)
		}
	})
}
