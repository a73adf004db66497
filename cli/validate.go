package cli

import (
	"fmt"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

func validateCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check specifications against their specification version",
		ArgsUsage: "FILE|DIR|GLOB|URL|- ...",
		Description: "Checks each document's structure against the OpenAPI, Swagger or AsyncAPI version it\n" +
			"declares: required fields, value types, allowed keys (x- extensions are always allowed),\n" +
			"URL, email and version formats, unique operationIds, path templates against path\n" +
			"parameters, and $ref targets. Each problem is printed as file:line:col: message.\n" +
			"The examples written in an OpenAPI document are checked against their schemas too, and\n" +
			"with --examples DIR the external example files of DIR (see 'specgate examples validate');\n" +
			"each finding is printed as file:line:col: code message (at JSON path).\n\n" +
			"Exit codes: 0 every document is valid, 1 a document is invalid, 2 an input cannot be read\n" +
			"or parsed, a usage error, or the run was interrupted (SIGINT or SIGTERM: the documents\n" +
			"validated by then are reported, and one line says how many).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json"},
			&cli.StringSliceFlag{Name: "examples", Usage: "folder `DIR` of external examples to check against each OpenAPI document (repeatable)"},
		}, loaderFlags()...),
		Action: func(c *cli.Context) error { return runValidate(c, env) },
	}
}

type validateFile struct {
	File     string          `json:"file"`
	Format   string          `json:"format,omitempty"`
	Valid    bool            `json:"valid"`
	Error    string          `json:"error,omitempty"` // the file could not be loaded
	Problems []problemReport `json:"problems"`
	// Examples are the findings on the document's inline examples and on
	// the external ones of --examples; ExampleErrors the example files
	// that cannot be read.
	Examples      []findingReport `json:"examples"`
	ExampleErrors []errorReport   `json:"exampleErrors,omitempty"`
}

type problemReport struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Pointer   string `json:"pointer"`
	Message   string `json:"message"`
}

