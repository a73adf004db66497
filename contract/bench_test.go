package contract_test

import (
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
)

// benchRequests builds one request per operation of a corpus document,
// with plain values for its path and required query parameters and
// credentials for its security, under the operation's server prefix.
func benchRequests(b *testing.B, name string) (*contract.Contract, []*contract.Request) {
	doc := corpustest.Load(b, name)
	c := newContract(b, doc, contract.Options{})
	var reqs []*contract.Request
	for _, op := range c.Operations() {
		v := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Credentials: map[string]string{}}
		for _, s := range doc.Views().SecuritySchemes {
			v.Credentials[s.Name] = "user:secret"
		}
		for _, p := range op.Parameters {
			if p.In == "path" || p.Required && p.In == "query" {
				map[string]map[string]any{"path": v.Path, "query": v.Query}[p.In][p.Name] = valueFor(doc, p.Schema, 0)
			}
		}
		built, err := c.BuildRequest(op, v)
		if err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, built.Request(c.Prefix(op)))
	}
	return c, reqs
}

// BenchmarkRoute routes a request to each operation in turn.
func BenchmarkRoute(b *testing.B) {
	for _, name := range []string{"github.json", "stripe.yaml"} {
		b.Run(name, func(b *testing.B) {
			c, reqs := benchRequests(b, name)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r := reqs[i%len(reqs)]
				if _, err := c.Route(r.Method, r.Path); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkCheckRequest checks a request of each operation in turn
// (routing, security, parameters; these requests carry no body), with
// every schema already compiled.
func BenchmarkCheckRequest(b *testing.B) {
	for _, name := range []string{"github.json", "stripe.yaml"} {
		b.Run(name, func(b *testing.B) {
			c, reqs := benchRequests(b, name)
			for _, r := range reqs {
				c.CheckRequest(r)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if res := c.CheckRequest(reqs[i%len(reqs)]); res.Route == nil {
					b.Fatal(res.Problems)
				}
				i++
			}
		})
	}
}
