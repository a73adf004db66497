package studio

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// ReportTest is one failed test of a CTRF report, as the add-response
// action offers it.
type ReportTest struct {
	Index       int    `json:"index"` // the test's place in the report
	Name        string `json:"name"`
	Spec        string `json:"spec,omitempty"` // the spec, relative to the folder
	Method      string `json:"method"`
	Path        string `json:"path"`
	Status      int    `json:"status"` // what the service answered
	ContentType string `json:"contentType,omitempty"`
	Message     string `json:"message"`
	// Addable is true when the spec declares neither the status nor, for
	// a declared status, the content type: adding the response is what the
	// action does. Why says why not otherwise.
	Addable bool   `json:"addable"`
	Why     string `json:"why,omitempty"`
}

// ReportResponse is GET /api/report.
type ReportResponse struct {
	Report string       `json:"report"`
	Tests  []ReportTest `json:"tests"`
}

// failedTest is what the action reads of a failed test.
type failedTest struct {
	ReportTest
	specAbs string
	body    []byte
	op      *spec.Operation
	doc     *spec.Document
}

// readReport reads the failed tests of a CTRF report that specgate test
// wrote, with the response each got, and judges each against its spec.
func (p *planner) readReport(rel string) ([]*failedTest, error) {
	abs, err := p.resolveFile("report", rel)
	if err != nil {
		return nil, err
	}
	var out []*failedTest
	i := -1
	_, err = reports.ReadCTRF(abs, func(t *reports.Test) error {
		i++
		if t.Status != reports.Failed {
			return nil
		}
		ft := &failedTest{ReportTest: ReportTest{Index: i, Name: t.Name, Method: t.Operation.Method, Path: t.Operation.Path, Message: t.Message}}
		if ex := lastAttempt(t); ex != nil && ex.Response != nil {
			ft.Status = ex.Response.Status
			for k, vs := range ex.Response.Headers {
				if strings.EqualFold(k, "Content-Type") && len(vs) > 0 {
					ft.ContentType, _, _ = mime.ParseMediaType(vs[0])
				}
			}
			if b := ex.Response.Body; b != nil && !b.Truncated && b.Base64 == "" {
				ft.body = []byte(b.Text)
			}
		}
		ft.specAbs = p.findSpec(abs, t.File)
		out = append(out, ft)
		return nil
	})
	var ce *reports.CTRFError
	if errors.As(err, &ce) {
		ce.File, ce.Err = rel, fmt.Errorf("not a CTRF report specgate test wrote: %w", ce.Err)
	}
	if err != nil {
		return nil, err
	}
	docs := map[string]*spec.Document{}
	for _, ft := range out {
		p.judge(ft, docs)
	}
	return out, nil
}

// lastAttempt is the exchange of a test's final attempt: the outputs list
// every attempt, then the probes the checks sent.
func lastAttempt(t *reports.Test) *reports.Exchange {
	probes := 0
	switch n := t.Extra["probes"].(type) {
	case json.Number:
		v, _ := n.Int64()
		probes = int(v)
	case float64:
		probes = int(n)
	case int:
		probes = n
	}
	if i := len(t.Outputs) - 1 - probes; i >= 0 {
		return &t.Outputs[i]
	}
	return nil
}

// findSpec finds the spec a test names: as written when it is absolute,
// else relative to the folder, to the report's folder or to the folder
// above it (specgate test writes specgate-reports/ in its working
// directory).
func (p *planner) findSpec(report, name string) string {
	if name == "" {
		return ""
	}
	var candidates []string
	if filepath.IsAbs(name) {
		candidates = []string{name}
	} else {
		candidates = []string{filepath.Join(p.s.ws.Dir(), name), filepath.Join(filepath.Dir(report), name), filepath.Join(filepath.Dir(filepath.Dir(report)), name)}
	}
	for _, c := range candidates {
		real, err := filepath.EvalSymlinks(c)
		if err == nil && p.s.ws.contains(real) {
			return real
		}
	}
	return ""
}

// judge says whether the action can add a failed test's response.
func (p *planner) judge(ft *failedTest, docs map[string]*spec.Document) {
	switch {
	case ft.specAbs == "":
		ft.Why = "its spec is not in this folder"
		return
	case ft.Status == 0:
		ft.Why = "no response came"
		return
	}
	ft.Spec = p.s.ws.Rel(ft.specAbs)
	doc, ok := docs[ft.specAbs]
	if !ok {
		doc, _ = p.load(ft.specAbs)
		docs[ft.specAbs] = doc
	}
	if doc == nil {
		ft.Why = "its spec does not load"
		return
	}
	ft.doc = doc
	for _, op := range doc.Views().Operations {
		if strings.EqualFold(op.Method, ft.Method) && op.Path == ft.Path {
			ft.op = op
		}
	}
	if ft.op == nil {
		ft.Why = "the spec has no operation " + ft.Method + " " + ft.Path
		return
	}
	r := contract.ExactResponse(ft.op, ft.Status)
	switch {
	case r == nil:
		ft.Addable = true
	case ft.ContentType == "" || doc.Format == spec.Swagger:
		ft.Why = "the spec declares this response"
	case mediaFor(r.Content, ft.ContentType) == nil:
		ft.Addable = true
	default:
		ft.Why = "the spec declares this response and content type"
	}
}

