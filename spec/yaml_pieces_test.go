package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/internal/corpusspecs"
)

// yamlTree prints a yaml.v3 tree with everything the conversion reads
// (kinds, styles, tags, values, anchors, aliases, lines and columns), one
// node per line.
func yamlTree(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%s%d %d %q %q &%s %d:%d", strings.Repeat(" ", depth), n.Kind, n.Style, n.Tag, n.Value, n.Anchor, n.Line, n.Column)
		if n.Alias != nil {
			fmt.Fprintf(&b, " *%s@%d:%d", n.Alias.Anchor, n.Alias.Line, n.Alias.Column)
		}
		b.WriteByte('\n')
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// checkPieces parses data cut into parts pieces and whole: when the
// pieces join, the trees must be the same, and the whole must parse.
// It tells whether the pieces joined.
func checkPieces(t *testing.T, name string, data []byte, parts int) bool {
	t.Helper()
	data = loneCRToLF(data) // as parseYAML does first
	cuts := chooseCuts(data, parts)
	joined, ok := parseCut(data, cuts)
	if !ok {
		return false
	}
	var whole yaml.Node
	if err := decodeOne(data, &whole); err != nil {
		t.Fatalf("%s in %d pieces (cuts %v) joined, but whole it does not parse: %v", name, parts, cuts, err)
	}
	if got, want := yamlTree(joined), yamlTree(&whole); got != want {
		t.Fatalf("%s in %d pieces (cuts %v) differs from the whole:\n%s", name, parts, cuts, firstDiff(got, want))
	}
	return true
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("node %d: %s\nwant:    %s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d nodes, want %d", len(g), len(w))
}

// TestYAMLPiecesParseAlike: every YAML file of the corpus and of the
// fixtures, cut into 2 to 6 pieces, parses to the tree it parses to whole;
// the large specs are cut (so the parallel path is the one they take).
func TestYAMLPiecesParseAlike(t *testing.T) {
	files := corpusspecs.Files("../../shared/corpus", ".yaml", ".yml")
	for _, pattern := range []string{"../testdata/*/*.y*ml", "../testdata/*/*/*.y*ml", "testdata/*/*.y*ml", "../rules/*/testdata/*.y*ml"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d YAML files found", len(files))
	}
	// The large corpus specs are cut 2 to 6 ways with SPECGATE_CORPUS=1
	// (which .ci/run sets), 3 ways otherwise: the five cuts of stripe.yaml
	// and openai.yaml took most of this package's tests.
	all := os.Getenv("SPECGATE_CORPUS") == "1"
	cut := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for parts := 2; parts <= 6; parts++ {
			if len(data) > 1<<20 && !all && parts != 3 {
				continue
			}
			if checkPieces(t, f, data, parts) {
				cut[filepath.Base(f)] = true
			}
		}
	}
	for _, large := range []string{"stripe.yaml", "openai.yaml"} {
		if _, err := os.Stat("../../shared/corpus/" + large); err == nil && !cut[large] {
			t.Errorf("%s is never parsed in pieces", large)
		}
	}
	if len(cut) < 10 {
		t.Errorf("only %d files parsed in pieces: %v", len(cut), cut)
	}
}

// TestYAMLPiecesCutWhereKeysStart: cuts fall before top-level keys and
// before the keys of a top-level key's mapping, never before its first.
func TestYAMLPiecesCutWhereKeysStart(t *testing.T) {
	src := "---\nopenapi: 3.1.0\ninfo:\n  title: T\n  version: \"1\"\npaths:\n  /a:\n    get: {}\n  # a comment\n  /b:\n    get: {}\n  '/c': {}\ncomponents:  # the rest\n  schemas:\n    A:\n      type: string\n    B: {}\n    C: {}\n  responses: {}\n"
	var got []string
	for _, c := range cutCandidates([]byte(src)) {
		got = append(got, fmt.Sprintf("%d:%s:%s", c.line, strings.Join(c.keys, "/"), strings.SplitN(src[c.offset:], "\n", 2)[0]))
	}
	want := []string{"3::info:", "5:info:  version: \"1\"", "6::paths:", "10:paths:  /b:", "12:paths:  '/c': {}", "13::components:  # the rest",
		"17:components/schemas:    B: {}", "18:components/schemas:    C: {}", "19:components:  responses: {}"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("candidates\n%v\nwant\n%v", got, want)
	}
	for parts := 2; parts <= 6; parts++ {
		if !checkPieces(t, "src", []byte(src), parts) {
			t.Fatalf("the document in %d pieces did not join", parts)
		}
	}
}

