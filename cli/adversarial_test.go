package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/cli"
	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/hostiletest"
	"github.com/specgate/specgate/reports"
)

// The adversarial corpus (testdata/adversarial, and the large inputs
// generated here into a temporary folder) run through lint and validate
// end to end: each input gives a located error with exit code 2, or the
// correct result, in bounded memory. Nothing here asserts a duration: a
// generous deadline only turns a hang into a failure.

const adversarialDir = "../testdata/adversarial"

// runDeadline turns a hang into a failure; the inputs here take well
// under a second each, ten times that under the race detector.
const runDeadline = 2 * time.Minute

type run struct {
	code           int
	stdout, stderr string
	alloc          uint64 // bytes allocated during the run
}

// specgate runs the CLI in-process with args, standard input stdin (nil
// for none), and reports what it printed, its exit code and what it
// allocated. A panic or a hang fails the test.
func specgate(t *testing.T, stdin io.Reader, args ...string) run {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	env := cli.Env{Stdin: stdin, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	done := make(chan run, 1)
	go func() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		defer func() {
			if p := recover(); p != nil {
				done <- run{code: -1, stderr: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}
			}
		}()
		code := cli.Main(context.Background(), append([]string{"specgate"}, args...), env)
		runtime.ReadMemStats(&after)
		done <- run{code: code, stdout: out.String(), stderr: errb.String(), alloc: after.TotalAlloc - before.TotalAlloc}
	}()
	select {
	case r := <-done:
		if r.code == -1 {
			t.Fatalf("specgate %s panicked: %s", strings.Join(args, " "), r.stderr)
		}
		return r
	case <-time.After(runDeadline):
		t.Fatalf("specgate %s did not return within %s", strings.Join(args, " "), runDeadline)
		return run{}
	}
}

// lintJSON lints with the JSON report on standard output and decodes it.
func lintJSON(t *testing.T, args ...string) (run, reports.JSONReport) {
	t.Helper()
	r := specgate(t, nil, append([]string{"lint", "--no-report", "--format", "json"}, args...)...)
	var rep reports.JSONReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("lint %v: exit %d, stdout is not a JSON report (%v):\n%s\nstderr:\n%s", args, r.code, err, r.stdout, r.stderr)
	}
	return r, rep
}

// diag is a diagnostic as the tests compare it.
type diag struct {
	rule, file string
	line, col  int
	msg        string // a substring of the message
}

func (d diag) String() string {
	return fmt.Sprintf("%s:%d:%d %s %q", d.file, d.line, d.col, d.rule, d.msg)
}

func matches(d reports.JSONDiagnostic, w diag) bool {
	return d.RuleID == w.rule && d.File == w.file && d.Line == w.line && d.Column == w.col && strings.Contains(d.Message, w.msg)
}

// wantDiags asserts that every wanted diagnostic is in the report.
func wantDiags(t *testing.T, rep reports.JSONReport, wants ...diag) {
	t.Helper()
	for _, w := range wants {
		if !slices.ContainsFunc(rep.Diagnostics, func(d reports.JSONDiagnostic) bool { return matches(d, w) }) {
			t.Errorf("missing %s in:\n%s", w, describe(rep))
		}
	}
}

func describe(rep reports.JSONReport) string {
	var b strings.Builder
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(&b, "  %s:%d:%d %s %s\n", d.File, d.Line, d.Column, d.RuleID, d.Message)
	}
	return b.String()
}

// withRule keeps the diagnostics of one rule.
func withRule(rep reports.JSONReport, rule string) []reports.JSONDiagnostic {
	var out []reports.JSONDiagnostic
	for _, d := range rep.Diagnostics {
		if d.RuleID == rule {
			out = append(out, d)
		}
	}
	return out
}

