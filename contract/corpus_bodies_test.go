package contract_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// generated draws a value valid for a media type's schema, or says why it
// cannot: no schema, a generator that fails or panics, or a value that its
// own schema refuses (the schema package's concern, not the contract's).
func generated(set *schema.Set, mt *spec.MediaType, dir schema.Direction, seed uint64) (v any, why string) {
	if mt.Schema == nil {
		return nil, "no schema"
	}
	defer func() {
		if r := recover(); r != nil {
			v, why = nil, fmt.Sprint("panic: ", r)
		}
	}()
	s, err := set.Compile(mt.Schema, mt.SchemaSource)
	if err != nil {
		return nil, err.Error()
	}
	v, err = s.Generate(schema.NewGenerator(seed), dir)
	if err != nil {
		return nil, err.Error()
	}
	if probs := s.Validate(v, dir); len(probs) > 0 {
		return nil, "generated an invalid value: " + probs[0].String()
	}
	return v, ""
}

func needGeneration(t *testing.T) {
	t.Helper()
	needValidation(t)
	doc := loadFixture(t, "check-3.1.yaml")
	mt := doc.Views().Operations[0].Responses[0].Content[0]
	if _, why := generated(schema.NewSet(doc), mt, schema.Response, 1); why != "" {
		t.Skip("the schema package does not generate values yet: " + why)
	}
}

// writable reports whether the contract writes and reads back a media
// type of the corpus: JSON, forms and multipart.
func writable(name string) bool {
	name = strings.ToLower(name)
	return strings.Contains(name, "json") || strings.HasPrefix(name, "application/x-www-form-urlencoded") || strings.HasPrefix(name, "multipart/form-data")
}

// TestCorpusBodiesRoundTrip generates a valid request body for operations
// of the corpus documents, in each media type the contract writes, builds
// the request, checks it as a server and requires no problem and the same
// value read back; and generates each response's body, checks it as a
// client and requires no problem. Every operation of the small documents,
// every eighth of the large ones; all of them with
// SPECGATE_CONTRACT_CORPUS=1 (some 20 s more).
func TestCorpusBodiesRoundTrip(t *testing.T) {
	needGeneration(t)
	every := os.Getenv("SPECGATE_CONTRACT_CORPUS") != ""
	for _, name := range []string{"stripe.yaml", "github.json", "openai.yaml", "discord.json", "twilio-api-v2010.json", "kubernetes.json",
		"petstore-expanded.yaml", "uspto.yaml", "uber-v2.json", "petstore-separate-v2/spec/swagger.yaml"} {
		t.Run(name, func(t *testing.T) {
			doc := corpustest.Load(t, name)
			stride := 1
			if !every && doc.Root.Size > 1<<20 {
				stride = 8
			}
			set := schema.NewSet(doc)
			c, err := contract.New(doc, set, contract.Options{})
			if err != nil {
				t.Fatal(err)
			}
			creds := map[string]string{}
			for _, s := range doc.Views().SecuritySchemes {
				creds[s.Name] = "user:secret"
			}
			var requests, responses, skipped int
			for i, op := range c.Operations() {
				if i%stride != 0 {
					continue
				}
				v := contract.Values{Path: map[string]any{}, Credentials: creds}
				for _, p := range op.Parameters {
					if p.In == "path" {
						v.Path[p.Name] = valueFor(doc, p.Schema, 0)
					}
				}
				if rb := op.RequestBody; rb != nil {
					for _, mt := range rb.Content {
						if !writable(mt.Name) || strings.Contains(mt.Name, "*") {
							continue
						}
						body, why := generated(set, mt, schema.Request, uint64(i))
						if why != "" {
							skipped++
							continue
						}
						requests++
						v.Body, v.MediaType = body, mt.Name
						built, err := c.BuildRequest(op, v)
						if err != nil {
							t.Errorf("%s %s (%s): %v", op.Method, op.Path, mt.Name, err)
							continue
						}
						res := c.CheckRequest(built.Request(c.Prefix(op)))
						var probs []string
						for _, p := range res.Problems {
							if p.In == contract.InBody || p.In == contract.InContentType {
								probs = append(probs, p.String())
							}
						}
						if len(probs) > 0 {
							t.Errorf("%s %s (%s): %s\n  body %s", op.Method, op.Path, mt.Name, strings.Join(probs, "\n  "), abbreviate(built.Body))
							continue
						}
						if len(built.Body) == 0 {
							continue // an empty form: no body at all
						}
						got, want := normalize(res.Body), normalize(body)
						if !strings.Contains(mt.Name, "json") {
							// A form has no way to send a null, an empty
							// object or an empty list: they arrive as
							// nothing.
							got, want = dropEmpty(got), dropEmpty(want)
						}
						if at := differ(got, want, "$"); at != "" {
							t.Errorf("%s %s (%s): read back differs at %s\n  body %s", op.Method, op.Path, mt.Name, at, abbreviate(built.Body))
						}
					}
				}
				for _, r := range op.Responses {
					status := statusFor(op, r.Status)
					for _, mt := range r.Content {
						if !strings.Contains(mt.Name, "json") || strings.Contains(mt.Name, "*") || status == http.StatusNoContent {
							continue
						}
						body, why := generated(set, mt, schema.Response, uint64(i))
						if why != "" {
							skipped++
							continue
						}
						responses++
						data, err := json.Marshal(body)
						if err != nil {
							t.Fatal(err)
						}
						h := http.Header{"Content-Type": {mt.Name}}
						for _, hd := range r.Headers {
							if hd.Required && hd.Schema != nil {
								h.Set(hd.Name, fmt.Sprint(valueFor(doc, hd.Schema, 0)))
							}
						}
						for _, p := range c.CheckResponse(op, &contract.Response{Status: status, Header: h, Body: data}) {
							if p.In != contract.InHeader {
								t.Errorf("%s %s %s (%s): %s", op.Method, op.Path, r.Status, mt.Name, p)
							}
						}
					}
				}
			}
			t.Logf("%d request bodies, %d response bodies checked; %d not generated", requests, responses, skipped)
		})
	}
}

