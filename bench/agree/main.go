// Command agree compares specgate's findings with its peers', rule by rule,
// on the specs of ../shared/corpus (issue 4, agreement with peers). For
// every peer rule that a built-in rule mirrors (its METADATA names it in
// `peers`), it prints how many findings specgate's mirroring rules and the
// peer rule report on each spec, and the lines only one of them reports, so
// that each difference can be looked at. docs/rules/agreement.md records
// the verdicts.
//
//	go run ./bench -install                 # once: vacuum, Spectral and Redocly into the cache
//	go run ./bench/agree                    # the default specs, vacuum and Spectral
//	go run ./bench/agree -specs github.json -peers vacuum -rules operation-4xx-response
//
// specgate runs the strict ruleset (every built-in rule is on there);
// vacuum runs its `all` and OWASP rulesets (its AsyncAPI one on AsyncAPI
// specs), Spectral spectral:oas and
// spectral:asyncapi with every rule, off-by-default ones included, so that
// each mirrored rule is compared whatever the peer's default.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/specgate/specgate/bench/internal/cachedir"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

var defaultSpecs = []string{
	"petstore-expanded.yaml", "uber-v2.json", "uspto.yaml", "webhook-example-3.1.yaml",
	"discord.json", "twilio-api-v2010.json", "asyncapi-slack-rtm.yml", "asyncapi-streetlights-kafka-2.6.yml",
}

// findings maps a rule id to the lines (1-based) it reported, one entry
// per finding.
type findings map[string][]int

type peer struct {
	name    string
	base    int                     // what to add to the report's line numbers: Spectral's are 0-based, vacuum's 1-based
	ruleset func(async bool) string // the peer's ruleset file, enabling every rule
	cmd     func(cache, ruleset, spec string) []string
}

var peers = []peer{
	{
		name: "vacuum",
		base: 0,
		// vacuum drops its OpenAPI rules when its AsyncAPI ruleset is
		// extended too: one or the other, by the spec's format.
		ruleset: func(async bool) string {
			if async {
				return "extends: [[vacuum:asyncapi, all]]\n"
			}
			return "extends: [[vacuum:oas, all], [vacuum:owasp, all]]\n"
		},
		cmd: func(cache, ruleset, spec string) []string {
			// -g: a rule timeout long enough that no rule is dropped.
			return []string{filepath.Join(cache, "vacuum"), "spectral-report", "-r", ruleset, "-g", "120", "-o", "-n", spec}
		},
	},
	{
		name: "spectral",
		base: 1,
		ruleset: func(bool) string {
			return "extends: [[\"spectral:oas\", \"all\"], [\"spectral:asyncapi\", \"all\"]]\n"
		},
		cmd: func(cache, ruleset, spec string) []string {
			return []string{filepath.Join(cache, "npm", "node_modules", ".bin", "spectral"), "lint", spec, "-f", "json", "--ruleset", ruleset}
		},
	},
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "folder of specs")
	specsFlag := flag.String("specs", strings.Join(defaultSpecs, ","), "comma-separated spec file names")
	peersFlag := flag.String("peers", "vacuum,spectral", "peers to compare with, comma-separated")
	rulesFlag := flag.String("rules", "", "only these specgate rules, comma-separated (default: every mirroring rule)")
	show := flag.Int("show", 8, "lines listed per side and row")
	keep := flag.String("keep", "", "folder to keep every report in (<spec>.<tool>.json), to look at the findings")
	flag.Parse()

	cache := cachedir.Path()
	work, err := os.MkdirTemp("", "specgate-agree")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(work)
	sg := filepath.Join(work, "specgate")
	if out, err := exec.Command("go", "build", "-o", sg, ".").CombinedOutput(); err != nil {
		fail(fmt.Errorf("building specgate: %v\n%s", err, out))
	}
	mirrors, err := mirrorsOf(split(*rulesFlag))
	if err != nil {
		fail(err)
	}
	formats, err := peerFormats()
	if err != nil {
		fail(err)
	}
	loader := spec.NewLoader(spec.Options{})
	fmt.Println("| peer rule | specgate rules | spec | specgate | peer | lines only specgate reports | lines only the peer reports |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, name := range split(*specsFlag) {
		file := filepath.Join(*corpus, name)
		doc, err := loader.Load(context.Background(), file)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			continue
		}
		tags := doc.FormatTags()
		ours, err := runSpecgate(sg, file, *keep)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: specgate: %v\n", name, err)
			continue
		}
		for _, p := range peers {
			if !slices.Contains(split(*peersFlag), p.name) {
				continue
			}
			theirs, err := runPeer(cache, work, p, file, slices.Contains(tags, "asyncapi"), *keep)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %s: %v\n", name, p.name, err)
				continue
			}
			for _, id := range sortedKeys(mirrors) {
				peerName, rule, _ := strings.Cut(id, ":")
				if peerName != p.name || !slices.ContainsFunc(formats[id], func(f string) bool { return slices.Contains(tags, f) }) {
					continue
				}
				var mine []int
				for _, r := range mirrors[id] {
					mine = append(mine, ours[r]...)
				}
				other := theirs[rule]
				if len(mine) == 0 && len(other) == 0 {
					continue
				}
				onlyMine, onlyOther := difference(mine, other), difference(other, mine)
				fmt.Printf("| %s | %s | %s | %d | %d | %s | %s |\n", id, strings.Join(mirrors[id], ", "), name,
					len(mine), len(other), lines(onlyMine, *show), lines(onlyOther, *show))
			}
		}
	}
}

