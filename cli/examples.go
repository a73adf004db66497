package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

func examplesCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "examples",
		Usage: "validate, generate and fix the examples of OpenAPI specs",
		Description: "External examples are files of one exchange each (http-request, http-response), found in\n" +
			"SPEC's <name>_examples folder and in each --examples DIR; inline examples are written in the\n" +
			"spec. docs/examples.md describes the format.",
		Subcommands: []*cli.Command{
			examplesValidateCommand(env),
			examplesGenerateCommand(env),
			examplesFixCommand(env),
		},
	}
}

func examplesValidateCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check inline and external examples against their specs",
		ArgsUsage: "SPEC…",
		Description: "Checks every inline example of each SPEC and every external example of its folders: the\n" +
			"request reaches an operation, a 405 example's method is one its path does not declare, a 415\n" +
			"example's Content-Type one its operation does not accept, the status is declared, and\n" +
			"parameters, headers, credentials, content types and bodies satisfy the spec (a badRequest\n" +
			"or other 4xx example's request may break it). Each finding is printed as\n" +
			"file:line:col code message (at JSON path).\n\n" +
			"Codes: " + strings.Join(examples.Codes, ", ") + ".\n\n" +
			"Exit codes: 0 no finding, 1 findings, 2 a spec or example file that cannot be read (a $ref\n" +
			"of the spec that does not resolve is one), or a usage error.",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "examples", Usage: "folder `DIR` of external examples, searched recursively (repeatable)"},
			&cli.StringFlag{Name: "config", Usage: "specgate.yaml `FILE` whose example folders (of the spec's tests and mocks, and data.examples) are read too"},
			&cli.BoolFlag{Name: "no-inline", Usage: "leave out the examples written in the specs"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json"},
		}, loaderFlags()...),
		Action: func(c *cli.Context) error { return runExamplesValidate(c, env) },
	}
}

func examplesGenerateCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write one valid example file per operation, status and media type",
		ArgsUsage: "SPEC…",
		Description: "Writes, for each operation of SPEC, one external example per declared status and response\n" +
			"media type (4xx included: a 400 or 422 example's request breaks the contract in one place),\n" +
			"a 405 example per path (a method it does not declare) and a 415 example per operation that\n" +
			"takes a body (a Content-Type it does not accept). Values are generated from the schemas\n" +
			"(--seed makes them repeatable); credentials are ${SCHEME:placeholder} templates. Files go to\n" +
			"--dir (default: SPEC's <name>_examples folder), named after the operation and the status;\n" +
			"an existing file is never overwritten, and each one skipped is named. On Arazzo documents it\n" +
			"writes instead the example inputs of their workflows, by workflowId, generated from the inputs\n" +
			"schemas: the file --inputs of test and run-suite reads (checkout.arazzo.yaml gives\n" +
			"checkout.inputs.yaml, in --dir or beside the document). With --workflows it writes an Arazzo\n" +
			"document of starter workflows for each OpenAPI SPEC, one per operation (pets.yaml gives\n" +
			"pets.arazzo.yaml), valid against the official Arazzo schema.\n\n" +
			"Exit codes: 0 every example written or kept, 1 a value no schema allows, 2 a spec that\n" +
			"cannot be read, or a usage error.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "folder `DIR` to write the examples to (default: SPEC's <name>_examples)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of generated values: the same seed writes the same files"},
			&cli.BoolFlag{Name: "workflows", Usage: "write an Arazzo document of starter workflows, one per operation, instead of examples"},
		}, loaderFlags()...),
		Action: func(c *cli.Context) error { return runExamplesGenerate(c, env) },
	}
}

func examplesFixCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "fix",
		Usage:     "repair invalid external examples with the smallest changes",
		ArgsUsage: "SPEC…",
		Description: "Repairs each external example of SPEC that breaks it: drops properties a schema forbids and\n" +
			"undeclared query parameters (not a badRequest example's), adds missing required properties,\n" +
			"parameters and bodies, converts values whose text reads as the right type (\"5\" to 5),\n" +
			"replaces other invalid values with generated ones, and repairs credentials of the wrong\n" +
			"form (\"Token x\" to \"Bearer x\"), keeping what is valid, every credential, a 405 example's\n" +
			"method and a 415 example's Content-Type. JSON files keep their layout; YAML files are\n" +
			"rewritten with their comments and indentation. What cannot be repaired (an operation or a\n" +
			"status the spec does not have) is printed as by validate. --dry-run prints a unified diff\n" +
			"instead of writing.\n\n" +
			"Exit codes: 0 every example is valid (or was repaired), 1 findings are left (or, with\n" +
			"--dry-run, files would change), 2 a spec or example file that cannot be read, or a usage error.",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "examples", Usage: "folder `DIR` of external examples, searched recursively (repeatable)"},
			&cli.StringFlag{Name: "config", Usage: "specgate.yaml `FILE` whose example folders are read too"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the changes as a unified diff and write nothing"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of generated values"},
		}, loaderFlags()...),
		Action: func(c *cli.Context) error { return runExamplesFix(c, env) },
	}
}

