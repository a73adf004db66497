// Command rulesab measures a change to the built-in rules: it evaluates the
// rules of this checkout and those of a git revision on one spec, in the
// same process and on the same input, one after the other, and prints the
// fastest and the median evaluation of each, and whether their findings
// differ.
//
//	go run ./bench/rulesab -spec ../shared/corpus/kubernetes.json
//	go run ./bench/rulesab -base HEAD~3 -spec ../shared/corpus/stripe.yaml -rules json-property-names
//	go run ./bench/rulesab -spec ../shared/corpus/stripe.yaml -rules media-type-examples -cpuprofile /tmp/rule.prof
//
// Timing whole runs of the binary cannot see a change of a few percent on
// a shared machine, whose speed varies by more than that from one process
// to the next; alternating the two rule sets in one process, after a
// garbage collection each, can. By default the evaluation uses one core
// (-cpu), so that the time is the work of the rules, not how it was shared
// out. Only the rules change: the input is built once, by this checkout.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/specgate/specgate/bench/internal/prof"
	"github.com/specgate/specgate/policy"
	inputpkg "github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

func main() {
	base := flag.String("base", "HEAD", "git revision whose rules/ are compared with the checkout's")
	specFile := flag.String("spec", "", "the spec to lint (required)")
	only := flag.String("rules", "", "comma-separated rule ids to evaluate (default: every rule for the spec's format)")
	runs := flag.Int("runs", 9, "evaluations of each rule set")
	cpu := flag.Int("cpu", 1, "cores the evaluation may use")
	profile := flag.String("cpuprofile", "", "after the comparison, evaluate the checkout's rules -runs times more and write their CPU profile to this file")
	flag.Parse()
	if *specFile == "" || *runs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*base, *specFile, *only, *runs, *cpu, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "rulesab:", err)
		os.Exit(1)
	}
}

func run(base, specFile, only string, runs, cpu int, profile string) error {
	ctx := context.Background()
	tmp, err := os.MkdirTemp("", "specgate-rulesab-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if _, err := os.Stat(filepath.Join("rules", "lib")); err != nil {
		return fmt.Errorf("no rules/lib here: run from the repository's root")
	}
	tarball := filepath.Join(tmp, "rules.tar")
	for _, args := range [][]string{{"git", "archive", "-o", tarball, base, "rules"}, {"tar", "-x", "-f", tarball, "-C", tmp}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("reading rules/ of %s: %s: %v\n%s", base, args[0], err, out)
		}
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(ctx, specFile)
	if err != nil {
		return err
	}
	input := inputpkg.Build(doc)
	var ids []string
	if only != "" {
		ids = strings.Split(only, ",")
	}
	sides := []struct {
		name, dir string
		engine    *policy.Engine
		times     []time.Duration
		cpu       []time.Duration
		findings  []policy.Violation
	}{{name: base, dir: filepath.Join(tmp, "rules")}, {name: "checkout", dir: "rules"}}
	for i := range sides {
		reg, err := policy.LoadFS(os.DirFS(sides[i].dir), ".", true, nil)
		if err != nil {
			return fmt.Errorf("rules of %s: %w", sides[i].name, err)
		}
		var rules []*policy.Rule
		for _, r := range reg.Rules {
			if r.AppliesTo(doc.FormatTags()) && (ids == nil || slices.Contains(ids, r.ID)) {
				rules = append(rules, r)
			}
		}
		if len(rules) == 0 {
			return fmt.Errorf("no rule of %s applies to %s", sides[i].name, specFile)
		}
		if sides[i].engine, err = policy.Compile(ctx, rules, reg.Libs, 0, nil); err != nil {
			return fmt.Errorf("rules of %s: %w", sides[i].name, err)
		}
	}
	runtime.GOMAXPROCS(cpu)
	for range runs {
		for i := range sides {
			runtime.GC()
			start, startCPU := time.Now(), prof.CPUTime()
			vs, err := sides[i].engine.Eval(ctx, input)
			if err != nil {
				return fmt.Errorf("rules of %s: %w", sides[i].name, err)
			}
			sides[i].times = append(sides[i].times, time.Since(start))
			sides[i].cpu = append(sides[i].cpu, prof.CPUTime()-startCPU)
			sides[i].findings = vs
		}
	}
	for _, s := range sides {
		slices.Sort(s.times)
		slices.Sort(s.cpu)
		fmt.Printf("%-10s %3d rules  fastest %8v  median %8v  CPU fastest %8v median %8v  %d findings\n", s.name, len(s.engine.Rules()),
			s.times[0].Round(time.Millisecond), s.times[len(s.times)/2].Round(time.Millisecond),
			s.cpu[0].Round(time.Millisecond), s.cpu[len(s.cpu)/2].Round(time.Millisecond), len(s.findings))
	}
	if diff := differ(sides[0].findings, sides[1].findings); diff != "" {
		fmt.Printf("the findings differ:\n%s", diff)
	} else {
		fmt.Println("same findings")
	}
	if profile != "" {
		return profileEval(ctx, sides[1].engine, input, runs, profile)
	}
	return nil
}

// profileEval writes the CPU profile of runs evaluations of the engine's
// rules on the input.
func profileEval(ctx context.Context, engine *policy.Engine, input ast.Value, runs int, path string) error {
	stop, err := prof.StartCPU(path)
	if err != nil {
		return err
	}
	for range runs {
		if _, err := engine.Eval(ctx, input); err != nil {
			stop()
			return err
		}
	}
	return stop()
}

// differ lists, up to ten of each, the findings only one side reports.
func differ(a, b []policy.Violation) string {
	key := func(v policy.Violation) string { return fmt.Sprintf("%s %s %v: %s", v.Rule, v.File, v.Path, v.Message) }
	count := func(vs []policy.Violation) map[string]int {
		m := map[string]int{}
		for _, v := range vs {
			m[key(v)]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	var out strings.Builder
	for _, side := range []struct {
		sign      string
		this, can map[string]int
	}{{"-", ca, cb}, {"+", cb, ca}} {
		var only []string
		for k, n := range side.this {
			if side.can[k] < n {
				only = append(only, k)
			}
		}
		slices.Sort(only)
		for i, k := range only {
			if i == 10 {
				fmt.Fprintf(&out, "%s … and %d more\n", side.sign, len(only)-10)
				break
			}
			fmt.Fprintf(&out, "%s %s\n", side.sign, k)
		}
	}
	return out.String()
}
