package mcp

import (
	"context"
	"fmt"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/diff"

	"github.com/specgate/specgate/examples"
)

// GenerateExamplesInput is the input of generate_examples.
type GenerateExamplesInput struct {
	Spec string `json:"spec" jsonschema:"the OpenAPI 2.0/3.x specification, relative to the root"`
	Dir  string `json:"dir,omitempty" jsonschema:"the folder to write the example files to, relative to the root; default: the spec's <name>_examples folder beside it"`
	Seed uint64 `json:"seed,omitempty" jsonschema:"seed of generated values: the same seed writes the same files"`
}

// GenerateExamplesOutput is the answer of generate_examples.
type GenerateExamplesOutput struct {
	Dir     string   `json:"dir" jsonschema:"the folder the examples were written to"`
	Written []string `json:"written" jsonschema:"the files written, at most 25 listed"`
	Skipped []string `json:"skipped" jsonschema:"files that already existed and were left as they are, at most 25 listed"`
	Counts  struct {
		Written int `json:"written"`
		Skipped int `json:"skipped"`
	} `json:"counts" jsonschema:"how many files were written and skipped in all"`
	NotGenerated string `json:"notGenerated,omitempty" jsonschema:"what could not be generated (a schema no value satisfies); the other files are written"`
}

// FixExamplesInput is the input of fix_examples.
type FixExamplesInput struct {
	Spec     string   `json:"spec" jsonschema:"the OpenAPI 2.0/3.x specification, relative to the root; the external example files of its <name>_examples folder are fixed"`
	Examples []string `json:"examples,omitempty" jsonschema:"further folders of external example files to fix, relative to the root"`
	DryRun   bool     `json:"dryRun,omitempty" jsonschema:"write nothing: answer each repair as a unified diff"`
	Seed     uint64   `json:"seed,omitempty" jsonschema:"seed of the values repairs generate"`
}

// FixExamplesOutput is the answer of fix_examples.
type FixExamplesOutput struct {
	Fixed []FixedFile `json:"fixed" jsonschema:"the files repaired (or, with dryRun, that would be), at most 25"`
	// Left are the problems no repair removes.
	Left       []ExampleProblem `json:"left" jsonschema:"problems no repair removes (an operation that does not exist, an undeclared status, …), at most 25"`
	LoadErrors []string         `json:"loadErrors,omitempty" jsonschema:"example files that could not be read, each as file:line:col: message"`
	Omitted    int              `json:"omitted,omitempty" jsonschema:"fixed files and problems left out of this answer"`
}

// FixedFile is one repaired example file.
type FixedFile struct {
	File     string `json:"file"`
	Repaired int    `json:"repaired" jsonschema:"problems the repairs removed"`
	Diff     string `json:"diff,omitempty" jsonschema:"dryRun: the repair as a unified diff, cut after 4 KiB"`
}