// onSpec runs an operation of the examples commands (validate, fix) on
// a spec with its options: its loader, and its example folders (see
// exampleDirs).
func onSpec[T any](c *cli.Context, env Env, specName string, op func(context.Context, string, examples.SpecOptions) (T, error)) (T, error) {
	dirs, err := exampleDirs(c, env, specName)
	if err != nil {
		var none T
		return none, err
	}
	opts := examples.SpecOptions{Loader: newLoader(c, env), Dirs: dirs, NoInline: c.Bool("no-inline"), Seed: c.Uint64("seed"), Dir: c.String("dir")}
	return op(c.Context, specName, opts)
}

// exampleDirs are the folders of external examples of a spec: the
// command's, and with --config those of the spec's tests and mocks and the
// global data.examples.
func exampleDirs(c *cli.Context, env Env, specName string) ([]string, error) {
	dirs := c.StringSlice("examples")
	path := c.String("config")
	if path == "" {
		return dirs, nil
	}
	cfg, err := config.Load(path, config.Options{Getenv: env.Getenv})
	if err != nil {
		return nil, err
	}
	abs, _ := filepath.Abs(specName)
	same := func(s *config.Spec) bool { return s.Git == nil && s.Path == abs }
	for _, t := range cfg.Tests {
		if same(t.Spec) {
			dirs = append(dirs, t.Examples...)
		}
	}
	for _, m := range cfg.Mocks {
		for _, s := range m.Specs {
			if same(s) {
				dirs = append(dirs, m.Examples...)
			}
		}
	}
	return append(dirs, cfg.Data.Examples...), nil
}

// findingReport is a finding in JSON output.
type findingReport struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Code      string `json:"code"`
	Example   string `json:"example"`
	Message   string `json:"message"`
	Path      string `json:"path"`
	Rule      string `json:"rule,omitempty"` // where the spec writes what is broken
}

func reportFinding(f examples.Finding) findingReport {
	r := findingReport{File: f.Loc.File, Line: int(f.Loc.Range.Start.Line), Column: int(f.Loc.Range.Start.Col),
		EndLine: int(f.Loc.Range.End.Line), EndColumn: int(f.Loc.Range.End.Col),
		Code: f.Code, Example: f.Example, Message: f.Message, Path: f.Path}
	if f.Rule.File != "" {
		r.Rule = f.Rule.String()
	}
	return r
}

// errorReport is a load error in JSON output.
type errorReport struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

func reportError(err error) errorReport {
	var se *spec.Error
	if errors.As(err, &se) {
		return errorReport{File: se.File, Line: int(se.Pos.Line), Column: int(se.Pos.Col), Message: se.Msg}
	}
	return errorReport{Message: err.Error()}
}

// flatten lists the errors inside an examples.Errors one by one, and
// leaves out nils.
func flatten(errs []error) []error {
	var out []error
	for _, err := range errs {
		if err == nil {
			continue
		}
		var es examples.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				out = append(out, e)
			}
			continue
		}
		out = append(out, err)
	}
	return out
}

type validateExamplesSpec struct {
	Spec     string          `json:"spec"`
	Inline   int             `json:"inline"`
	Files    int             `json:"files"`
	Findings []findingReport `json:"findings"`
	// BrokenRefs counts the spec's $refs that do not resolve (each one is
	// in errors): examples under them are not checked.
	BrokenRefs int `json:"brokenRefs,omitempty"`
}

func runExamplesValidate(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "examples validate needs at least one spec (see 'specgate examples validate --help')")
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return exitf(ExitUsage, "--format must be text or json, found %q", format)
	}
	names, errs := spec.Expand(c.Args().Slice())
	var specs []validateExamplesSpec
	total := 0
	for _, name := range names {
		v, err := onSpec(c, env, name, examples.ValidateSpec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, flatten([]error{v.Errors.Err()})...)
		rep := validateExamplesSpec{Spec: v.Doc.Root.Name, Inline: v.Inline, Files: v.Files, Findings: []findingReport{}, BrokenRefs: v.BrokenRefs}
		for _, f := range v.Findings {
			rep.Findings = append(rep.Findings, reportFinding(f))
		}
		total += len(rep.Findings)
		specs = append(specs, rep)
	}
	errs = flatten(errs)
	code := ExitOK
	switch {
	case len(errs) > 0:
		code = ExitUsage
	case total > 0:
		code = ExitFindings
	}
	if format == "json" {
		out := map[string]any{"specs": specs, "errors": []errorReport{}}
		var list []errorReport
		for _, e := range errs {
			list = append(list, reportError(e))
		}
		if list != nil {
			out["errors"] = list
		}
		if err := reports.WriteIndentedJSON(env.Stdout, out); err != nil {
			return exitf(ExitUsage, "writing the output: %v", err)
		}
		return silent(code)
	}
	for _, e := range errs {
		fmt.Fprintln(env.Stdout, e)
	}
	for _, r := range specs {
		for _, f := range r.Findings {
			fmt.Fprintf(env.Stdout, "%s:%d:%d %s %s (at %s)\n", f.File, f.Line, f.Column, f.Code, f.Message, f.Path)
		}
		broken := ""
		if r.BrokenRefs > 0 {
			broken = fmt.Sprintf("; %d $ref %s not resolve, so the examples under %s are not checked", r.BrokenRefs, english.Noun(r.BrokenRefs, "does", "do"), english.Noun(r.BrokenRefs, "it", "them"))
		}
		fmt.Fprintf(env.Stdout, "%s: %d %s (%d inline, %d in files), %d %s%s\n", r.Spec, r.Inline+r.Files, english.Noun(r.Inline+r.Files, "example", "examples"), r.Inline, r.Files, len(r.Findings), english.Noun(len(r.Findings), "finding", "findings"), broken)
	}
	return silent(code)
}

