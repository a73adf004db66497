package spec_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

var updateViews = flag.Bool("update", false, "rewrite the golden files of the views tests")

// TestViewsGolden dumps the normalized views of each fixture in
// testdata/views, with every source path resolved to file:line:col, and
// compares them with the fixture's .golden.json file.
func TestViewsGolden(t *testing.T) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "views", "*.yaml"))
	if len(fixtures) < 6 {
		t.Fatalf("expected fixtures for swagger2, oas3.0, oas3.1, oas3.2, asyncapi2, asyncapi3; found %d", len(fixtures))
	}
	for _, f := range fixtures {
		t.Run(filepath.Base(f), func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(dumpViews(doc), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(f, ".yaml") + ".golden.json"
			if *updateViews {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./spec -run TestViewsGolden -update)", err)
			}
			if strings.TrimSpace(string(want)) != strings.TrimSpace(string(got)) {
				t.Errorf("views differ from %s (rerun with -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

func dumpViews(doc *spec.Document) map[string]any {
	v := doc.Views()
	at := func(p spec.Path) string {
		loc := doc.Locate(p, nil)
		return fmt.Sprintf("%s @ %s:%d:%d", spec.Pointer(p), filepath.Base(loc.File.Name), loc.Range.Start.Line, loc.Range.Start.Col)
	}
	params := func(ps []*spec.Parameter) []string {
		out := []string{}
		for _, p := range ps {
			s := fmt.Sprintf("%s in %s required=%v schema=%s", p.Name, p.In, p.Required, at(p.SchemaSource))
			if p.Component != "" {
				s += " component=" + p.Component
			}
			out = append(out, s+" source="+at(p.Source))
		}
		return out
	}
	media := func(ms []*spec.MediaType) []string {
		out := []string{}
		for _, m := range ms {
			s := m.Name
			if m.Schema != nil {
				s += " schema=" + at(m.SchemaSource)
			}
			out = append(out, s)
		}
		return out
	}
	security := func(s *spec.Security) any {
		if s == nil {
			return nil
		}
		out := []string{}
		for _, a := range s.Alternatives {
			var names []string
			for _, sc := range a.Schemes {
				names = append(names, sc.Name+strings.Join(append([]string{""}, sc.Scopes...), ":"))
			}
			out = append(out, "{"+strings.Join(names, ",")+"} @ "+at(a.Source))
		}
		return out
	}
	ops := func(list []*spec.Operation) []map[string]any {
		out := []map[string]any{}
		for _, op := range list {
			o := map[string]any{
				"op":          strings.ToUpper(op.Method) + " " + op.Path,
				"operationId": op.OperationID,
				"source":      at(op.Source),
				"parameters":  params(op.Parameters),
				"security":    security(op.Security),
			}
			if op.Webhook != "" {
				o["webhook"] = op.Webhook
			}
			if op.Callback != "" {
				o["callback"] = op.Callback
			}
			if rb := op.RequestBody; rb != nil {
				o["requestBody"] = map[string]any{"required": rb.Required, "content": media(rb.Content), "formData": params(rb.FormData), "source": at(rb.Source)}
			}
			var resps []string
			for _, r := range op.Responses {
				s := r.Status + " " + strings.Join(media(r.Content), ", ")
				for _, h := range r.Headers {
					s += fmt.Sprintf(" header %s required=%v schema=%s", h.Name, h.Required, at(h.SchemaSource))
				}
				resps = append(resps, s)
			}
			o["responses"] = resps
			if len(op.Servers) > 0 {
				var urls []string
				for _, s := range op.Servers {
					urls = append(urls, s.URL)
				}
				o["servers"] = urls
			}
			out = append(out, o)
		}
		return out
	}
	out := map[string]any{
		"document":   doc.String(),
		"formats":    doc.FormatTags(),
		"operations": ops(v.Operations),
		"webhooks":   ops(v.Webhooks),
		"callbacks":  ops(v.Callbacks),
		"parameters": params(v.Parameters),
		"security":   security(v.Security),
	}
	var schemas, schemes, servers, tags, channels, aops, msgs []string
	for _, s := range v.Schemas {
		schemas = append(schemas, fmt.Sprintf("%q %s", s.Name, at(s.Source)))
	}
	for _, s := range v.SecuritySchemes {
		schemes = append(schemes, fmt.Sprintf("%s type=%s scheme=%s in=%s name=%s %s", s.Name, s.Type, s.Scheme, s.In, s.ParamName, at(s.Source)))
	}
	for _, s := range v.Servers {
		servers = append(servers, s.URL+" "+at(s.Source))
	}
	for _, tg := range v.Tags {
		tags = append(tags, tg.Name+" "+at(tg.Source))
	}
	for _, c := range v.Channels {
		var names []string
		for _, m := range c.Messages {
			names = append(names, m.Name)
		}
		channels = append(channels, fmt.Sprintf("%s address=%s messages=%v %s", c.ID, c.Address, names, at(c.Source)))
	}
	for _, op := range v.AsyncOperations {
		var names []string
		for _, m := range op.Messages {
			names = append(names, m.Name)
		}
		line := fmt.Sprintf("%s %s channel=%s messages=%v %s", op.Action, op.ID, op.Channel, names, at(op.Source))
		if op.Security != nil {
			line += fmt.Sprintf(" security=%v", security(op.Security))
		}
		aops = append(aops, line)
	}
	for _, m := range v.Messages {
		s := m.Name + " " + at(m.Source)
		if m.Payload != nil {
			s += " payload=" + at(m.PayloadSource)
		}
		msgs = append(msgs, s)
	}
	for k, list := range map[string][]string{"schemas": schemas, "securitySchemes": schemes, "servers": servers, "tags": tags,
		"channels": channels, "asyncOperations": aops, "messages": msgs} {
		if len(list) > 0 {
			out[k] = list
		}
	}
	return out
}
