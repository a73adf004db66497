package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// The agreement of the format checks with the reference tools, measured
// as the README reports it: buf breaking (FILE category, buf's default)
// for Protocol Buffers, graphql-inspector diff for GraphQL, on the pairs
// of testdata/formats and on consecutive published versions of public
// schemas. They run when the tools are named:
//
//	SPECGATE_BUF=…/buf                           buf 1.75 (npm @bufbuild/buf)
//	SPECGATE_PROTO_HISTORY=DIR                   versions of npm google-proto-files, DIR/<version>/package/google/…
//	SPECGATE_GRAPHQL_INSPECTOR=…/graphql-inspector   npm @graphql-inspector/cli 7.0
//	SPECGATE_GRAPHQL_HISTORY=DIR                 versions of npm @octokit/graphql-schema, DIR/<version>/package/schema.graphql
//
// A verdict that differs must be listed, with its reason, in the known
// differences below; one listed that no longer differs fails too.

// knownBufDifferences are the pairs whose verdict differs from buf's, and
// why. buf's default FILE category breaks on anything that breaks
// generated code; specgate counts a removal whose number and name are
// reserved as a warning (the wire and JSON are safe: buf's WIRE_JSON
// category agrees), which fails only --strict.
var knownBufDifferences = map[string]string{
	"field-removed-reserved": "the field's number and name are reserved: a warning for specgate (source-breaking only), breaking for buf FILE",
}

// knownInspectorDifferences are the GraphQL pairs whose verdict differs
// from graphql-inspector's, and why.
var knownInspectorDifferences = map[string]string{}

type agreement struct {
	pairs, agree int
	bothBreaking int // pairs both call breaking
	rows         []string
	skipped      []string // pairs without a verdict of the reference tool, and why
}

func (a *agreement) add(name string, ours, theirs bool, known map[string]string, t *testing.T) {
	a.pairs++
	word := func(b bool) string {
		if b {
			return "breaking"
		}
		return "compatible"
	}
	why, listed := known[name]
	switch {
	case ours == theirs:
		a.agree++
		if ours {
			a.bothBreaking++
		}
		if listed {
			t.Errorf("%s: listed as a known difference (%s), but the verdicts agree now", name, why)
		}
	case listed:
		a.rows = append(a.rows, fmt.Sprintf("%s: specgate %s, reference %s — %s", name, word(ours), word(theirs), why))
	default:
		t.Errorf("%s: specgate says %s, the reference tool %s, and no reason is known", name, word(ours), word(theirs))
		a.rows = append(a.rows, fmt.Sprintf("%s: specgate %s, reference %s — UNEXPLAINED", name, word(ours), word(theirs)))
	}
}

func (a *agreement) report(t *testing.T, what string) {
	t.Logf("%s: %d of %d verdicts agree, %d of them breaking (%d pairs not compared)", what, a.agree, a.pairs, a.bothBreaking, len(a.skipped))
	for _, r := range a.rows {
		t.Logf("  %s", r)
	}
	for _, r := range a.skipped {
		t.Logf("  not compared: %s", r)
	}
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// errRefused is a reference tool's refusal to compare (a document it
// cannot load): no verdict to agree with.
var errRefused = errors.New("the reference tool refused the pair")

// runTool runs a reference tool and returns whether it found breaking
// changes, from its exit code (breakingCode) and output; errRefused when
// it failed for another reason (refused reports how to tell).
func runTool(t *testing.T, dir string, breakingCode int, refused func(out string) bool, name string, args ...string) (bool, string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return false, out.String(), nil
	case errors.As(err, &ee) && ee.ExitCode() == breakingCode && (refused == nil || !refused(out.String())):
		return true, out.String(), nil
	case errors.As(err, &ee):
		return false, out.String(), errRefused
	}
	t.Fatalf("%s %s in %s: %v\n%s", name, strings.Join(args, " "), dir, err, out.String())
	return false, "", nil
}

// inspectorRefused tells graphql-inspector's failure to load a schema
// (an [error] line with a stack) from a breaking verdict (exit 1 too).
func inspectorRefused(out string) bool { return strings.Contains(out, "[error] Error:") }

func TestBufAgreement(t *testing.T) {
	buf := os.Getenv("SPECGATE_BUF")
	if buf == "" {
		t.Skip("SPECGATE_BUF is not set")
	}
	fixtureAgreement(t, "proto", "buf breaking", knownBufDifferences, func(c *formatCase) (bool, string, error) {
		return runTool(t, c.dir, 100, nil, buf, "breaking", "rev", "--against", "base")
	})
}