func runValidate(c *cli.Context, env Env) error {
	if c.NArg() == 0 {
		return exitf(ExitUsage, "validate needs at least one file, folder, glob, URL or - (see 'specgate validate --help')")
	}
	format := c.String("format")
	if format != "text" && format != "json" {
		return exitf(ExitUsage, "--format must be text or json, found %q", format)
	}
	names, expandErrs := spec.Expand(c.Args().Slice())
	loader := newLoader(c, env)
	files := make([]validateFile, len(names))
	done := make([]bool, len(names))
	ctx := c.Context
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			f := validateOne(c, loader, name)
			if f.Error != "" && ctx.Err() != nil {
				return // its load was cut short, which is no finding of the file
			}
			files[i], done[i] = f, true
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		// Interrupted (SIGINT, SIGTERM): what was validated is reported,
		// and the rest in one line rather than a cancellation per file.
		var finished []validateFile
		for i, f := range files {
			if done[i] {
				finished = append(finished, f)
			}
		}
		files, expandErrs = finished, nil
	}
	// finish ends the command with its exit code, saying so when it was
	// interrupted.
	finish := func(code int) error {
		if ctx.Err() != nil {
			return exitf(ExitUsage, "interrupted: %d of %d %s validated", len(files), len(names), english.Noun(len(names), "file", "files"))
		}
		return silent(code)
	}
	for _, e := range expandErrs {
		files = append(files, validateFile{File: inputName(e), Error: e.Error(), Problems: []problemReport{}, Examples: []findingReport{}})
	}

	code := ExitOK
	for _, f := range files {
		if f.Error != "" || len(f.ExampleErrors) > 0 {
			code = ExitUsage
		} else if !f.Valid && code == ExitOK {
			code = ExitFindings
		}
	}
	if format == "json" {
		if err := reports.WriteIndentedJSON(env.Stdout, map[string]any{"files": files}); err != nil {
			return exitf(ExitUsage, "writing the output: %v", err)
		}
		return finish(code)
	}
	invalid := 0
	for _, f := range files {
		switch {
		case f.Error != "":
			fmt.Fprintf(env.Stdout, "%s\n", f.Error)
		case f.Valid:
			fmt.Fprintf(env.Stdout, "%s: valid %s\n", f.File, f.Format)
		default:
			invalid++
			for _, p := range f.Problems {
				fmt.Fprintf(env.Stdout, "%s:%d:%d: %s\n", p.File, p.Line, p.Column, p.Message)
			}
			for _, e := range f.ExampleErrors {
				if e.Line > 0 {
					fmt.Fprintf(env.Stdout, "%s:%d:%d: %s\n", e.File, e.Line, e.Column, e.Message)
				} else {
					fmt.Fprintf(env.Stdout, "%s: %s\n", e.File, e.Message)
				}
			}
			for _, x := range f.Examples {
				fmt.Fprintf(env.Stdout, "%s:%d:%d: %s %s (at %s)\n", x.File, x.Line, x.Column, x.Code, x.Message, x.Path)
			}
			switch {
			case len(f.Problems) > 0 && len(f.Examples) > 0:
				fmt.Fprintf(env.Stdout, "%s: invalid %s, %d %s, %d example %s\n", f.File, f.Format, len(f.Problems), english.Noun(len(f.Problems), "problem", "problems"), len(f.Examples), english.Noun(len(f.Examples), "finding", "findings"))
			case len(f.Problems) > 0 || len(f.Examples) == 0:
				fmt.Fprintf(env.Stdout, "%s: invalid %s, %d %s\n", f.File, f.Format, len(f.Problems), english.Noun(len(f.Problems), "problem", "problems"))
			default:
				fmt.Fprintf(env.Stdout, "%s: valid %s, but %d example %s\n", f.File, f.Format, len(f.Examples), english.Noun(len(f.Examples), "finding", "findings"))
			}
		}
	}
	return finish(code)
}

func validateOne(c *cli.Context, loader *spec.Loader, name string) validateFile {
	doc, err := loader.Load(c.Context, name)
	if err != nil {
		return validateFile{File: inputName(err), Error: err.Error(), Problems: []problemReport{}, Examples: []findingReport{}}
	}
	out := validateFile{File: doc.Root.Name, Format: doc.String(), Problems: []problemReport{}, Examples: []findingReport{}}
	for _, p := range validate.Validate(doc) {
		out.Problems = append(out.Problems, problemReport{
			File: p.File, Line: int(p.Range.Start.Line), Column: int(p.Range.Start.Col),
			EndLine: int(p.Range.End.Line), EndColumn: int(p.Range.End.Col), Pointer: p.Pointer, Message: p.Message,
		})
	}
	validateExamples(c, doc, &out)
	out.Valid = len(out.Problems) == 0 && len(out.Examples) == 0 && len(out.ExampleErrors) == 0
	return out
}

// validateExamples checks the inline examples of an OpenAPI document, and
// the external ones of --examples.
func validateExamples(c *cli.Context, doc *spec.Document, out *validateFile) {
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return
	}
	schemas := schema.NewSet(doc)
	ct, err := contract.New(doc, schemas, contract.Options{})
	if err != nil {
		return
	}
	in := examples.Inline(doc, examples.Options{})
	list := in.Examples
	errs := []error{in.Errors.Err()}
	if dirs := c.StringSlice("examples"); len(dirs) > 0 {
		set := examples.Load(dirs, examples.Options{})
		errs = append(errs, set.Errors.Err())
		list = append(list, set.Examples...)
	}
	for _, e := range flatten(errs) {
		out.ExampleErrors = append(out.ExampleErrors, reportError(e))
	}
	for _, f := range examples.NewChecker(ct, schemas).CheckAll(list) {
		out.Examples = append(out.Examples, reportFinding(f))
	}
}
