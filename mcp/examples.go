package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/examples"
)

// ValidateExamplesInput is the input of validate_examples.
type ValidateExamplesInput struct {
	Spec     string   `json:"spec" jsonschema:"the OpenAPI 2.0/3.x specification, relative to the root; its inline examples are validated, and the external example files of its <name>_examples folder"`
	Examples []string `json:"examples,omitempty" jsonschema:"further folders of external example files (JSON or YAML, searched recursively), relative to the root"`
}

// ValidateExamplesOutput is the answer of validate_examples.
type ValidateExamplesOutput struct {
	Spec     string `json:"spec"`
	Valid    bool   `json:"valid" jsonschema:"true when every example read and none breaks the specification"`
	Checked  int    `json:"checked" jsonschema:"examples checked: the external example files read and the inline examples of the specification"`
	External int    `json:"external" jsonschema:"external example files read"`
	Inline   int    `json:"inline" jsonschema:"inline examples of the specification"`
	// Invalid lists each way an example breaks the specification.
	Invalid    []ExampleProblem `json:"invalid" jsonschema:"each way an example breaks the specification, in file and position order"`
	LoadErrors []string         `json:"loadErrors,omitempty" jsonschema:"example files that could not be read, each as file:line:col: message"`
	Omitted    int              `json:"omitted,omitempty" jsonschema:"problems left out of this answer; the report lists them all"`
	Report     string           `json:"report,omitempty" jsonschema:"the full JSON list of problems, written when some were left out"`
}

// ExampleProblem is one way an example breaks its specification.
type ExampleProblem struct {
	Example string `json:"example" jsonschema:"the example's name"`
	File    string `json:"file" jsonschema:"where the failing field is written: the example file, or the specification for an inline example"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Path    string `json:"path" jsonschema:"JSON path of the failing field in that file, e.g. $.http-request.body.age"`
	Code    string `json:"code" jsonschema:"what is wrong, e.g. example-body-invalid, example-status-undeclared, example-no-operation"`
	Message string `json:"message"`
	Rule    string `json:"rule,omitempty" jsonschema:"where the rule the example breaks is written in the specification, as file:line:col"`
}

func (s *Server) addValidateExamples() {
	add(s, &mcpsdk.Tool{
		Name:  ToolValidateEx,
		Title: "Validate OpenAPI examples",
		Description: "Validate the inline examples of an OpenAPI 2.0/3.x specification and its external example files (the <name>_examples folder beside it, and the folders given) " +
			"against the specification: routing, declared statuses, parameters, bodies, content types and credentials. Returns each invalid example with file:line:col and the failing JSON path.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, nil, s.validateExamples)
}

// specAndExamples resolves a tool's spec file and example folders under
// the root.
func (s *Server) specAndExamples(spec string, folders []string) (string, []string, error) {
	path, err := s.root.File("spec", spec)
	if err != nil {
		return "", nil, err
	}
	dirs, err := s.root.Folders("examples", folders)
	if err != nil {
		return "", nil, err
	}
	return path, dirs, nil
}

func (s *Server) validateExamples(ctx context.Context, c *call, in ValidateExamplesInput) (ValidateExamplesOutput, error) {
	var out ValidateExamplesOutput
	path, dirs, err := s.specAndExamples(in.Spec, in.Examples)
	if err != nil {
		return out, err
	}
	c.notify(ctx, 0, 1, "checking the examples of "+in.Spec)
	v, err := examples.ValidateSpec(ctx, path, examples.SpecOptions{Loader: s.loader(), Dirs: dirs})
	if err != nil {
		if ctx.Err() != nil {
			return out, fmt.Errorf("the validation was stopped: %w", ctx.Err())
		}
		return out, s.toolError(ctx, ToolValidateEx, err, path)
	}
	for _, e := range v.Errors {
		out.LoadErrors = append(out.LoadErrors, s.showErr(e))
	}
	out.Spec, out.External, out.Inline, out.Checked = s.root.Show(path), v.Files, v.Inline, v.Files+v.Inline
	findings := v.Findings
	c.notify(ctx, 1, 1, "checked")
	all := make([]ExampleProblem, len(findings))
	for i, f := range findings {
		all[i] = s.exampleProblem(f)
	}
	out.Valid = len(all) == 0 && len(out.LoadErrors) == 0
	out.Invalid = all
	if len(all) > MaxItems {
		out.Invalid, out.Omitted = all[:MaxItems], len(all)-MaxItems
		var err error
		out.Report, err = c.writeReport("examples-report.json", func(f *os.File) error {
			enc := json.NewEncoder(f)
			enc.SetIndent("", "  ")
			return enc.Encode(struct {
				Spec       string           `json:"spec"`
				Invalid    []ExampleProblem `json:"invalid"`
				LoadErrors []string         `json:"loadErrors,omitempty"`
			}{out.Spec, all, out.LoadErrors})
		})
		if err != nil {
			return out, err
		}
	}
	return out, nil
}