// TestYAMLPiecesFallBack: what a cut would change is parsed whole.
func TestYAMLPiecesFallBack(t *testing.T) {
	for name, src := range map[string]string{
		// An alias to an anchor of an earlier piece.
		"alias": "a: &x {k: v}\nb: 1\nc: *x\nd: 2\n",
		"merge": "paths:\n  /a: &op {get: {}}\n  /b: {}\n  /c:\n    <<: *op\n",
		// A flow collection or quoted scalar open across a cut.
		"flow":   "a: [1,\nb: 2]\nc: 3\n",
		"quoted": "a: \"x\nb: y\"\nc: 3\n",
		// A plain scalar on the lines after its key.
		"plain": "info:\n  a\n  b\n  c\nx: 1\n",
	} {
		t.Run(name, func(t *testing.T) {
			for parts := 2; parts <= 4; parts++ {
				if checkPieces(t, name, []byte(src), parts) {
					t.Errorf("%q in %d pieces joined (cuts %v)", src, parts, chooseCuts([]byte(src), parts))
				}
			}
		})
	}
	// A flow mapping is not cut inside (its last line is).
	if cuts := cutCandidates([]byte("paths: {\n  a: 1,\n  b: 2,\n  c: 3}\nx: 1\n")); len(cuts) != 1 || len(cuts[0].keys) != 0 || cuts[0].line != 5 {
		t.Errorf("a flow mapping's candidates: %v, want the line of x alone", cuts)
	}
	for name, src := range map[string]string{
		"directive":      "%YAML 1.2\n---\na: 1\nb: 2\n",
		"two documents":  "a: 1\n---\nb: 2\n",
		"end marker":     "a: 1\n...\n",
		"sequence":       "- a: 1\n- b: 2\n",
		"flow":           "{a: 1,\nb: 2}\n",
		"tabs":           "a: 1\n\tb: 2\nc: 3\n",
		"line separator": "a: 1\nb: x\u2028y\nc: 3\n",
	} {
		if cuts := cutCandidates([]byte(src)); cuts != nil {
			t.Errorf("%s: %q has cut candidates %v", name, src, cuts)
		}
	}
}

// FuzzYAMLPieces: any text that parses in pieces parses whole to the same
// tree.
func FuzzYAMLPieces(f *testing.F) {
	for _, s := range []string{
		"a: 1\nb:\n  c: 2\n  d: 3\n  e: [4]\nf: &x 5\ng: *x\n",
		"paths:\n  /a:\n    get: {}\n  /b:\n    get: {}\ncomponents:\n  schemas:\n    A: {type: string}\n    B: {type: string}\n",
		"a: \"x\ny\"\nb: |\n  text\nc: 'q'\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for parts := 2; parts <= 4; parts++ {
			checkPieces(t, "input", data, parts)
		}
	})
}

// TestYAMLConvertsAlikeInParallel: converting a document's largest
// top-level value on a core of its own gives the tree the one-piece
// conversion gives, positions included, on every YAML file of the corpus
// and fixtures (whatever its size here); a document whose parts an alias
// ties together is converted in one piece.
func TestYAMLConvertsAlikeInParallel(t *testing.T) {
	defer func(size int) { parallelYAML = size }(parallelYAML)
	parallelYAML = 0
	files := corpusspecs.Files("../../shared/corpus", ".yaml", ".yml")
	for _, pattern := range []string{"../testdata/*/*.y*ml", "../testdata/*/*/*.y*ml", "testdata/*/*.y*ml", "../rules/*/testdata/*.y*ml"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	lim := Limits{MaxDepth: 1000, MaxNodes: 16_000_000, MaxAliasFactor: 10}
	parallel := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if decodeOne(data, &doc) != nil || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
			continue
		}
		want, err := newYAMLConv(doc.Content[0], data, lim).node(doc.Content[0], 0)
		got, ok := convertInParallel(doc.Content[0], data, lim)
		if !ok {
			continue
		}
		parallel++
		if err != nil {
			t.Errorf("%s: converted in parallel, but in one piece: %v", f, err)
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the trees differ", f)
		}
	}
	if parallel < 20 {
		t.Errorf("only %d files converted in parallel", parallel)
	}
	tied := "openapi: 3.1.0\ninfo: &info\n  title: T\n  version: \"1\"\npaths:\n  /a:\n    get: {}\n  /b:\n    get: {}\nx-info: *info\n"
	var doc yaml.Node
	if err := decodeOne([]byte(tied), &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := convertInParallel(doc.Content[0], []byte(tied), lim); ok {
		t.Error("a document with an alias was converted in parallel")
	}
}