// fixtureAgreement compares specgate's verdict on each fixture of
// testdata/formats/<format> with the verdict of tool, run by theirs.
func fixtureAgreement(t *testing.T, format, tool string, known map[string]string, theirs func(c *formatCase) (bool, string, error)) {
	loader := spec.NewLoader(spec.Options{})
	var a agreement
	for _, c := range readFormatCases(t, format) {
		name := strings.TrimSuffix(filepath.Base(c.path), ".txtar")
		res := CheckFiles(context.Background(), Options{Loader: loader}, c.base, c.rev)
		breaks, out, err := theirs(c)
		if err != nil {
			t.Fatalf("%s: %s failed: %s", name, tool, out)
		}
		a.add(name, res.Verdict == Incompatible, breaks, known, t)
	}
	a.report(t, tool+" on testdata/formats/"+format)
}

// TestBufAgreementHistory compares consecutive versions of googleapis as
// npm's google-proto-files publishes them, one API package folder at a
// time (google/pubsub/v1, …): buf on the folder (with the files it
// imports), specgate on each .proto file of it, the folder breaking when
// one file is (or was deleted).
func TestBufAgreementHistory(t *testing.T) {
	buf, root, versions := history(t, "SPECGATE_BUF", "SPECGATE_PROTO_HISTORY")
	loader := spec.NewLoader(spec.Options{})
	var a agreement
	for i := 1; i < len(versions); i++ {
		baseRoot := filepath.Join(root, versions[i-1], "package")
		revRoot := filepath.Join(root, versions[i], "package")
		for _, pkg := range changedPackages(t, baseRoot, revRoot) {
			name := versions[i-1] + "→" + versions[i] + " " + pkg
			if len(protoFiles(t, filepath.Join(baseRoot, pkg))) == 0 || len(protoFiles(t, filepath.Join(revRoot, pkg))) == 0 {
				a.skipped = append(a.skipped, name+": the package is new or deleted")
				continue
			}
			dir := t.TempDir()
			for side, from := range map[string]string{"base": baseRoot, "rev": revRoot} {
				copyWithImports(t, from, pkg, filepath.Join(dir, side))
			}
			// buf compares the imported files too; only its findings in
			// the package's own files count, as specgate checks those.
			_, out, err := runTool(t, dir, 100, nil, buf, "breaking", "rev", "--against", "base", "--error-format", "json")
			if err != nil {
				a.skipped = append(a.skipped, name+": buf refused it: "+firstLine(out))
				continue
			}
			theirs := false
			for _, line := range strings.Split(out, "\n") {
				var finding struct{ Path string }
				if json.Unmarshal([]byte(line), &finding) != nil {
					continue
				}
				p := strings.TrimPrefix(strings.TrimPrefix(finding.Path, "rev/"), "base/")
				if path.Dir(p) == filepath.ToSlash(pkg) {
					theirs = true
				}
			}
			ours := false
			var why []string
			for _, f := range protoFiles(t, filepath.Join(dir, "base", pkg)) {
				rev := filepath.Join(dir, "rev", pkg, f)
				if _, err := os.Stat(rev); err != nil {
					ours = true
					why = append(why, f+" deleted")
					continue
				}
				res := CheckFiles(context.Background(), Options{Loader: loader}, filepath.Join(dir, "base", pkg, f), rev)
				if res.Err != nil {
					t.Errorf("%s %s: %v", name, f, res.Err)
				}
				if res.Verdict == Incompatible {
					ours = true
					why = append(why, res.Message)
				}
			}
			if ours != theirs {
				t.Logf("%s:\n  specgate: %s\n  buf: %s", name, strings.Join(why, "\n  "), out)
			}
			a.add(name, ours, theirs, knownBufDifferences, t)
		}
	}
	a.report(t, "buf breaking on google-proto-files versions "+strings.Join(versions, ", "))
}

// history reads from the environment variables toolVar and rootVar a peer
// tool and a folder of published versions of a package, one subfolder a
// version, and lists the versions, oldest first; it skips the test when
// either is not set.
func history(t *testing.T, toolVar, rootVar string) (tool, root string, versions []string) {
	t.Helper()
	tool, root = os.Getenv(toolVar), os.Getenv(rootVar)
	if tool == "" || root == "" {
		t.Skip(toolVar + " or " + rootVar + " is not set")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			versions = append(versions, e.Name())
		}
	}
	sort.Slice(versions, func(i, j int) bool { return versionLess(versions[i], versions[j]) })
	return tool, root, versions
}

var digits = regexp.MustCompile(`\d+`)