func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	p := &planner{s: s, ctx: r.Context()}
	rel := r.URL.Query().Get("path")
	tests, err := p.readReport(rel)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := ReportResponse{Report: rel, Tests: []ReportTest{}}
	for _, t := range tests {
		out.Tests = append(out.Tests, t.ReportTest)
	}
	writeJSON(w, http.StatusOK, out)
}

// AddResponseParams name a CTRF report and one of its failed tests.
type AddResponseParams struct {
	Report string `json:"report"`
	Test   int    `json:"test"`
}

// addResponse adds the response a failed contract test got, which its
// spec does not declare, to the operation: the status with a schema
// inferred from the body and the body as its example, or the content type
// under a declared status.
func (p *planner) addResponse(raw json.RawMessage) error {
	var in AddResponseParams
	if err := params(raw, &in); err != nil {
		return err
	}
	tests, err := p.readReport(in.Report)
	if err != nil {
		return err
	}
	var ft *failedTest
	for _, t := range tests {
		if t.Index == in.Test {
			ft = t
		}
	}
	if ft == nil {
		return fmt.Errorf("test %d of %s is not a failed test", in.Test, in.Report)
	}
	if !ft.Addable {
		return fmt.Errorf("%s: %s", ft.Name, ft.Why)
	}
	media := omap{}
	var example any
	if len(ft.body) > 0 {
		if v, err := decodeOrdered(ft.body); err == nil {
			example = v
		} else {
			example = string(ft.body)
		}
		media = append(media, kv{"schema", inferSchema(example)}, kv{"example", example})
	}
	ct := ft.ContentType
	if ct == "" && len(ft.body) > 0 {
		ct = "application/octet-stream"
	}
	desc := http.StatusText(ft.Status)
	if desc == "" {
		desc = "Status " + strconv.Itoa(ft.Status)
	}
	key := strconv.Itoa(ft.Status)
	if r := contract.ExactResponse(ft.op, ft.Status); r != nil {
		node, file, ok := nodeAt(ft.doc, r.Source)
		if !ok {
			return fmt.Errorf("response %s of %s %s cannot be located", key, ft.Method, ft.Path)
		}
		t, err := p.edit(file.Name)
		if err != nil {
			return err
		}
		if content := node.Get("content"); content != nil {
			err = t.addField(content, ct, media)
		} else {
			err = t.addField(node, "content", omap{{ct, media}})
		}
		if err != nil {
			return err
		}
		p.summary("Add %s to response %s of %s %s in %s", ct, key, ft.Method, ft.Path, ft.Spec)
		return nil
	}
	node, file, ok := nodeAt(ft.doc, append(append(spec.Path{}, ft.op.Source...), "responses"))
	if !ok {
		return fmt.Errorf("the responses of %s %s cannot be located", ft.Method, ft.Path)
	}
	t, err := p.edit(file.Name)
	if err != nil {
		return err
	}
	resp := omap{{"description", desc}}
	switch {
	case ct == "":
	case ft.doc.Format == spec.Swagger:
		resp = append(resp, kv{"schema", inferSchema(example)}, kv{"examples", omap{{ct, example}}})
	default:
		resp = append(resp, kv{"content", omap{{ct, media}}})
	}
	if err := t.addField(node, key, resp); err != nil {
		return err
	}
	p.summary("Add response %s (%s) to %s %s in %s", key, desc, ft.Method, ft.Path, ft.Spec)
	return nil
}

// inferSchema writes the schema of a value: its types, the properties of
// objects and the items of arrays (from the first item).
func inferSchema(v any) omap {
	switch x := v.(type) {
	case omap:
		props := omap{}
		for _, e := range x {
			props = append(props, kv{e.Key, inferSchema(e.Value)})
		}
		out := omap{{"type", "object"}}
		if len(props) > 0 {
			out = append(out, kv{"properties", props})
		}
		return out
	case []any:
		items := omap{}
		if len(x) > 0 {
			items = inferSchema(x[0])
		}
		return omap{{"type", "array"}, {"items", items}}
	case string:
		return omap{{"type", "string"}}
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return omap{{"type", "integer"}}
		}
		return omap{{"type", "number"}}
	case bool:
		return omap{{"type", "boolean"}}
	}
	return omap{}
}

// ConfigParams name specgate.yaml.
type ConfigParams struct {
	Path string `json:"path"`
}

// upgradeConfig rewrites a version 2 specgate.yaml as version 3 in place
// (config.Upgrade: comments kept, every setting moved).
func (p *planner) upgradeConfig(raw json.RawMessage) error {
	var in ConfigParams
	if err := params(raw, &in); err != nil {
		return err
	}
	abs, err := p.resolveFile("path", in.Path)
	if err != nil {
		return err
	}
	data, _, err := p.s.ws.read(abs)
	if err != nil {
		return err
	}
	out, cfg, err := config.Upgrade(abs, data, config.Options{Getenv: p.s.checker.getenv()})
	if errors.Is(err, config.ErrVersion3) {
		return fmt.Errorf("%s is version 3 already: nothing to upgrade", in.Path)
	}
	if err != nil {
		return err
	}
	if cfg != nil {
		for _, w := range cfg.Warnings {
			p.note("%v", w)
		}
	}
	p.write(abs, data, out)
	p.summary("Upgrade %s from version 2 to version 3", in.Path)
	return nil
}
