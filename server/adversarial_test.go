package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/reports"
)

// The adversarial corpus (testdata/adversarial, which cli/adversarial_test.go
// runs through lint and validate) posted inline to a real server on
// loopback: each file gets a 422 that says where it cannot be read, or a
// report, in bounded time; oversize bodies get a 413 without being read
// in full; and the server stays healthy.

const adversarialDir = "../testdata/adversarial"

// adversarialDeadline turns a hang into a failure; each request takes well
// under a second, ten times that under the race detector.
const adversarialDeadline = 2 * time.Minute

// postRaw posts a lint request whose spec is data, with its bytes as they
// are (json.Marshal would replace those that are not UTF-8), within
// adversarialDeadline.
func (ts *testServer) postRaw(t *testing.T, data []byte) response {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"spec": "`)
	for _, c := range data {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(`"}`)
	return ts.post(t, bytes.NewReader(b.Bytes()), int64(b.Len()))
}

// post posts body (of length n, -1 when unknown) to /lint-reports.
func (ts *testServer) post(t *testing.T, body io.Reader, n int64) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), adversarialDeadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.url+"/lint-reports", body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = n
	req.Header.Set("Content-Type", "application/json")
	return send(t, req)
}

// unreadable is a file the server cannot load: where, and what it says.
type unreadable struct {
	line, col int
	msg       string
}

const notASpec = "not an API specification: expected a top-level openapi, swagger, asyncapi or arazzo field"

// The corpus's files that cannot be loaded; every other file is linted.
// Positions and messages are those lint and validate give.
var adversarialUnreadable = map[string]unreadable{
	"alias-bomb.yaml":       {16, 10, "YAML aliases expand 25 written values to 490329061 (*h alone stands for 48427561), more than 10 times as many plus 1000: an alias bomb? (--max-alias-expansion)"},
	"alias-cycle.yaml":      {8, 9, "alias *self refers to a node that contains it"},
	"invalid-utf8.yaml":     {3, 13, "invalid UTF-8 (byte 0xe9); specifications must be UTF-8 text"},
	"invalid-utf8.json":     {3, 25, "invalid UTF-8 (byte 0xe9) in string"},
	"duplicate-keys.yaml":   {8, 3, `duplicate key "/pets" (first defined at 4:3)`},
	"duplicate-keys.json":   {6, 5, `duplicate key "/pets" (first defined at 5:5)`},
	"tab-indent.yaml":       {3, 1, "found character that cannot start any token (a tab: YAML indents with spaces)"},
	"tags-anchors-bad.yaml": {8, 9, "the merge key << takes a mapping or a sequence of mappings, found string"},
	// Fragments that $refs of other files reach: not specifications.
	"outside.yaml":                {2, 1, notASpec},
	"ref-cycle/a.yaml":            {2, 1, notASpec},
	"ref-cycle/b.yaml":            {1, 1, notASpec},
	"ref-cycle/node.yaml":         {1, 1, notASpec},
	"ref-cycle/tree.yaml":         {1, 1, notASpec},
	"ref-escape/schemas/pet.yaml": {1, 1, notASpec},
}

// finding is a diagnostic a report must have: its rule, position and a
// part of its message.
type finding struct {
	rule      string
	line, col int
	msg       string
}

const noLocation = "an inline spec has no location to resolve relative $refs against; post it by specUrl instead"

// The findings the corpus's valid files must give (besides others).
var adversarialFindings = map[string][]finding{
	"tabs.yaml":         {{"operation-description", 7, 5, "GET /pets has no description"}},
	"tags-anchors.yaml": {{"operation-summary", 18, 5, "GET /pets has no summary"}, {"operation-summary", 19, 5, "POST /pets has no summary"}},
	// An inline spec has no location: its $refs to other files, to
	// /etc/passwd and to file: URLs are all unresolved, none is read.
	"ref-cycle/openapi.yaml": {
		{"no-unresolved-ref", 11, 30, `"tree.yaml#/Tree": fetch failed: Get "tree.yaml": ` + noLocation},
		{"no-unresolved-ref", 13, 17, `"a.yaml#/NotFound": fetch failed: Get "a.yaml": ` + noLocation},
	},
	"ref-escape/openapi.yaml": {
		{"no-unresolved-ref", 11, 30, `"schemas/pet.yaml#/Pet": fetch failed: Get "schemas/pet.yaml": ` + noLocation},
		{"no-unresolved-ref", 14, 20, `"/etc/passwd": fetch failed: Get "etc/passwd": ` + noLocation},
		{"no-unresolved-ref", 15, 23, `$ref "file:///etc/passwd" is in a remote document and names a local file; a remote document may only reference URLs`},
		{"no-unresolved-ref", 16, 19, `"../../../../../../../../../../etc/passwd#/root": fetch failed: Get "etc/passwd": ` + noLocation},
		{"no-unresolved-ref", 17, 21, `"../outside.yaml#/Secret": fetch failed: Get "outside.yaml": ` + noLocation},
	},
}

