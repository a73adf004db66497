package validate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// corpus is ../shared/corpus: real specifications, each with the problems
// found in it and verified by hand against its specification. A
// specification without problems is one whose structure holds: these
// lists are the guard against false positives.
var corpus = []struct {
	file  string
	large bool
	want  []string // "line:col message"
}{
	{file: "petstore-expanded.yaml"},
	{file: "uspto.yaml"},
	{file: "uber-v2.json"},
	{file: "webhook-example-3.1.yaml"},
	{file: "petstore-separate-v2/spec/swagger.yaml"},
	{file: "asyncapi-slack-rtm.yml"},
	{file: "asyncapi-streetlights-kafka-2.6.yml"},
	{file: "discord.json", large: true},
	{file: "twilio-api-v2010.json", large: true},
	{file: "kubernetes.json", large: true},
	{file: "stripe.yaml", large: true},
	{file: "github.json", large: true},
	// OpenAPI 3.1 schemas are JSON Schema 2020-12, where exclusiveMinimum
	// is a number: these are the OpenAPI 3.0 boolean form left over.
	{file: "openai.yaml", large: true, want: []string{
		`35081:19 "exclusiveMinimum" must be a number, found boolean true`,
		`39926:15 "exclusiveMinimum" must be a number, found boolean true`,
		`39953:15 "exclusiveMinimum" must be a number, found boolean true`,
		`40023:15 "exclusiveMinimum" must be a number, found boolean true`,
		`40060:15 "exclusiveMinimum" must be a number, found boolean true`,
		`40130:15 "exclusiveMinimum" must be a number, found boolean true`,
		`40337:19 "exclusiveMinimum" must be a number, found boolean true`,
	}},
}

func TestCorpus(t *testing.T) {
	for _, c := range corpus {
		t.Run(c.file, func(t *testing.T) {
			if c.large && testing.Short() {
				t.Skip("large specification")
			}
			t.Parallel()
			doc, err := spec.NewLoader(spec.Options{RefRoot: "../../shared/corpus"}).Load(context.Background(), "../../shared/corpus/"+c.file)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range Validate(doc) {
				got = append(got, fmt.Sprintf("%d:%d %s", p.Range.Start.Line, p.Range.Start.Col, p.Message))
				if p.File != doc.Root.Name {
					got[len(got)-1] = p.File + ":" + got[len(got)-1]
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestDeterministic validates the same document twice and expects the same
// problems in the same order.
func TestDeterministic(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), "testdata/oas30.yaml")
	if err != nil {
		t.Fatal(err)
	}
	first, second := Validate(doc), Validate(doc)
	if !slices.Equal(first, second) {
		t.Errorf("two runs differ:\n%v\n%v", first, second)
	}
	if !slices.IsSortedFunc(first, func(a, b Problem) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		return int(a.Range.Start.Line - b.Range.Start.Line)
	}) {
		t.Errorf("problems are not sorted by file and line: %v", first)
	}
}