func versionLess(a, b string) bool {
	na, nb := digits.FindAllString(a, -1), digits.FindAllString(b, -1)
	for i := 0; i < len(na) && i < len(nb); i++ {
		if len(na[i]) != len(nb[i]) {
			return len(na[i]) < len(nb[i])
		}
		if na[i] != nb[i] {
			return na[i] < nb[i]
		}
	}
	return len(na) < len(nb)
}

func protoFiles(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".proto") {
			out = append(out, e.Name())
		}
	}
	return out
}

// changedPackages lists the folders of .proto files whose contents differ
// between the two roots (files changed, added or deleted), under google/.
func changedPackages(t *testing.T, base, rev string) []string {
	set := map[string]bool{}
	for _, pair := range [][2]string{{base, rev}, {rev, base}} {
		filepath.WalkDir(filepath.Join(pair[0], "google"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".proto") {
				return nil
			}
			rel, _ := filepath.Rel(pair[0], p)
			a, _ := os.ReadFile(p)
			b, err := os.ReadFile(filepath.Join(pair[1], rel))
			if err != nil || !bytes.Equal(a, b) {
				set[filepath.Dir(rel)] = true
			}
			return nil
		})
	}
	return slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
}

var importLine = regexp.MustCompile(`(?m)^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"`)

// copyWithImports copies the .proto files of pkg under from to dir, with
// every file they import, transitively (the well-known types are buf's
// and protocompile's own).
func copyWithImports(t *testing.T, from, pkg, dir string) {
	queue := protoFiles(t, filepath.Join(from, pkg))
	for i := range queue {
		queue[i] = filepath.ToSlash(filepath.Join(pkg, queue[i]))
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if seen[f] || strings.HasPrefix(f, "google/protobuf/") {
			continue
		}
		seen[f] = true
		data, err := os.ReadFile(filepath.Join(from, filepath.FromSlash(f)))
		if err != nil {
			continue // an import the version does not ship: both tools report it
		}
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, m := range importLine.FindAllSubmatch(data, -1) {
			queue = append(queue, string(m[1]))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "buf.yaml"), []byte("version: v2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInspectorAgreement(t *testing.T) {
	gi := os.Getenv("SPECGATE_GRAPHQL_INSPECTOR")
	if gi == "" {
		t.Skip("SPECGATE_GRAPHQL_INSPECTOR is not set")
	}
	fixtureAgreement(t, "graphql", "graphql-inspector diff", knownInspectorDifferences, func(c *formatCase) (bool, string, error) {
		return runTool(t, c.dir, 1, inspectorRefused, gi, "diff", c.base, c.rev)
	})
}

// TestInspectorAgreementHistory compares consecutive versions of GitHub's
// public schema as npm's @octokit/graphql-schema publishes them.
func TestInspectorAgreementHistory(t *testing.T) {
	gi, root, versions := history(t, "SPECGATE_GRAPHQL_INSPECTOR", "SPECGATE_GRAPHQL_HISTORY")
	loader := spec.NewLoader(spec.Options{})
	var a agreement
	for i := 1; i < len(versions); i++ {
		// The package ships the schema twice, as SDL and as introspection
		// JSON (from snapshots that are not always the same): each pair is
		// compared in both forms.
		for _, form := range []string{"schema.graphql", "schema.json"} {
			base := filepath.Join(root, versions[i-1], "package", form)
			rev := filepath.Join(root, versions[i], "package", form)
			name := versions[i-1] + "→" + versions[i] + " " + form
			inspectorPair(t, loader, gi, root, name, base, rev, &a)
		}
	}
	a.report(t, "graphql-inspector diff on @octokit/graphql-schema versions "+strings.Join(versions, ", "))
}

// inspectorPair compares one pair with specgate and graphql-inspector.
func inspectorPair(t *testing.T, loader *spec.Loader, gi, root, name, base, rev string, a *agreement) {
	res := CheckFiles(context.Background(), Options{Loader: loader}, base, rev)
	if res.Err != nil {
		t.Fatalf("%s: %v", name, res.Err)
	}
	theirs, out, err := runTool(t, root, 1, inspectorRefused, gi, "diff", base, rev)
	if err != nil {
		a.skipped = append(a.skipped, fmt.Sprintf("%s: graphql-inspector refused it: %s; specgate: %s", name, firstLine(strings.TrimPrefix(out, "[error] Error: ")), res.Message))
		return
	}
	ours := res.Verdict == Incompatible
	if ours != theirs {
		t.Logf("%s:\n  specgate: %s\n  graphql-inspector: %s", name, res.Message, out)
	}
	t.Logf("%s: specgate %s (%d breaking, %d warnings, %d info)", name, res.Verdict, res.Count(Breaking), res.Count(Warning), res.Count(Info))
	a.add(name, ours, theirs, knownInspectorDifferences, t)
}