func TestAdversarialCorpus(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	var files []string
	err := filepath.WalkDir(adversarialDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(adversarialDir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	linted := map[string]reports.JSONReport{}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(adversarialDir, name))
			if err != nil {
				t.Fatal(err)
			}
			r := ts.postRaw(t, data)
			if want, ok := adversarialUnreadable[name]; ok {
				p := problem(t, r, 422, kindUnprocessableSpec)
				prefix := fmt.Sprintf("spec:%d:%d: ", want.line, want.col)
				if p.File != inlineName || p.Line != want.line || p.Column != want.col || !strings.HasPrefix(p.Detail, prefix) || !strings.Contains(p.Detail, want.msg) {
					t.Errorf("problem %s:%d:%d %q, want %s%s", p.File, p.Line, p.Column, p.Detail, prefix, want.msg)
				}
				return
			}
			rep := report(t, r)
			linted[name] = rep
			if len(rep.Summary.PerFile) != 1 || !rep.Summary.PerFile[0].Loaded {
				t.Errorf("summary %+v", rep.Summary)
			}
			for _, want := range adversarialFindings[name] {
				if !slices.ContainsFunc(rep.Diagnostics, func(d reports.JSONDiagnostic) bool {
					return d.RuleID == want.rule && d.Line == want.line && d.Column == want.col && d.File == inlineName && strings.Contains(d.Message, want.msg)
				}) {
					t.Errorf("no %s at %d:%d %q in %v", want.rule, want.line, want.col, want.msg, findings(rep))
				}
			}
			if strings.Contains(string(r.body), "root:x:0:0") {
				t.Error("the report shows /etc/passwd")
			}
		})
	}
	for name := range adversarialUnreadable {
		if !slices.Contains(files, name) {
			t.Errorf("%s is not in the corpus", name)
		}
	}

	// A byte order mark and CRLF line ends change nothing; YAML and JSON
	// spellings of numbers beyond float64 lint alike.
	for _, tt := range []struct{ file, plain string }{
		{"bom.yaml", "bom.yaml"}, {"bom.json", "bom.json"}, {"crlf.yaml", "crlf.yaml"}, {"big-numbers.yaml", "big-numbers.json"},
	} {
		data, err := os.ReadFile(filepath.Join(adversarialDir, tt.plain))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.ReplaceAll(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("\r\n"), []byte("\n"))
		plain := report(t, ts.postRaw(t, data))
		got, want := findings(linted[tt.file]), findings(plain)
		if tt.file == "big-numbers.yaml" {
			got, want = ruleMessages(linted[tt.file]), ruleMessages(plain)
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v as %s", tt.file, got, want, tt.plain)
		}
	}

	// Nesting 100,000 levels deep is refused at the depth limit.
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	p := problem(t, ts.postRaw(t, []byte(deep)), 422, kindUnprocessableSpec)
	if p.Line != 1 || p.Column != 1002 || !strings.Contains(p.Detail, "nesting deeper than 1000 levels") {
		t.Errorf("deep nesting: %+v", p)
	}

	checkHealthy(t, ts)
}

// ruleMessages lists a report's diagnostics without their positions.
func ruleMessages(rep reports.JSONReport) []string {
	var out []string
	for _, d := range rep.Diagnostics {
		out = append(out, d.RuleID+" "+d.Message)
	}
	slices.Sort(out)
	return out
}

// checkHealthy asserts the server answers /health with pass and holds no
// lint slot and no memory.
func checkHealthy(t *testing.T, ts *testServer) {
	t.Helper()
	if h := ts.get(t, "/health"); h.status != 200 || !strings.Contains(string(h.body), `"status": "pass"`) {
		t.Errorf("/health: %d %s", h.status, h.body)
	}
	// A request's slot and memory are released when its handler returns,
	// which may be just after the client has read the answer.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if ts.slots.inUse() == 0 && ts.memoryHeld(t) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d slots and %d bytes still held", ts.slots.inUse(), ts.memoryHeld(t))
		}
	}
}

// endlessSpec is the body of a lint request of n bytes whose spec never
// ends: `{"spec": "openapi: 3.1.0 aaaa…`. It counts what was read of it.
type endlessSpec struct {
	left, read int64
	counted    *atomic.Int64
}

func (e *endlessSpec) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), e.left)
	for i := range p[:n] {
		p[i] = 'a'
	}
	if e.read == 0 {
		copy(p[:n], `{"spec": "openapi: 3.1.0 `)
	}
	e.left -= n
	e.read += n
	e.counted.Add(n)
	return int(n), nil
}

// A 200 MB body is refused with 413: at once when it gives its length,
// after the limit when it is chunked; the server stays healthy.
func TestAdversarialOversizeBody(t *testing.T) {
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	const size = 200 << 20
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprintf("chunked=%v", chunked), func(t *testing.T) {
			var sent atomic.Int64
			n := int64(size)
			if chunked {
				n = -1
			}
			start := time.Now()
			r := ts.post(t, &endlessSpec{left: size, counted: &sent}, n)
			p := problem(t, r, 413, kindTooLarge)
			if !strings.Contains(p.Detail, "larger than the 32 MiB limit (--max-body-size)") {
				t.Errorf("detail %q", p.Detail)
			}
			t.Logf("sent %d MiB of 200 in %s", sent.Load()>>20, time.Since(start).Round(time.Millisecond))
			if sent.Load() >= size {
				t.Errorf("the client sent the whole body (%d bytes): the server read it all", sent.Load())
			}
		})
	}
	checkHealthy(t, ts)
}