// normalize makes values comparable across a round trip: numbers by
// their value (1.0 and 1 alike).
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return f
	case []any:
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = normalize(it)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, it := range x {
			out[k] = normalize(it)
		}
		return out
	}
	return v
}

// dropEmpty removes nulls, empty objects and empty arrays, and what is
// left empty by their removal.
func dropEmpty(v any) any {
	switch x := v.(type) {
	case []any:
		out := []any{}
		for _, it := range x {
			if d := dropEmpty(it); !isEmpty(d) {
				out = append(out, d)
			}
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, it := range x {
			if d := dropEmpty(it); !isEmpty(d) {
				out[k] = d
			}
		}
		return out
	}
	return v
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// differ returns the JSON path of the first difference between two
// values, "" when they are equal.
func differ(got, want any, at string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s (got %s, want an object)", at, mustJSON(got))
		}
		for k, wv := range w {
			if d := differ(g[k], wv, at+"."+k); d != "" {
				return d
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s.%s (not sent, read %s)", at, k, mustJSON(g[k]))
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s (got %s, want %s)", at, mustJSON(got), mustJSON(want))
		}
		for i := range w {
			if d := differ(g[i], w[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s (got %s, want %s)", at, mustJSON(got), mustJSON(want))
	}
	return ""
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func abbreviate(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// statusFor is a status that a response key stands for: the status
// itself, the first of a range (2XX: 200) or, for default, the first
// status from 500 up that the operation declares in no other way.
func statusFor(op *spec.Operation, key string) int {
	if n, err := strconv.Atoi(key); err == nil {
		return n
	}
	if len(key) == 3 && key[0] >= '1' && key[0] <= '5' {
		return int(key[0]-'0') * 100
	}
	taken := map[string]bool{}
	for _, r := range op.Responses {
		taken[strings.ToUpper(r.Status)] = true
	}
	for n := 500; n < 600; n++ {
		if !taken[strconv.Itoa(n)] && !taken["5XX"] {
			return n
		}
	}
	return 599
}
