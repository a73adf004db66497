package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/reports"
)

// DefaultReport is where lint writes its JSON report, next to the terminal
// output, unless --report moves it, --no-report turns it off, or the json
// format is written elsewhere.
const DefaultReport = "specgate-report.json"

func outputFlags() []cli.Flag {
	names := strings.Join(reports.FormatNames(), ", ")
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "format", Aliases: []string{"f"}, Usage: "output `FORMAT` (repeatable): " + names + "; text is stylish"},
		&cli.StringSliceFlag{Name: "output", Aliases: []string{"o"}, Usage: "write a format to a file instead of standard output: `FORMAT=PATH` (repeatable)"},
		&cli.StringFlag{Name: "report", Value: DefaultReport, Usage: "where to write the JSON report"},
		&cli.BoolFlag{Name: "no-report", Usage: "do not write the JSON report file"},
	}
}

// output is one format and where it goes ("" is standard output).
type output struct {
	format reports.Format
	path   string
}

// parseOutputs reads --format, --output, --report and --no-report:
// formats named in --output go to their files, the other --format ones to
// standard output, and standard output gets stylish when nothing else goes
// there. The JSON report file is added unless json is written elsewhere
// already or --no-report is given.
func parseOutputs(c *cli.Context) ([]output, error) {
	var outs []output
	toFile := map[string]bool{}
	for _, arg := range c.StringSlice("output") {
		name, path, ok := strings.Cut(arg, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("--output wants FORMAT=PATH, found %q", arg)
		}
		f, err := lookupFormat(name)
		if err != nil {
			return nil, err
		}
		outs = append(outs, output{format: f, path: path})
		toFile[f.Name] = true
	}
	var stdout []output
	for _, name := range c.StringSlice("format") {
		f, err := lookupFormat(name)
		if err != nil {
			return nil, err
		}
		if !toFile[f.Name] && !hasFormat(stdout, f.Name) {
			stdout = append(stdout, output{format: f})
		}
	}
	if len(stdout) == 0 {
		f, _ := reports.Lookup("stylish")
		stdout = append(stdout, output{format: f})
	}
	if len(stdout) > 1 {
		for _, o := range stdout {
			if !o.format.Text {
				return nil, fmt.Errorf("--format %s writes one document and cannot share standard output with other formats; send it to a file with --output %s=PATH", o.format.Name, o.format.Name)
			}
		}
	}
	outs = append(stdout, outs...)
	if !c.Bool("no-report") && (c.IsSet("report") || !hasFormat(outs, "json")) {
		f, _ := reports.Lookup("json")
		outs = append(outs, output{format: f, path: c.String("report")})
	}
	return outs, nil
}

func lookupFormat(name string) (reports.Format, error) {
	f, ok := reports.Lookup(name)
	if !ok {
		return f, fmt.Errorf("unknown format %q (known: %s; text is stylish)", name, strings.Join(reports.FormatNames(), ", "))
	}
	return f, nil
}

func hasFormat(outs []output, name string) bool {
	for _, o := range outs {
		if o.format.Name == name {
			return true
		}
	}
	return false
}

// writeOutputs writes every output of the run.
func writeOutputs(outs []output, run *reports.Run, stdout io.Writer) error {
	for _, o := range outs {
		if o.path == "" {
			if err := o.format.Write(stdout, run); err != nil {
				return fmt.Errorf("writing %s to standard output: %w", o.format.Name, err)
			}
			continue
		}
		if err := writeFile(o.path, func(w io.Writer) error { return o.format.Write(w, run) }); err != nil {
			return fmt.Errorf("writing the %s report %s: %w", o.format.Name, o.path, err)
		}
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// lintInputs lints names in parallel, in input order, ticking bar after
// each file. With operations set, it also lists the operations of each
// file it loaded (for the html report); standard input is read once, so it
// has none.
func lintInputs(ctx context.Context, l *linter.Linter, pre *linter.Preloaded, names []string, bar *progressBar, operations bool) ([]linter.Result, map[string][]reports.Operation) {
	results := make([]linter.Result, len(names))
	ops := make([][]reports.Operation, len(names))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], ops[i] = lintInput(ctx, l, pre, names[i], operations)
				bar.tick()
			}
		}()
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	bar.finish()
	if !operations {
		return results, nil
	}
	byFile := map[string][]reports.Operation{}
	for i, r := range results {
		if ops[i] != nil {
			byFile[r.File] = ops[i]
		}
	}
	return results, byFile
}

func lintInput(ctx context.Context, l *linter.Linter, pre *linter.Preloaded, name string, operations bool) (linter.Result, []reports.Operation) {
	res, doc := l.LintPreloaded(ctx, pre, name, operations)
	if !operations || doc == nil {
		return res, nil
	}
	return res, reports.OperationsOf(doc)
}

// repoRoot is the folder SARIF and GitHub annotations make paths relative
// to: $GITHUB_WORKSPACE in GitHub Actions, else the enclosing git work tree,
// else the working directory.
func repoRoot(env Env, wd string) string {
	if ws := env.Getenv("GITHUB_WORKSPACE"); ws != "" {
		if abs, err := filepath.Abs(ws); err == nil {
			return abs
		}
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}

// stderrIsTerminal reports whether progress may be drawn on standard error.
func stderrIsTerminal(env Env) bool {
	if env.StderrIsTerminal {
		return true
	}
	f, ok := env.Stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && env.Getenv("TERM") != "dumb"
}

// progressMinFiles is the number of inputs from which lint shows progress.
const progressMinFiles = 2

// progressBar draws "[#####.....] 5/10 files" on a terminal's standard
// error, redrawn in place and erased when linting ends. A nil bar draws
// nothing.
type progressBar struct {
	mu          sync.Mutex
	w           io.Writer
	done, total int
}

func newProgressBar(env Env, total int) *progressBar {
	if total < progressMinFiles || !stderrIsTerminal(env) {
		return nil
	}
	b := &progressBar{w: env.Stderr, total: total}
	b.draw()
	return b
}

const progressWidth = 30

func (b *progressBar) draw() {
	filled := progressWidth * b.done / b.total
	fmt.Fprintf(b.w, "\r[%s%s] %d/%d files", strings.Repeat("#", filled), strings.Repeat(".", progressWidth-filled), b.done, b.total)
}

func (b *progressBar) tick() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done++
	b.draw()
}

func (b *progressBar) finish() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fmt.Fprint(b.w, "\r\x1b[K")
}
