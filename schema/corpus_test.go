package schema_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// unsatisfiable lists the schemas of the corpus that no value satisfies,
// by spec and the schema's source path as a JSON pointer, with why. The
// property test fails when one of them generates after all.
var unsatisfiable = map[string]string{
	"discord.json /paths/~1guilds~1{guild_id}~1requests/get/parameters/0/schema":                                                            "enum: [] lists no value",
	"discord.json /paths/~1guilds~1{guild_id}~1requests~1{request_id}/patch/requestBody/content/application~1json/schema/properties/action": "enum: [] lists no value",
}

// schemaAt is a schema of a document with the path it is reached by.
type schemaAt struct {
	node *spec.Node
	src  spec.Path
}

// documentSchemas lists every schema of a document once: the views'
// schemas, and the schemas of every parameter, header and media type
// (Swagger 2.0 parameters and headers are their own schemas).
func documentSchemas(doc *spec.Document) []schemaAt {
	v := doc.Views()
	var out []schemaAt
	seen := map[*spec.Node]bool{}
	add := func(n *spec.Node, src spec.Path) {
		if n != nil && !seen[n] {
			seen[n] = true
			out = append(out, schemaAt{n, src})
		}
	}
	for _, s := range v.Schemas {
		add(s.Node, s.Source)
	}
	params := func(ps []*spec.Parameter) {
		for _, p := range ps {
			add(p.Schema, p.SchemaSource)
		}
	}
	media := func(ms []*spec.MediaType) {
		for _, m := range ms {
			add(m.Schema, m.SchemaSource)
		}
	}
	params(v.Parameters)
	for _, op := range slices.Concat(v.Operations, v.Webhooks, v.Callbacks) {
		params(op.Parameters)
		if op.RequestBody != nil {
			media(op.RequestBody.Content)
			params(op.RequestBody.FormData)
		}
		for _, r := range op.Responses {
			media(r.Content)
			for _, h := range r.Headers {
				add(h.Schema, h.SchemaSource)
			}
		}
	}
	return out
}

// TestGenerateCorpus is the property test of generation: for every schema
// of every corpus specification, in both directions, a generated value
// passes Validate. Without SPECGATE_CORPUS=1 the large specifications are
// sampled (every 20th schema, every 200th under the race detector, and
// those listed as unsatisfiable).
func TestGenerateCorpus(t *testing.T) {
	full := os.Getenv("SPECGATE_CORPUS") == "1"
	every := 20
	if raceEnabled {
		every = 200
	}
	for _, name := range corpustest.OpenAPI {
		t.Run(name, func(t *testing.T) {
			doc := corpustest.Load(t, name)
			set := schema.NewSet(doc)
			large := doc.Root.Size > 1<<20
			generated := 0
			found := map[string]bool{}
			for i, s := range documentSchemas(doc) {
				key := name + " " + spec.Pointer(s.src)
				reason, isListed := unsatisfiable[key]
				if large && !full && i%every != 0 && !isListed {
					continue
				}
				sc, err := set.Compile(s.node, s.src)
				if err != nil {
					t.Errorf("%s: %v", key, err)
					continue
				}
				for _, dir := range []schema.Direction{schema.Request, schema.Response} {
					v, err := sc.Generate(schema.NewGenerator(uint64(i)), dir)
					switch {
					case isListed && err == nil:
						t.Errorf("%s (%s): listed as unsatisfiable (%s), but generated %s", key, dir, reason, text(v))
					case isListed:
						found[key] = true
					case err != nil:
						t.Errorf("%s (%s): %v", key, dir, err)
					default:
						generated++
						if ps := sc.Validate(v, dir); ps != nil {
							t.Errorf("%s (%s): generated %s fails its schema: %v", key, dir, text(v), ps)
						}
					}
				}
			}
			for key := range unsatisfiable {
				if strings.HasPrefix(key, name+" ") && !found[key] {
					t.Errorf("%s: listed as unsatisfiable but not among the schemas", key)
				}
			}
			t.Logf("%d values generated and valid", generated)
		})
	}
}
