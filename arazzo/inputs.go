package arazzo

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/internal/yamlvalue"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// ExampleInputs generates, for each workflow that declares inputs, a value
// its inputs schema accepts (deterministic for the seed): the file that
// specgate test --inputs and run-suite --inputs read, keyed by workflowId.
// specgate examples generate writes it for an Arazzo document
// (MarshalInputs).
func ExampleInputs(d *Description, seed uint64) (map[string]any, error) {
	set := schema.NewSet(d.Doc)
	gen := schema.NewGenerator(seed)
	out := map[string]any{}
	for _, w := range d.Workflows {
		if w.Inputs == nil {
			continue
		}
		sch, err := set.Compile(w.Inputs, w.InputsPath)
		if err != nil {
			return nil, fmt.Errorf("workflow %q: %w", w.ID, err)
		}
		v, err := sch.Generate(gen, schema.Request)
		if err != nil {
			return nil, fmt.Errorf("workflow %q: %w", w.ID, err)
		}
		out[w.ID] = v
	}
	return out, nil
}

// MarshalInputs writes inputs by workflowId as the YAML file --inputs
// reads: the workflows in the document's order (those without inputs
// left out), the members of objects sorted, under a comment that says
// how to use it.
func MarshalInputs(d *Description, inputs map[string]any) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode,
		HeadComment: fmt.Sprintf("Inputs of the workflows of %s, by workflowId:\nspecgate test %[1]s --inputs FILE (or run-suite --inputs FILE)", d.Doc.Root.Name)}
	for _, w := range d.Workflows {
		v, ok := inputs[w.ID]
		if !ok {
			continue
		}
		n, err := yamlvalue.Node(v)
		if err != nil {
			return nil, fmt.Errorf("workflow %q: %w", w.ID, err)
		}
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: w.ID}
		if w.Summary != "" {
			key.HeadComment = w.Summary
		}
		root.Content = append(root.Content, key, n)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// CheckInputs checks the inputs that Run gives each workflow
// (Options.Inputs) against its inputs schema, before anything runs: an
// error per workflow whose inputs do not fit, in document order, or nil.
func (r *Runner) CheckInputs() []error {
	var errs []error
	for _, w := range r.c.Workflows {
		inputs := r.opts.Inputs[w.ID]
		if inputs == nil {
			inputs = map[string]any{}
		}
		if msg := r.inputProblems(w, inputs); msg != "" {
			errs = append(errs, fmt.Errorf("workflow %q cannot run: %s", w.ID, msg))
		}
	}
	return errs
}

// checkInputs validates a workflow's inputs against its inputs schema.
func (r *Runner) checkInputs(w *Workflow, inputs map[string]any) string {
	if msg := r.inputProblems(w, inputs); msg != "" {
		return fmt.Sprintf("workflow %q: %s", w.ID, msg)
	}
	return ""
}

// inputProblems says how inputs do not fit a workflow's inputs schema: ""
// when they do.
func (r *Runner) inputProblems(w *Workflow, inputs map[string]any) string {
	if w.Inputs == nil {
		return ""
	}
	sch, err := r.schemas.Compile(w.Inputs, w.InputsPath)
	if err != nil {
		return fmt.Sprintf("its inputs schema does not compile: %v", err)
	}
	var missing []string
	if req := w.Inputs.Get("required"); req != nil && req.Kind == spec.Array {
		for _, it := range req.Items {
			if _, ok := inputs[it.Value]; it.Kind == spec.String && !ok {
				missing = append(missing, strconv.Quote(it.Value))
			}
		}
	}
	var parts, msgs []string
	switch len(missing) {
	case 0:
	case 1:
		parts = append(parts, "input "+missing[0]+" is missing")
	default:
		parts = append(parts, "inputs "+strings.Join(missing, ", ")+" are missing")
	}
	for _, p := range sch.Validate(any(inputs), schema.Request) {
		// The missing inputs are named above.
		if len(p.Path) == 0 && p.Keyword == "required" && len(missing) > 0 {
			continue
		}
		msgs = append(msgs, p.String())
	}
	if len(msgs) > 0 {
		parts = append(parts, "its inputs do not fit its inputs schema: "+strings.Join(msgs, "; "))
	}
	return strings.Join(parts, "; ")
}
