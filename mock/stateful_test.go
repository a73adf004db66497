package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/httpx"
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
	m.call(t, nil, "GET", "/api/users/2/orders/"+nos[0], "", 404)
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
	p := m.do(t, "POST", "/api/products", map[string]string{"Content-Type": "application/json"}, `{"sku": "DESK-2", "title": "Other", "price": 1}`)
	if pr := p.problem(t, 409, kindConflict); !strings.Contains(pr.Detail, "DESK-2 exists already") {
		t.Errorf("detail %q", pr.Detail)
	}
	first := obj(t, m.call(t, k, "GET", "/api/products?limit=1", "", 200))
	if first["has_more"] != true || first["next_cursor"] != "LAMP-1" || names(t, response{body: mustJSON(first)}, "data")[0] != "Lamp" {
		t.Errorf("first page %v", first)
	}
	second := obj(t, m.call(t, k, "GET", "/api/products?limit=1&cursor=LAMP-1", "", 200))
	if second["has_more"] != false || second["next_cursor"] != nil || names(t, response{body: mustJSON(second)}, "data")[0] != "Desk" {
		t.Errorf("second page %v", second)
	}

	bad := m.do(t, "POST", "/api/reviews", map[string]string{"Content-Type": "application/json"}, `{"user_id": 99, "product_sku": "LAMP-1", "stars": 5}`)
	if pr := bad.problem(t, 400, kindBadRequest); !strings.Contains(pr.Detail, "user_id 99 names no resource of users") {
		t.Errorf("detail %q", pr.Detail)
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
	users := dump.Specs[storeSpec].Collections["users"]
	if users.Count != 3 {
		t.Errorf("users in the dump: %+v", users)
	}
	if orders := dump.Specs[storeSpec].Collections["orders"]; orders.Count != 1 || orders.Items[0].Parents["userId"] != "2" {
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
	run := func(fn func(m *testMock)) {
		srv, err := New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := httpx.Listen("", 0)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, ln) }()
		fn(&testMock{Server: srv, url: httpx.BaseURL(ln.Addr())})
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
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
	if got := obj(t, r); got["code"] != json.Number("404") || !strings.Contains(got["message"].(string), "no pets resource has id "+id) {
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