func (s *Server) addExampleEdits() {
	add(s, &mcpsdk.Tool{
		Name:  ToolGenerateEx,
		Title: "Generate OpenAPI examples",
		Description: "Write one external example file per operation, declared status and media type of an OpenAPI 2.0/3.x specification (and 405 and 415 examples), " +
			"each valid against it, with values generated from the schemas. Existing files are never overwritten. Same as `specgate examples generate`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, nil, s.generateExamples)
	add(s, &mcpsdk.Tool{
		Name:  ToolFixExamples,
		Title: "Fix OpenAPI examples",
		Description: "Repair the external example files of an OpenAPI 2.0/3.x specification with the smallest changes that make them valid (missing required values added, wrong types converted, " +
			"forbidden properties dropped, credentials put in their scheme's form), keeping what is valid as written. Returns each file repaired and what no repair removes; dryRun answers diffs instead. Same as `specgate examples fix`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
	}, nil, s.fixExamples)
}

// checker loads an OpenAPI specification under the root and returns the
// checker of its examples.
func (s *Server) generateExamples(ctx context.Context, c *call, in GenerateExamplesInput) (GenerateExamplesOutput, error) {
	var out GenerateExamplesOutput
	path, err := s.root.File("spec", in.Spec)
	if err != nil {
		return out, err
	}
	dir := examples.DefaultDir(path)
	if in.Dir != "" {
		if dir, err = s.root.Resolve("dir", in.Dir); err != nil {
			return out, err
		}
	}
	g, err := examples.GenerateSpec(ctx, path, examples.SpecOptions{Loader: s.loader(), Seed: in.Seed, Dir: dir})
	if err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("generating was stopped: %w", ctx.Err())
		}
		return out, s.toolError(ctx, ToolGenerateEx, err, path)
	}
	if g.Err != nil {
		out.NotGenerated = s.showErr(g.Err)
	}
	files := g.Files
	written, skipped, err := examples.WriteFiles(dir, files)
	out.Dir = s.root.Show(dir)
	out.Counts.Written, out.Counts.Skipped = len(written), len(skipped)
	out.Written, out.Skipped = s.showPaths(written), s.showPaths(skipped)
	if err != nil {
		return out, fmt.Errorf("writing the examples to %s: %s", out.Dir, s.showErr(err))
	}
	return out, nil
}

// showPaths shows at most MaxItems paths, relative to the root.
func (s *Server) showPaths(paths []string) []string {
	out := []string{}
	for _, p := range paths[:min(len(paths), MaxItems)] {
		out = append(out, s.root.Show(p))
	}
	return out
}

// maxDiff bounds a dry run's diff of one file.
const maxDiff = 4 << 10

func (s *Server) fixExamples(ctx context.Context, c *call, in FixExamplesInput) (FixExamplesOutput, error) {
	out := FixExamplesOutput{Fixed: []FixedFile{}, Left: []ExampleProblem{}}
	path, dirs, err := s.specAndExamples(in.Spec, in.Examples)
	if err != nil {
		return out, err
	}
	c.notify(ctx, 0, 1, "checking the examples of "+in.Spec)
	fixes, err := examples.FixSpec(ctx, path, examples.SpecOptions{Loader: s.loader(), Dirs: dirs, Seed: in.Seed})
	if err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("fixing was stopped: %w", ctx.Err())
		}
		return out, s.toolError(ctx, ToolFixExamples, err, path)
	}
	for _, e := range fixes.Errors {
		out.LoadErrors = append(out.LoadErrors, s.showErr(e))
	}
	for _, res := range fixes.Results {
		if !res.Changed() {
			continue
		}
		name := s.root.Show(res.File)
		if len(out.Fixed) == MaxItems {
			out.Omitted++
		} else {
			ff := FixedFile{File: name, Repaired: len(res.Fixed)}
			if in.DryRun {
				ff.Diff = truncate(string(diff.Diff(name, res.Before, name+" (fixed)", res.After)), maxDiff)
			}
			out.Fixed = append(out.Fixed, ff)
		}
		if !in.DryRun {
			if err := examples.WriteFix(res); err != nil {
				return out, fmt.Errorf("writing %s: %s", name, s.showErr(err))
			}
		}
	}
	left := fixes.Left
	c.notify(ctx, 1, 1, "fixed")
	for _, f := range left {
		if len(out.Left) == MaxItems {
			out.Omitted++
			continue
		}
		out.Left = append(out.Left, s.exampleProblem(f))
	}
	return out, nil
}

// exampleProblem shows a finding of the examples package.
func (s *Server) exampleProblem(f examples.Finding) ExampleProblem {
	p := ExampleProblem{Example: f.Example, File: s.root.Show(f.Loc.File), Line: int(f.Loc.Range.Start.Line), Column: int(f.Loc.Range.Start.Col),
		Path: f.Path, Code: f.Code, Message: s.showText(f.Message)}
	if f.Rule.File != "" {
		f.Rule.File = s.root.Show(f.Rule.File)
		p.Rule = f.Rule.String()
	}
	return p
}