// TestAdversarialLoadErrors: inputs that cannot be loaded give one
// load-error diagnostic at file:line:col in lint (exit 2) and the same
// file:line:col message in validate (exit 2).
func TestAdversarialLoadErrors(t *testing.T) {
	t.Chdir(adversarialDir)
	cases := []diag{
		{file: "alias-bomb.yaml", line: 16, col: 10, msg: "YAML aliases expand 25 written values to 490329061 (*h alone stands for 48427561), more than 10 times as many plus 1000: an alias bomb? (--max-alias-expansion)"},
		{file: "alias-cycle.yaml", line: 8, col: 9, msg: "alias *self refers to a node that contains it"},
		{file: "invalid-utf8.yaml", line: 3, col: 13, msg: "invalid UTF-8 (byte 0xe9); specifications must be UTF-8 text"},
		{file: "invalid-utf8.json", line: 3, col: 25, msg: "invalid UTF-8 (byte 0xe9) in string"},
		{file: "duplicate-keys.yaml", line: 8, col: 3, msg: `duplicate key "/pets" (first defined at 4:3)`},
		{file: "duplicate-keys.json", line: 6, col: 5, msg: `duplicate key "/pets" (first defined at 5:5)`},
		{file: "tab-indent.yaml", line: 3, col: 1, msg: "found character that cannot start any token (a tab: YAML indents with spaces)"},
		{file: "tags-anchors-bad.yaml", line: 8, col: 9, msg: "the merge key << takes a mapping or a sequence of mappings, found string"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			c.rule = "load-error"
			checkLoadError(t, nil, c, c.file)
		})
	}
}

// checkLoadError runs lint and validate on args and expects the load error
// want, exit 2 and no other diagnostic.
func checkLoadError(t *testing.T, flags []string, want diag, args ...string) {
	t.Helper()
	r, rep := lintJSON(t, append(flags, args...)...)
	if r.code != cli.ExitUsage {
		t.Errorf("lint exit %d, want %d", r.code, cli.ExitUsage)
	}
	wantDiags(t, rep, want)
	if len(rep.Diagnostics) != 1 {
		t.Errorf("lint: %d diagnostics, want the load error only:\n%s", len(rep.Diagnostics), describe(rep))
	}
	v := specgate(t, nil, append(append([]string{"validate"}, flags...), args...)...)
	prefix := want.file + ": "
	if want.line > 0 {
		prefix = fmt.Sprintf("%s:%d:%d: ", want.file, want.line, want.col)
	}
	found := slices.ContainsFunc(strings.Split(v.stdout, "\n"), func(l string) bool {
		return strings.HasPrefix(l, prefix) && strings.Contains(l, want.msg)
	})
	if v.code != cli.ExitUsage || !found {
		t.Errorf("validate exit %d, stdout:\n%s\nwant exit %d and a line %q…%q", v.code, v.stdout, cli.ExitUsage, prefix, want.msg)
	}
}

// TestAdversarialRefCycles: a $ref chain through two files that never
// reaches a value is reported on each $ref of the chain; a schema that
// recurses through two files is legal and reported nowhere.
func TestAdversarialRefCycles(t *testing.T) {
	t.Chdir(adversarialDir)
	const entry = "ref-cycle/openapi.yaml"
	r, rep := lintJSON(t, "--fail-severity", "warn", entry)
	if r.code != cli.ExitFindings {
		t.Errorf("lint exit %d, want %d", r.code, cli.ExitFindings)
	}
	const circular = "circular $ref chain never reaches a value"
	wantDiags(t, rep,
		diag{"no-unresolved-ref", "ref-cycle/a.yaml", 3, 9, circular + ": b.yaml#/Missing → a.yaml#/NotFound"},
		diag{"no-unresolved-ref", "ref-cycle/b.yaml", 2, 9, circular + ": a.yaml#/NotFound → b.yaml#/Missing"},
		diag{"no-unresolved-ref", entry, 13, 17, circular + ": a.yaml#/NotFound → b.yaml#/Missing → a.yaml#/NotFound"},
	)
	if got := withRule(rep, "no-unresolved-ref"); len(got) != 3 {
		t.Errorf("%d no-unresolved-ref diagnostics, want 3 (the recursive tree is legal):\n%s", len(got), describe(rep))
	}
	v := specgate(t, nil, "validate", entry)
	if v.code != cli.ExitFindings || strings.Count(v.stdout, circular) != 3 || strings.Contains(v.stdout, "tree.yaml:") || strings.Contains(v.stdout, "node.yaml:") {
		t.Errorf("validate exit %d:\n%s", v.code, v.stdout)
	}
}

