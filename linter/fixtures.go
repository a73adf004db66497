package linter

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Want is an expected diagnostic of a fixture: a rule at a line.
type Want struct {
	Line int
	Rule string
}

func (w Want) String() string { return fmt.Sprintf("line %d: %s", w.Line, w.Rule) }

var wantRE = regexp.MustCompile(`(?:#|//)\s*want((?:\s+"[^"]+")+)\s*$`)
var quotedRE = regexp.MustCompile(`"([^"]+)"`)

// wantXMLRE is the want comment of XML fixtures (WSDL), which have no line
// comments: `<!-- want "rule-id" -->` at the end of the line.
var wantXMLRE = regexp.MustCompile(`<!--\s*want((?:\s+"[^"]+")+)\s*-->\s*$`)

// ReadWants reads a fixture's expectations. YAML and GraphQL fixtures
// carry `# want "rule-id" ["rule-id" …]` at the end of the offending line,
// Protocol Buffers fixtures `// want "rule-id"`, WSDL fixtures
// `<!-- want "rule-id" -->`; JSON fixtures, which have
// no comments, carry a sidecar file `<name>.want` with one "LINE rule-id"
// per line.
func ReadWants(path string) ([]Want, error) {
	if strings.HasSuffix(path, ".json") {
		return readSidecar(path + ".want")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var wants []Want
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		m := wantRE.FindStringSubmatch(sc.Text())
		if m == nil {
			m = wantXMLRE.FindStringSubmatch(sc.Text())
		}
		if m == nil {
			continue
		}
		for _, q := range quotedRE.FindAllStringSubmatch(m[1], -1) {
			wants = append(wants, Want{Line: line, Rule: q[1]})
		}
	}
	return wants, sc.Err()
}

func readSidecar(path string) ([]Want, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var wants []Want
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		num, rule, ok := strings.Cut(l, " ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("%s:%d: expected \"LINE rule-id\", found %q", path, i+1, l)
		}
		wants = append(wants, Want{Line: n, Rule: strings.TrimSpace(rule)})
	}
	return wants, nil
}

// Compare matches diagnostics of the entry file against wants and returns
// what was expected and not found, and what was found and not expected.
func Compare(res Result, wants []Want) (missing, unexpected []Want) {
	got := map[Want]int{}
	for _, d := range res.Findings {
		if d.File == res.File {
			got[Want{Line: int(d.Range.Start.Line), Rule: d.Rule}]++
		} else {
			unexpected = append(unexpected, Want{Line: int(d.Range.Start.Line), Rule: d.Rule + " (in " + d.File + ")"})
		}
	}
	for _, w := range wants {
		if got[w] > 0 {
			got[w]--
		} else {
			missing = append(missing, w)
		}
	}
	for w, n := range got {
		for range n {
			unexpected = append(unexpected, w)
		}
	}
	sort.Slice(unexpected, func(i, j int) bool { return unexpected[i].Line < unexpected[j].Line })
	return missing, unexpected
}

// IsFixture reports whether a file of a testdata folder is a fixture by
// its name: a specification in YAML, JSON, Protocol Buffers, GraphQL or
// WSDL.
func IsFixture(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json", ".proto", ".graphql", ".graphqls", ".gql", ".wsdl":
		return true
	}
	return false
}