// mirrorsOf maps each peer rule ("vacuum:<id>") to the built-in rules that
// mirror it, keeping only the rules asked for.
func mirrorsOf(only []string) (map[string][]string, error) {
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for key, ids := range rulesets.Mirrors(rulesets.Catalog(reg)) {
		for _, id := range ids {
			if len(only) == 0 || slices.Contains(only, id) {
				out[key] = append(out[key], id)
			}
		}
	}
	return out, nil
}

// peerFormats maps each peer rule to the formats it applies to, so that
// a rule is compared only on the specs it is meant for.
func peerFormats() (map[string][]string, error) {
	rules, err := rulesets.Peers()
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, r := range rules {
		out[r.Key()] = append(out[r.Key()], r.Formats...)
	}
	return out, nil
}

func runSpecgate(bin, spec, keep string) (findings, error) {
	out, err := exec.Command(bin, "lint", spec, "--ruleset", "strict", "--format", "json", "--no-report", "--fail-severity", "off").Output()
	if err != nil {
		return nil, err
	}
	if err := keepReport(keep, spec, "specgate", out); err != nil {
		return nil, err
	}
	var rep struct {
		Diagnostics []struct {
			RuleID string `json:"ruleId"`
			File   string `json:"file"`
			Line   int    `json:"line"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, err
	}
	f := findings{}
	for _, d := range rep.Diagnostics {
		if sameFile(d.File, spec) {
			f[d.RuleID] = append(f[d.RuleID], d.Line)
		}
	}
	return f, nil
}

// runPeer runs a peer and reads its Spectral-format report.
// Peers exit non-zero when they find problems: only a missing report is
// an error.
func runPeer(cache, work string, p peer, spec string, async bool, keep string) (findings, error) {
	ruleset := filepath.Join(work, p.name+"-ruleset.yaml")
	if err := os.WriteFile(ruleset, []byte(p.ruleset(async)), 0o644); err != nil {
		return nil, err
	}
	argv := p.cmd(cache, ruleset, spec)
	if _, err := os.Stat(argv[0]); err != nil {
		return nil, fmt.Errorf("not installed (go run ./bench -install)")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if err := keepReport(keep, spec, p.name, stdout.Bytes()); err != nil {
		return nil, err
	}
	rows, ok := report(stdout.Bytes())
	if !ok {
		return nil, fmt.Errorf("no report (%v): %s", runErr, firstLine(stderr.String()+stdout.String()))
	}
	f := findings{}
	for _, r := range rows {
		if r.Source == "" || sameFile(r.Source, spec) {
			code := fmt.Sprint(r.Code)
			f[code] = append(f[code], r.Range.Start.Line+p.base)
		}
	}
	return f, nil
}

// keepReport writes a tool's report into the keep folder, if one is set.
func keepReport(keep, spec, tool string, out []byte) error {
	if keep == "" {
		return nil
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(keep, filepath.Base(spec)+"."+tool+".json"), out, 0o644)
}

type row struct {
	Code   any    `json:"code"`
	Source string `json:"source"`
	Range  struct {
		Start struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
}

// report reads the JSON array of findings from a peer's output, skipping
// anything printed before it (banners, colour codes holding '[').
func report(out []byte) ([]row, bool) {
	for i := 0; i < len(out); i++ {
		if out[i] != '[' {
			continue
		}
		var rows []row
		if json.Unmarshal(out[i:], &rows) == nil {
			return rows, true
		}
	}
	return nil, false
}

func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// difference lists the distinct lines of a that b does not report.
func difference(a, b []int) []int {
	var out []int
	for _, l := range a {
		if !slices.Contains(b, l) && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

func lines(ls []int, max int) string {
	if len(ls) == 0 {
		return "–"
	}
	var parts []string
	for i, l := range ls {
		if i == max {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(ls)-max))
			break
		}
		parts = append(parts, fmt.Sprint(l))
	}
	return strings.Join(parts, " ")
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "agree:", err)
	os.Exit(2)
}