// TestAdversarialRefEscape: $refs to /etc/passwd (absolute, file://, or
// climbing with ../) and to files beside the spec's folder are refused,
// at the $ref, unless a wider --ref-root or --allow-external-refs allows
// them.
func TestAdversarialRefEscape(t *testing.T) {
	t.Chdir(adversarialDir)
	const entry = "ref-escape/openapi.yaml"
	const allow = "(the folder tree $refs may read); pass --allow-external-refs or --ref-root DIR to allow it"
	passwd := []diag{
		{"no-unresolved-ref", entry, 14, 20, `$ref "/etc/passwd" reads /etc/passwd, outside ref-escape ` + allow},
		{"no-unresolved-ref", entry, 15, 23, `$ref "file:///etc/passwd" reads /etc/passwd, outside ref-escape ` + allow},
		{"no-unresolved-ref", entry, 16, 19, `$ref "../../../../../../../../../../etc/passwd#/root" reads /etc/passwd, outside ref-escape ` + allow},
	}
	siblings := []diag{
		{"no-unresolved-ref", entry, 17, 21, `$ref "../outside.yaml#/Secret" reads outside.yaml, outside ref-escape ` + allow},
		{"no-unresolved-ref", "ref-escape/schemas/pet.yaml", 5, 19, `$ref "../../outside.yaml#/Secret" reads outside.yaml, outside ref-escape ` + allow},
	}
	for _, tt := range []struct {
		name  string
		flags []string
		want  []diag
	}{
		{"default", nil, append(slices.Clone(passwd), siblings...)},
		{"ref root", []string{"--ref-root", "."}, []diag{
			{"no-unresolved-ref", entry, 14, 20, `$ref "/etc/passwd" reads /etc/passwd, outside . ` + allow},
			{"no-unresolved-ref", entry, 15, 23, "reads /etc/passwd, outside ."},
			{"no-unresolved-ref", entry, 16, 19, "reads /etc/passwd, outside ."},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, rep := lintJSON(t, append(tt.flags, "--fail-severity", "warn", entry)...)
			if r.code != cli.ExitFindings {
				t.Errorf("lint exit %d, want %d", r.code, cli.ExitFindings)
			}
			wantDiags(t, rep, tt.want...)
			if got := withRule(rep, "no-unresolved-ref"); len(got) != len(tt.want) {
				t.Errorf("%d no-unresolved-ref diagnostics, want %d:\n%s", len(got), len(tt.want), describe(rep))
			}
			v := specgate(t, nil, append(append([]string{"validate"}, tt.flags...), entry)...)
			if v.code != cli.ExitFindings || strings.Count(v.stdout, allow) != len(tt.want) {
				t.Errorf("validate exit %d, want %d refusals:\n%s", v.code, len(tt.want), v.stdout)
			}
			if strings.Contains(v.stdout+r.stdout, "root:x:0:0") {
				t.Error("the content of /etc/passwd was printed")
			}
		})
	}
	t.Run("allow external refs", func(t *testing.T) {
		_, rep := lintJSON(t, "--allow-external-refs", entry)
		for _, d := range withRule(rep, "no-unresolved-ref") {
			if strings.Contains(d.Message, "outside") {
				t.Errorf("refused with --allow-external-refs: %s:%d:%d %s", d.File, d.Line, d.Column, d.Message)
			}
		}
	})
}

// TestAdversarialSymlinkEscape: a symbolic link inside the spec's folder
// that leads out of it is refused like a path that does.
func TestAdversarialSymlinkEscape(t *testing.T) {
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{
		"secret.yaml":      "Secret: {type: string}\n",
		"api/openapi.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    S: {$ref: 'link.yaml#/Secret'}\n",
	})
	if err := os.Symlink(filepath.Join(dir, "secret.yaml"), filepath.Join(dir, "api", "link.yaml")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	t.Chdir(dir)
	_, rep := lintJSON(t, "api/openapi.yaml")
	wantDiags(t, rep, diag{"no-unresolved-ref", "api/openapi.yaml", 6, 15, `$ref "link.yaml#/Secret" reads api/link.yaml, a symbolic link to secret.yaml, outside api `})
}

