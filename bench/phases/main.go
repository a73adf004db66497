// Command phases shows where one lint of a spec goes, in one process:
// the time and the live heap after loading, after building the views and
// the OPA input, and after evaluating the rules, then the slowest rules
// and the library values they computed.
//
//	go run ./bench/phases -spec ../shared/corpus/kubernetes.json
//	go run ./bench/phases -spec loket.nl.json -ruleset recommended -top 20 -cpu 1
//
// The live heap is measured after a garbage collection, so it is what
// the phase keeps, not its peak; the process's peak is printed at the end.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/specgate/specgate/bench/internal/prof"
	"github.com/specgate/specgate/policy"
	inputpkg "github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

func main() {
	specFile := flag.String("spec", "", "the spec to lint (required)")
	ruleset := flag.String("ruleset", "recommended", "built-in ruleset")
	top := flag.Int("top", 15, "slowest rules to list")
	cpu := flag.Int("cpu", 0, "cores the evaluation may use (default: all)")
	runs := flag.Int("runs", 1, "evaluations (the fastest is shown)")
	profile := flag.String("cpuprofile", "", "write the CPU profile of the whole run to this file")
	cpuClock := flag.Bool("cpuclock", false, "time the rules by the process's CPU time, not the wall clock (with -cpu 1: for a busy machine)")
	memprofile := flag.String("memprofile", "", "write the heap profile after the input is built to this file, and after the rules ran to this file with .eval appended (go tool pprof -sample_index=alloc_space -base FILE FILE.eval shows what the rules allocated)")
	inputOnly := flag.Bool("input-only", false, "stop once the input is built (no rules are compiled or evaluated): the load, views and input phases alone")
	flag.Parse()
	if *specFile == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*specFile, *ruleset, *top, *cpu, *runs, *profile, *memprofile, *cpuClock, *inputOnly); err != nil {
		fmt.Fprintln(os.Stderr, "phases:", err)
		os.Exit(1)
	}
}

func run(specFile, ruleset string, top, cpu, runs int, profile, memprofile string, cpuClock, inputOnly bool) error {
	ctx := context.Background()
	if cpuClock {
		ctx = policy.WithClock(ctx, prof.CPUTime)
	}
	if profile != "" {
		stop, err := prof.StartCPU(profile)
		if err != nil {
			return err
		}
		defer stop()
	}
	setup, err := rulesets.Load(rulesets.Options{Ruleset: ruleset, NoSearch: true})
	if err != nil {
		return err
	}
	var rules []*policy.Rule
	for _, id := range slices.Sorted(slices.Values(setup.Severities.Enabled())) {
		if r := setup.Registry.Rule(id); r != nil {
			rules = append(rules, r)
		}
	}
	var engine *policy.Engine
	if !inputOnly {
		if engine, err = policy.Compile(ctx, rules, setup.Registry.Libs, 0, nil); err != nil {
			return err
		}
	}
	size := int64(0)
	if st, err := os.Stat(specFile); err == nil {
		size = st.Size()
	}
	fmt.Printf("%s: %.1f MB, %d rules of %s\n", specFile, float64(size)/1e6, len(rules), ruleset)
	base := live()
	var startCPU time.Duration
	step := func(name string, start time.Time) {
		fmt.Printf("%-8s %8v  CPU %8v  live heap %6.1f MiB (%.1f× the file)\n", name, time.Since(start).Round(time.Millisecond),
			(prof.CPUTime() - startCPU).Round(time.Millisecond), mib(live()-base), float64(live()-base)/float64(max(size, 1)))
		startCPU = prof.CPUTime()
	}
	startCPU = prof.CPUTime()
	start := time.Now()
	doc, err := spec.NewLoader(spec.Options{}).Load(ctx, specFile)
	if err != nil {
		return err
	}
	step("load", start)
	start = time.Now()
	doc.Views()
	step("views", start)
	start = time.Now()
	input := inputpkg.Build(doc)
	step("input", start)
	if memprofile != "" {
		if err := writeHeapProfile(memprofile); err != nil {
			return err
		}
	}
	if inputOnly {
		runtime.KeepAlive(input)
		runtime.KeepAlive(doc)
		return nil
	}
	if cpu > 0 {
		runtime.GOMAXPROCS(cpu)
	}
	var best []policy.RuleTime
	var bestTime time.Duration
	var findings int
	for range runs {
		runtime.GC()
		start, startCPU := time.Now(), prof.CPUTime()
		vs, times, err := engine.EvalTimed(ctx, input)
		if err != nil {
			return err
		}
		d := time.Since(start)
		if cpuClock {
			d = prof.CPUTime() - startCPU
		}
		if best == nil || d < bestTime {
			best, bestTime, findings = times, d, len(vs)
		}
	}
	fmt.Printf("%-8s %8v  %d findings on %d cores\n", "rules", bestTime.Round(time.Millisecond), findings, runtime.GOMAXPROCS(0))
	if memprofile != "" {
		if err := writeHeapProfile(memprofile + ".eval"); err != nil {
			return err
		}
	}
	var sum time.Duration
	for _, t := range best {
		sum += t.Time
	}
	fmt.Printf("\nrule time %v in all; the slowest:\n", sum.Round(time.Millisecond))
	for i, t := range best {
		if i == top {
			break
		}
		fmt.Printf("%8v  %-40s %6d findings", t.Time.Round(100*time.Microsecond), t.Rule, t.Findings)
		if t.Shared > 0 {
			fmt.Printf("  (%v computing shared values", t.Shared.Round(100*time.Microsecond))
			for j, v := range t.Values {
				if j == 3 {
					fmt.Printf(", …")
					break
				}
				fmt.Printf(", %s %v", v.Value, v.Time.Round(100*time.Microsecond))
			}
			fmt.Printf(")")
		}
		fmt.Println()
	}
	// The document was live to the end, as in a lint run, which locates
	// the findings in it.
	runtime.KeepAlive(doc)
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		fmt.Printf("\npeak RSS of this process %d MiB\n", ru.Maxrss/1024)
	}
	return nil
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func live() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