func runExamplesGenerate(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "examples generate needs at least one spec (see 'specgate examples generate --help')")
	}
	if c.Bool("workflows") {
		return generateWorkflows(c, env)
	}
	if arazzoArgs(c.Context, newLoader(c, env), c.Args().Slice()) {
		return generateInputs(c, env)
	}
	names, errs := spec.Expand(c.Args().Slice())
	if c.String("dir") != "" && len(names)+len(errs) > 1 {
		return exitf(ExitUsage, "--dir names the folder of one spec's examples; generate the specs one at a time, or leave --dir out to write each beside its spec")
	}
	code := ExitOK
	for _, name := range names {
		g, err := examples.GenerateSpec(c.Context, name, examples.SpecOptions{Loader: newLoader(c, env), Seed: c.Uint64("seed"), Dir: c.String("dir")})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if g.Err != nil {
			fmt.Fprintf(env.Stderr, "%s: some examples cannot be generated:\n%v\n", name, g.Err)
			code = max(code, ExitFindings)
		}
		written, skipped, werr := examples.WriteFiles(g.Dir, g.Files)
		for _, p := range written {
			fmt.Fprintf(env.Stdout, "wrote %s\n", p)
		}
		for _, p := range skipped {
			fmt.Fprintf(env.Stdout, "skipped %s: the file exists\n", p)
		}
		if werr != nil {
			return exitf(ExitUsage, "writing the examples of %s: %v", name, werr)
		}
		fmt.Fprintf(env.Stdout, "%s: %d %s written to %s, %d skipped\n", name, len(written), english.Noun(len(written), "example", "examples"), g.Dir, len(skipped))
	}
	for _, e := range flatten(errs) {
		fmt.Fprintln(env.Stderr, e)
	}
	if len(errs) > 0 {
		code = ExitUsage
	}
	return silent(code)
}

func runExamplesFix(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "examples fix needs at least one spec (see 'specgate examples fix --help')")
	}
	dry := c.Bool("dry-run")
	names, errs := spec.Expand(c.Args().Slice())
	var left []examples.Finding
	changed, fixedFiles := 0, 0
	for _, name := range names {
		fixes, err := onSpec(c, env, name, examples.FixSpec)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, flatten([]error{fixes.Errors.Err()})...)
		left = append(left, fixes.Left...)
		for _, res := range fixes.Results {
			if !res.Changed() {
				continue
			}
			changed++
			if dry {
				env.Stdout.Write(diff.Diff(res.File, res.Before, res.File, res.After))
				continue
			}
			if err := examples.WriteFix(res); err != nil {
				return exitf(ExitUsage, "writing %s: %v", res.File, err)
			}
			fixedFiles++
			fmt.Fprintf(env.Stdout, "fixed %s: %d %s repaired\n", res.File, len(res.Fixed), english.Noun(len(res.Fixed), "finding", "findings"))
		}
	}
	errs = flatten(errs)
	for _, e := range errs {
		fmt.Fprintln(env.Stdout, e)
	}
	examples.SortFindings(left)
	for _, f := range left {
		fmt.Fprintf(env.Stdout, "%s %s %s (at %s; not repaired)\n", f.Loc, f.Code, f.Message, f.Path)
	}
	switch {
	case dry:
		fmt.Fprintf(env.Stdout, "%d %s would change, %d %s left\n", changed, english.Noun(changed, "file", "files"), len(left), english.Noun(len(left), "finding", "findings"))
	default:
		fmt.Fprintf(env.Stdout, "%d %s fixed, %d %s left\n", fixedFiles, english.Noun(fixedFiles, "file", "files"), len(left), english.Noun(len(left), "finding", "findings"))
	}
	switch {
	case len(errs) > 0:
		return silent(ExitUsage)
	case len(left) > 0 || dry && changed > 0:
		return silent(ExitFindings)
	}
	return nil
}