// comparable drops the file name of diagnostics, to compare two files.
func comparable(rep reports.JSONReport) []string {
	var out []string
	for _, d := range rep.Diagnostics {
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s %s", d.Line, d.Column, d.EndLine, d.EndColumn, d.RuleID, d.Pointer, d.Message))
	}
	return out
}

// TestAdversarialEncodings: a byte order mark and CRLF line ends change
// nothing: the file lints to the same diagnostics, at the same positions,
// as the same file without them, and validates.
func TestAdversarialEncodings(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		file  string
		plain func([]byte) []byte
	}{
		{"bom.yaml", func(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }},
		{"bom.json", func(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }},
		{"crlf.yaml", func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }},
	} {
		t.Run(tt.file, func(t *testing.T) {
			src := filepath.Join(adversarialDir, tt.file)
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			plain := filepath.Join(dir, tt.file)
			if bytes.Equal(tt.plain(data), data) {
				t.Fatalf("%s has no BOM or CRLF to remove", tt.file)
			}
			if err := os.WriteFile(plain, tt.plain(data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, got := lintJSON(t, "--ruleset", "strict", src)
			_, want := lintJSON(t, "--ruleset", "strict", plain)
			if len(want.Diagnostics) == 0 || !slices.Equal(comparable(got), comparable(want)) {
				t.Errorf("diagnostics differ from the plain file's:\n got %q\nwant %q", comparable(got), comparable(want))
			}
			if v := specgate(t, nil, "validate", src); v.code != cli.ExitOK || !strings.Contains(v.stdout, "valid OpenAPI 3.0.3") {
				t.Errorf("validate exit %d: %s", v.code, v.stdout)
			}
		})
	}
}

// TestAdversarialOddButValid: tabs inside strings and flow collections,
// tags and anchors in odd places, numbers beyond float64: all valid, and
// linted like any spec.
func TestAdversarialOddButValid(t *testing.T) {
	t.Chdir(adversarialDir)
	for _, f := range []string{"tabs.yaml", "tags-anchors.yaml", "big-numbers.yaml", "big-numbers.json"} {
		if v := specgate(t, nil, "validate", f); v.code != cli.ExitOK || !strings.Contains(v.stdout, f+": valid OpenAPI 3.0.3") {
			t.Errorf("validate %s: exit %d: %s%s", f, v.code, v.stdout, v.stderr)
		}
	}

	_, rep := lintJSON(t, "tabs.yaml")
	wantDiags(t, rep, diag{"operation-description", "tabs.yaml", 7, 5, "GET /pets has no description"})
	if got := withRule(rep, "operation-summary"); len(got) != 0 {
		t.Errorf("the summary with a tab was not read: %s", describe(rep))
	}

	// Aliases as keys name the methods: GET and POST on /pets.
	_, rep = lintJSON(t, "tags-anchors.yaml")
	wantDiags(t, rep,
		diag{"operation-summary", "tags-anchors.yaml", 18, 5, "GET /pets has no summary"},
		diag{"operation-summary", "tags-anchors.yaml", 19, 5, "POST /pets has no summary"},
	)

	// YAML and JSON spellings of the same numbers give the same findings.
	_, y := lintJSON(t, "--ruleset", "strict", "big-numbers.yaml")
	_, j := lintJSON(t, "--ruleset", "strict", "big-numbers.json")
	rules := func(rep reports.JSONReport) []string {
		var ids []string
		for _, d := range rep.Diagnostics {
			ids = append(ids, d.RuleID+" "+d.Message)
		}
		slices.Sort(ids)
		return ids
	}
	if !slices.Equal(rules(y), rules(j)) || len(rules(y)) == 0 {
		t.Errorf("YAML and JSON numbers lint differently:\nyaml %q\njson %q", rules(y), rules(j))
	}
}

// generated writes the large adversarial inputs into dir and returns
// their paths by name.
func generated(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string][]byte{
		"deep-array.json":   []byte(strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)),
		"deep-objects.json": []byte(`{"openapi": "3.0.3", "x": ` + strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000) + "}"),
		"deep-flow.yaml":    []byte("openapi: 3.0.3\nx: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n"),
		"deep-schema.yaml":  deepSchema(480),
		"merge-bomb.yaml":   hostiletest.MergeBomb(3000),
		"huge-string.json":  hugeString(16 << 20),
		"huge-array.json":   hugeArray(500_000),
	}
	out := map[string]string{}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	return out
}

