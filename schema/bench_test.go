package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// BenchmarkCompileStripe compiles every schema of stripe.yaml (the views'
// 15,000 schemas, named and inline) into a new set, for requests.
func BenchmarkCompileStripe(b *testing.B) {
	doc := corpustest.Load(b, "stripe.yaml")
	schemas := doc.Views().Schemas
	b.ResetTimer()
	for b.Loop() {
		set := schema.NewSet(doc)
		for _, s := range schemas {
			if _, err := set.Compile(s.Node, s.Source); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(schemas)), "schemas/op")
}

// stripeValue returns stripe.yaml's charge schema, compiled, and a value of
// it of about size bytes of JSON.
func stripeValue(b *testing.B, size int) (*schema.Schema, any, int) {
	doc := corpustest.Load(b, "stripe.yaml")
	const ptr = "/components/schemas/charge"
	var node *spec.Node
	for _, s := range doc.Views().Schemas {
		if spec.Pointer(s.Source) == ptr {
			node = s.Node
		}
	}
	sc, err := schema.NewSet(doc).Compile(node, spec.PointerPath(ptr))
	if err != nil {
		b.Fatal(err)
	}
	for budget := 50; budget < 100000; budget += budget / 4 {
		v, err := sc.Generate(schema.NewGeneratorWith(7, schema.GeneratorOptions{MaxValues: budget, PreferGenerated: true}), schema.Response)
		if err != nil {
			b.Fatal(err)
		}
		if text, _ := json.Marshal(v); len(text) >= size {
			return sc, v, len(text)
		}
	}
	b.Fatal("no value of that size")
	return nil, nil, 0
}

// BenchmarkValidate10KB validates a 10 KB response body against stripe's
// charge schema, compiled.
func BenchmarkValidate10KB(b *testing.B) {
	sc, v, n := stripeValue(b, 10<<10)
	if ps := sc.Validate(v, schema.Response); ps != nil {
		b.Fatal(ps)
	}
	b.SetBytes(int64(n))
	b.ResetTimer()
	for b.Loop() {
		if ps := sc.Validate(v, schema.Response); ps != nil {
			b.Fatal(ps)
		}
	}
}

// BenchmarkGenerate generates a value of stripe's charge schema, with the
// default bounds, and checks it (as Generate always does).
func BenchmarkGenerate(b *testing.B) {
	sc, _, _ := stripeValue(b, 0)
	var seed uint64
	var size int
	for b.Loop() {
		seed++
		v, err := sc.Generate(schema.NewGenerator(seed), schema.Response)
		if err != nil {
			b.Fatal(err)
		}
		if seed == 1 {
			text, _ := json.Marshal(v)
			size = len(text)
		}
	}
	b.ReportMetric(float64(size), "bytes/value")
}
