package apitest

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Kind is where a test's request comes from.
type Kind uint8

const (
	// FromExample sends an example's request and expects its response.
	FromExample Kind = iota + 1
	// Generated sends a valid request generated from the schemas and
	// expects a declared status with a valid response.
	Generated
	// Negative sends a request that breaks the contract in one place and
	// expects the service to reject it with a 4xx.
	Negative
)

var kindNames = [...]string{FromExample: "example", Generated: "generated", Negative: "negative"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Test is one request to send and what to expect of its response. Its
// five identifiers (path, method, request content type, status, response
// content type) group it in reports; with its spec, kind and name they
// make its identity, which filters, shards and reports read.
type Test struct {
	Spec   string // the spec as named on the command line or in specgate.yaml
	Path   string // the operation's path template
	Method string // upper case
	// RequestType is the request's content type, "" without a body.
	RequestType string
	// Status is the status the test expects: an example's status ("404"),
	// or the response key a generated request aims at ("200", "2XX",
	// "default"); for negative tests the class it expects ("4XX").
	Status string
	// ResponseType is the content type asked for (Accept) and expected,
	// "" when the response has no body.
	ResponseType string
	Kind         Kind
	// Name tells tests of the same identifiers apart: the example's name,
	// "generated", or what a negative request breaks.
	Name string
	// Source is where the test comes from: an example file, or the place
	// of the operation in the spec (file:line:col).
	Source string

	// Seq is the test's position in the run, from 0, in plan order.
	Seq int

	op   *operation
	make maker
	// neg is the broken part of a negative test's request.
	neg *mutation
	// optional makes a generated request send every optional parameter.
	optional bool
	// refuses names what the request sends that the spec does not declare,
	// for the service to refuse: refusesMethod (a 405 test: no operation
	// answers it) or refusesMediaType (a 415 test); "" for other tests.
	refuses string
}

// What a test's request sends that the spec does not declare.
const (
	refusesMethod    = "method"
	refusesMediaType = "media type"
)

// refusal reports whether a test proves that the service refuses what the
// spec does not declare: a negative test, or an example of an undeclared
// method or Content-Type. Its answer covers a declared response at most;
// it never makes a combination "missing in spec".
func (t *Test) refusal() bool {
	return t.Kind == Negative || t.refuses != ""
}

// ID is the test's identity: stable across runs of the same spec,
// examples and options, whatever the order, parallelism or shard.
func (t *Test) ID() string {
	return t.Spec + " | " + t.Method + " " + t.Path + " | " + t.RequestType + " | " + t.Status + " | " +
		t.ResponseType + " | " + t.Kind.String() + ": " + t.Name
}

// Title names the test on one line: "GET /pets/{id} -> 200
// application/json (example: found)".
func (t *Test) Title() string {
	var b strings.Builder
	b.WriteString(t.Method)
	b.WriteByte(' ')
	b.WriteString(t.Path)
	if t.RequestType != "" {
		b.WriteString(" [")
		b.WriteString(t.RequestType)
		b.WriteByte(']')
	}
	b.WriteString(" -> ")
	b.WriteString(t.Status)
	if t.ResponseType != "" {
		b.WriteByte(' ')
		b.WriteString(t.ResponseType)
	}
	b.WriteString(" (")
	b.WriteString(t.Kind.String())
	if t.Name != "" && t.Name != t.Kind.String() {
		b.WriteString(": ")
		b.WriteString(t.Name)
	}
	b.WriteByte(')')
	return b.String()
}

// hash is a stable 64-bit hash of the test's identity.
func (t *Test) hash() uint64 {
	h := fnv.New64a()
	h.Write([]byte(t.ID()))
	return h.Sum64()
}

// Shard selects the i-th of n parts of a run (1-based): a test belongs to
// the part its identity hashes to, so every test is in exactly one part
// and stays there whatever else is added or removed.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q is not i/n (such as 2/4)", s)
	}
	idx, err1 := strconv.Atoi(strings.TrimSpace(i))
	cnt, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil || cnt < 1 || idx < 1 || idx > cnt {
		return Shard{}, fmt.Errorf("shard %q is not i/n with 1 ≤ i ≤ n (such as 2/4)", s)
	}
	return Shard{Index: idx, Count: cnt}, nil
}

// Has reports whether t belongs to the shard; the zero Shard holds every
// test.
func (s Shard) Has(t *Test) bool {
	if s.Count <= 1 {
		return true
	}
	return int(t.hash()%uint64(s.Count)) == s.Index-1
}

func (s Shard) String() string {
	if s.Count <= 1 {
		return ""
	}
	return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count)
}