const specHead = "openapi: 3.0.3\ninfo: {title: Generated, version: '1'}\n"

// deepSchema nests a schema levels deep (two values per level: the schema
// and its properties), within the default depth limit of 1000.
func deepSchema(levels int) []byte {
	var b strings.Builder
	b.WriteString(specHead + "paths: {}\ncomponents:\n  schemas:\n    Deep:\n")
	indent := 6
	for range levels {
		pad := strings.Repeat(" ", indent)
		fmt.Fprintf(&b, "%stype: object\n%sproperties:\n%s  a:\n", pad, pad, pad)
		indent += 4
	}
	b.WriteString(strings.Repeat(" ", indent) + "type: string\n")
	return []byte(b.String())
}

func hugeString(n int) []byte {
	return []byte(`{"openapi": "3.0.3", "info": {"title": "Huge string", "version": "1", "description": "` +
		strings.Repeat("All work and no play. ", n/22) + `"}, "paths": {}}`)
}

func hugeArray(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "Huge array", "version": "1"}, "paths": {"/items": {"get": {"parameters": [` +
		`{"name": "kind", "in": "query", "description": "d", "schema": {"type": "string", "enum": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"v%d"`, i)
	}
	b.WriteString(`]}}], "responses": {"200": {"description": "ok"}}}}}}`)
	return []byte(b.String())
}

// baselineAlloc is what linting a small valid spec allocates: compiling
// the ruleset and reporting, which every bound below adds to.
func baselineAlloc(t *testing.T) uint64 {
	t.Helper()
	r := specgate(t, nil, "lint", "--no-report", "--ruleset", "strict", filepath.Join(adversarialDir, "bom.yaml"))
	return r.alloc
}

// TestAdversarialLargeInputs: deep nesting, merge bombs, huge strings and
// arrays give a located error or a result, and cost memory in proportion
// to their size, not more.
func TestAdversarialLargeInputs(t *testing.T) {
	files := generated(t, t.TempDir())
	base := baselineAlloc(t)
	t.Logf("baseline: lint of a small spec allocates %d MiB", base>>20)

	for _, tt := range []struct {
		name  string
		flags []string
		want  diag // zero: the input is valid
	}{
		{name: "deep-array.json", want: diag{line: 1, col: 1002, msg: "nesting deeper than 1000 levels (--max-depth)"}},
		{name: "deep-objects.json", want: diag{line: 1, col: 5027, msg: "nesting deeper than 1000 levels (--max-depth)"}},
		{name: "deep-flow.yaml", want: diag{line: 2, col: 1, msg: "invalid YAML: exceeded max depth of 10000"}},
		// The budget, 10 × 15,015 written values + 1,000, runs out at the
		// 51st merge.
		{name: "merge-bomb.yaml", want: diag{line: 3056, col: 5, msg: "YAML merge keys copy more fields than 10 times the values written plus 1000"}},
		// Schema k is at depth 3 + 2k (components, schemas, Deep; then
		// properties and a): schema 49, on line 7 + 3×49, is at 101.
		{name: "deep-schema.yaml", flags: []string{"--max-depth", "100"}, want: diag{line: 154, col: 203, msg: "nesting deeper than 100 levels (--max-depth)"}},
		// 16 values precede the enum's items: the 1,001st value is item 984.
		{name: "huge-array.json", flags: []string{"--max-values", "1000"}, want: diag{line: 1, col: 1 + strings.Index(string(hugeArray(1000)), `"v984"`), msg: "document has more than 1000 values (--max-values)"}},
		{name: "huge-string.json", flags: []string{"--max-file-size", "8"}, want: diag{msg: "file is 16 MiB, larger than the 8 MiB limit (--max-file-size)"}},
		{name: "deep-schema.yaml"},
		{name: "huge-string.json"},
		{name: "huge-array.json"},
	} {
		t.Run(strings.Join(append([]string{tt.name}, tt.flags...), " "), func(t *testing.T) {
			path := files[tt.name]
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			var lint run
			if tt.want.msg != "" {
				tt.want.rule, tt.want.file = "load-error", path
				checkLoadError(t, tt.flags, tt.want, path)
				lint = specgate(t, nil, append(append([]string{"lint", "--no-report"}, tt.flags...), path)...)
			} else {
				lint = specgate(t, nil, append(append([]string{"lint", "--no-report", "--ruleset", "strict"}, tt.flags...), path)...)
				if lint.code != cli.ExitOK && lint.code != cli.ExitFindings {
					t.Errorf("lint exit %d:\n%s%s", lint.code, lint.stdout, lint.stderr)
				}
				if v := specgate(t, nil, "validate", path); v.code != cli.ExitOK {
					t.Errorf("validate exit %d: %s", v.code, v.stdout)
				}
			}
			// Loading copies the file a few times (bytes, nodes, the OPA
			// value); rules add their own (185 of them under strict). 80
			// times the file, plus 64 MiB, is well above what these inputs
			// take, and far below a bomb.
			bound := base + 80*uint64(st.Size()) + 64<<20
			t.Logf("%d KiB: lint allocated %d MiB", st.Size()>>10, lint.alloc>>20)
			if lint.alloc > bound {
				t.Errorf("lint of a %d KiB file allocated %d MiB, more than %d MiB", st.Size()>>10, lint.alloc>>20, bound>>20)
			}
		})
	}
}

// writeLargeSpec streams a valid JSON spec of at least size bytes to path,
// a megabyte at a time.
func writeLargeSpec(t *testing.T, path string, size int64) {
	t.Helper()
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	buf := []byte(`{"openapi": "3.0.3", "info": {"title": "200 MB", "version": "1"}, "paths": {` + "\n")
	var written int64
	for i := 0; written < size; i++ {
		buf = append(buf, `  "/p`...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, `": {"get": {"responses": {"200": {"description": "ok"}}}},`+"\n"...)
		if len(buf) >= 1<<20 {
			n, err := fh.Write(buf)
			if err != nil {
				t.Fatal(err)
			}
			written += int64(n)
			buf = buf[:0]
		}
	}
	buf = append(buf, `  "/end": {}`+"\n}}\n"...)
	if _, err := fh.Write(buf); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
}

// endless is a reader of size bytes of a spec that never closes.
type endless struct{ left int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), e.left)
	for i := range p[:n] {
		p[i] = ' '
	}
	copy(p, `{"openapi": "3.0.3", "x": "`)
	e.left -= n
	return int(n), nil
}

// TestAdversarial200MB: a 200 MB file is refused from its size, before it
// is read, by lint and validate; 200 MB on standard input is read only up
// to the limit. Writing the file takes about two seconds (the whole test
// four), so it runs under -short too.
func TestAdversarial200MB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "large.json")
	start := time.Now()
	writeLargeSpec(t, path, 200<<20)
	t.Logf("wrote 200 MB in %s", time.Since(start))
	base := baselineAlloc(t)
	want := diag{rule: "load-error", file: path, msg: "file is 200 MiB, larger than the 64 MiB limit (--max-file-size)"}
	checkLoadError(t, nil, want, path)
	r := specgate(t, nil, "lint", "--no-report", path)
	if r.alloc > base+16<<20 {
		t.Errorf("refusing a 200 MB file allocated %d MiB over the baseline", (r.alloc-base)>>20)
	}

	r = specgate(t, &endless{left: 200 << 20}, "lint", "--no-report", "-")
	if r.code != cli.ExitUsage || !strings.Contains(r.stdout, "<stdin> error load-error file is larger than the 64 MiB limit (--max-file-size)\n") {
		t.Errorf("lint of 200 MB on stdin: exit %d\n%s", r.code, r.stdout)
	}
	// Refusing an input read in chunks costs the limit (io.ReadAll, growing
	// its buffer by a quarter, cost five times: 320 MiB).
	if r.alloc > base+96<<20 {
		t.Errorf("refusing 200 MB on stdin allocated %d MiB over the baseline", (r.alloc-base)>>20)
	}
}
