package mock

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/spec"
)

// example is one answer the mock may give: a response (status, headers,
// media type, body) and, when it has one, the request it answers. A
// request matches an example when it has every value the example's
// request names (a partial example's body constrains only the members it
// names); an example without a request matches every request of its
// operation.
type example struct {
	name string
	// source is where the example is written, file:line:col.
	source string
	// origin orders examples of equal specificity: expectations added at
	// run time first (newest first), then external files (by path), then
	// inline examples (in source order).
	origin origin
	ex     *examples.Example
	// ctx resolves the example's notations: the environment, its data,
	// the dictionary; each answer adds the request it echoes.
	ctx *examples.Context

	request  *requestMatch
	status   int
	response *spec.Response // the declared response of status; nil for an undeclared 4xx
	media    string         // "" when the answer has no body
	headers  []examples.Param
	body     examples.Value // nil when the answer has no body
	// static is true when the response holds no notation: its values are
	// evaluated once, at load.
	static     bool
	staticBody any
	// raw is a body to send as it is (a text or binary example).
	raw []byte

	delay     time.Duration
	transient bool
	// limited is a transient example whose matchers count their uses
	// (times); others answer once.
	limited  bool
	matchers []matcherAt
	// notAllowed is the spec, path template and method of a 405 example,
	// which belongs to no operation.
	notAllowed string
	// kind is what the example answers: a valid request, or one that
	// breaks the contract in the way its status says.
	kind examples.Kind

	// checked records whether the example's static response was
	// validated against the spec, and the problem found.
	checked sync.Once
	invalid string
	// warned records that why the example does not answer was logged.
	warned atomic.Bool

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
	// contentType is the media type the request's Content-Type must have
	// ("" for any).
	contentType string
	params      []paramMatch
	body        examples.Value
	hasBody     bool
	// form is true when body is an object of form fields or multipart
	// parts (compared with the decoded form).
	form bool
	// raw is a body written as a string for a media type that is not JSON
	// (a 415 example's text), compared with the body as sent.
	raw *string
	// jsonText is set when body is a structure written for a text media
	// type: the request's text is read as JSON to be compared with it.
	jsonText bool
	// mode is how values are compared: Equal, or Subset for a partial
	// example.
	mode examples.Mode
}

// paramMatch is one parameter value an example's request names, typed by
// the parameter's schema.
type paramMatch struct {
	in, name string
	value    examples.Value
	// declared is false for a parameter the operation does not declare,
	// compared with its text as sent.
	declared bool
}

// specificity is how much an example's request names: each value it
// names (a parameter, a leaf of its body, its content type) counts, a
// value written literally twice as much as a matcher or a placeholder,
// which accept more than one value. The most specific example that
// matches a request answers it.
func (m *requestMatch) specificity() int {
	if m == nil {
		return 0
	}
	n := 0
	if m.contentType != "" {
		n += 2
	}
	for _, p := range m.params {
		n += leafWeight(p.value)
	}
	if m.hasBody {
		n += 2
		if m.body != nil {
			n += leafWeight(m.body)
		}
	}
	return n
}

// leafWeight sums the weights of the leaves of v: 2 for a literal, 1 for
// a notation.
func leafWeight(v examples.Value) int {
	n := 0
	examples.Walk(v, func(_ string, v examples.Value) bool {
		switch v.(type) {
		case *examples.Object, *examples.Array:
			return true
		case *examples.Literal:
			n += 2
		default:
			n++
		}
		return false
	})
	return n
}

// scalarText is a scalar's text: numbers as written, booleans and null by
// their JSON names.
func scalarText(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return t
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return string(t)
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64)
	case int:
		return strconv.Itoa(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// usedSet records the transient examples already used: each answers one
// request (or, with times on its matchers, until they are used up), then
// no more until the specs reload or the expectations are cleared.
type usedSet struct {
	mu   sync.Mutex
	used map[string]bool // by example source and name
	uses *examples.Uses
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

// counts are the uses of transient examples' matchers.
func (u *usedSet) counts() *examples.Uses {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.uses == nil {
		u.uses = &examples.Uses{}
	}
	return u.uses
}

func (u *usedSet) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.used, u.uses = nil, nil
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
