package spec_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/spec"
)

// corpusSpecs lists every specification of the corpus with the format and
// version SOURCES.md gives it and the files its $refs reach (entry file
// first, the rest by name, as Document.Files returns them).
var corpusSpecs = []struct {
	file    string
	version string // Document.String()
	json    bool
	files   []string
}{
	{file: "github.json", version: "OpenAPI 3.0.3", json: true},
	{file: "stripe.yaml", version: "OpenAPI 3.0.0"},
	{file: "kubernetes.json", version: "Swagger 2.0", json: true},
	{file: "openai.yaml", version: "OpenAPI 3.1.0"},
	{file: "twilio-api-v2010.json", version: "OpenAPI 3.0.1", json: true},
	{file: "discord.json", version: "OpenAPI 3.1.0", json: true},
	{file: "petstore-expanded.yaml", version: "OpenAPI 3.0.0"},
	{file: "uspto.yaml", version: "OpenAPI 3.0.1"},
	{file: "uber-v2.json", version: "Swagger 2.0", json: true},
	{file: "webhook-example-3.1.yaml", version: "OpenAPI 3.1.0"},
	{file: "petstore-separate-v2/spec/swagger.yaml", version: "Swagger 2.0", files: []string{
		"petstore-separate-v2/spec/swagger.yaml",
		"petstore-separate-v2/common/Error.yaml",
		"petstore-separate-v2/spec/NewPet.yaml",
		"petstore-separate-v2/spec/Pet.yaml",
		"petstore-separate-v2/spec/parameters.yaml",
	}},
	{file: "asyncapi-slack-rtm.yml", version: "AsyncAPI 3.1.0"},
	{file: "asyncapi-streetlights-kafka-2.6.yml", version: "AsyncAPI 2.6.0"},
}

func TestCorpusLoads(t *testing.T) {
	for _, c := range corpusSpecs {
		t.Run(c.file, func(t *testing.T) {
			doc := loadCorpus(t, c.file)
			if got := doc.String(); got != c.version {
				t.Errorf("detected %s, want %s", got, c.version)
			}
			if doc.Root.JSON != c.json {
				t.Errorf("JSON = %v, want %v", doc.Root.JSON, c.json)
			}
			want := c.files
			if want == nil {
				want = []string{c.file}
			}
			var got []string
			for _, f := range doc.Files() {
				rel, err := filepath.Rel(corpusDir, f.Name)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, filepath.ToSlash(rel))
			}
			if !slices.Equal(got, want) {
				t.Errorf("files %q, want %q", got, want)
			}
			if len(doc.Refs) == 0 {
				t.Error("no $refs found")
			}
			for _, r := range doc.Refs {
				if r.Err != nil {
					t.Errorf("broken $ref: %v", r.Err)
				} else if r.Target == nil {
					t.Errorf("%s#%s: $ref %q has neither a target nor an error", r.File.Name, r.Pointer(), r.Value)
				}
			}
		})
	}
}

// TestCorpusIsListed keeps corpusSpecs complete: a specification added to
// the corpus must be added to the table above.
func TestCorpusIsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range corpusSpecs {
		listed[c.file] = true
		for _, f := range c.files {
			listed[f] = true
		}
	}
	err := filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(corpusDir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if corpusspecs.IsSpecFile(d.Name()) && !listed[rel] {
			t.Errorf("%s is not in corpusSpecs", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// refInText matches "$ref" with a string value in JSON or YAML (not a
// property named "$ref", whose value is a schema).
var refInText = regexp.MustCompile(`\$ref"?\s*:\s*[^\s{\[]`)

// TestCorpusRefsAllFound: in these specifications every "$ref" with a string
// value is a reference (none sits in example data or an x- extension), so
// the loader must register each one.
func TestCorpusRefsAllFound(t *testing.T) {
	for _, name := range []string{
		"kubernetes.json", "openai.yaml", "twilio-api-v2010.json", "discord.json", "petstore-expanded.yaml",
		"uspto.yaml", "uber-v2.json", "webhook-example-3.1.yaml", "petstore-separate-v2/spec/swagger.yaml",
		"asyncapi-slack-rtm.yml", "asyncapi-streetlights-kafka-2.6.yml",
	} {
		doc := loadCorpus(t, name)
		inText := 0
		for _, f := range doc.Files() {
			data, err := os.ReadFile(f.Name)
			if err != nil {
				t.Fatal(err)
			}
			inText += len(refInText.FindAllIndex(data, -1))
		}
		if len(doc.Refs) != inText {
			t.Errorf("%s: %d $refs found, the text has %d", name, len(doc.Refs), inText)
		}
	}
}

// TestRefsUnderLiteralKeyNames: "default", "example" and the like hold
// literal data only as schema keywords. As the name of a response, of an
// example, or of a property they hold a value whose $ref is a reference.
// Conversely a property named like a map of names ("headers") is a schema,
// whose example and extensions are still literal data.
func TestRefsUnderLiteralKeyNames(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("testdata", "refs", "literal-key-names.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range doc.Refs {
		got = append(got, r.Pointer())
		if r.Err != nil {
			t.Errorf("%s: %v", r.Pointer(), r.Err)
		}
	}
	slices.Sort(got)
	want := []string{
		"/components/schemas/Limits/properties/default",
		"/components/schemas/Limits/properties/example",
		"/paths/~1pets/get/responses/200/content/application~1json/examples/default",
		"/paths/~1pets/get/responses/200/content/application~1json/schema",
		"/paths/~1pets/get/responses/default",
	}
	if !slices.Equal(got, want) {
		t.Errorf("refs at\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// BenchmarkLoad measures loading large specifications from disk: read,
// parse, detect and resolve $refs.
func BenchmarkLoad(b *testing.B) {
	for _, name := range []string{"github.json", "stripe.yaml"} {
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(corpusDir, name)
			st, err := os.Stat(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(st.Size())
			b.ReportAllocs()
			l := spec.NewLoader(spec.Options{})
			ctx := context.Background()
			for b.Loop() {
				if _, err := l.Load(ctx, path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
