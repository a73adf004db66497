package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/spec"
)

// example is one answer the mock may give: a response (status, headers,
// media type, body) and, when it has one, the request it answers. A
// request matches an example when it has every value the example's
// request names (a partial example names only some); an example without
// a request matches every request of its operation.
type example struct {
	name string
	// source is where the example is written, file:line:col.
	source string
	// origin orders examples of equal specificity: expectations added at
	// run time first (newest first), then external files (by path), then
	// inline examples (in source order).
	origin origin
	seq    int

	request  *requestMatch
	status   int
	response *spec.Response
	media    string // "" when the answer has no body
	headers  map[string]string
	body     any
	hasBody  bool
	// raw is a body to send as it is (a text or binary example).
	raw []byte

	delay      time.Duration
	transient  bool
	badRequest bool // answers requests that break the contract

	usage *exCounter
}

type origin uint8

const (
	fromExpectation origin = iota
	fromFile
	fromSpec
)

// requestMatch is what a request must hold to match an example.
type requestMatch struct {
	method string
	params []paramMatch
	body   any
	// hasBody says whether the body is constrained; partial whether only
	// the members it names are.
	hasBody bool
	partial bool
}

// paramMatch is one parameter value an example's request names.
type paramMatch struct {
	in, name string
	value    any
}

// specificity is how many values an example's request names: the most
// specific example that matches a request answers it.
func (m *requestMatch) specificity() int {
	if m == nil {
		return 0
	}
	n := len(m.params)
	if m.hasBody {
		n += 1 + countLeaves(m.body)
	}
	return n
}

func countLeaves(v any) int {
	switch t := v.(type) {
	case map[string]any:
		n := 0
		for _, x := range t {
			n += countLeaves(x)
		}
		return n
	case []any:
		n := 0
		for _, x := range t {
			n += countLeaves(x)
		}
		return n
	}
	return 1
}

// contains tells whether got holds want: equal scalars (numbers by value,
// a parameter's text against a typed value by its text), objects holding
// each member of want (all of them and no others unless partial), arrays
// item by item.
func contains(got, want any, partial bool) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || (!partial && len(g) != len(w)) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !contains(gv, wv, partial) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !contains(g[i], w[i], partial) {
				return false
			}
		}
		return true
	}
	return scalarText(got) == scalarText(want) && (got == nil) == (want == nil)
}

// scalarText is a scalar's text: numbers compared by value (1.0 is 1).
func scalarText(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		if f, err := strconv.ParseFloat(string(t), 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return string(t)
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64)
	case int:
		return strconv.Itoa(t)
	}
	return fmt.Sprint(v)
}

// nodeValue converts a spec node into a JSON value (numbers as
// json.Number, as encoding/json decodes with UseNumber).
func nodeValue(n *spec.Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case spec.Bool:
		return n.Value == "true"
	case spec.Number:
		return json.Number(n.Value)
	case spec.String:
		return n.Value
	case spec.Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Key] = nodeValue(f.Value)
		}
		return m
	case spec.Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = nodeValue(it)
		}
		return s
	}
	return nil
}

// decodeJSON decodes a JSON body with UseNumber.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("text follows the JSON value")
	}
	return v, nil
}

// usedSet records the transient examples already used: each answers one
// request, then no more until the specs reload or the expectations are
// cleared.
type usedSet struct {
	mu   sync.Mutex
	used map[string]bool // by example source and name
}

func (u *usedSet) key(ex *example) string { return ex.source + "\x00" + ex.name }

// take marks a transient example used; false when it was already.
func (u *usedSet) take(ex *example) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.used == nil {
		u.used = map[string]bool{}
	}
	k := u.key(ex)
	if u.used[k] {
		return false
	}
	u.used[k] = true
	return true
}

func (u *usedSet) isUsed(ex *example) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.used[u.key(ex)]
}

func (u *usedSet) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.used = nil
}

// statusOf reads a response's status key as a status to send: the code
// itself, 200-style for a range (2XX → 200), 0 for default.
func statusOf(key string) int {
	if n, err := strconv.Atoi(key); err == nil {
		return n
	}
	if len(key) == 3 && strings.EqualFold(key[1:], "xx") && key[0] >= '1' && key[0] <= '5' {
		return int(key[0]-'0') * 100
	}
	return 0
}
