package arazzo

import (
	"context"
	"strings"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

// The lint rules about Arazzo documents (rules/arazzo-*) read input.arazzo,
// the facts only this package can compute: the operation each step calls
// in its source description, the parameters it sends there, and every
// runtime expression with the workflow and step it is written in.
func init() {
	input.RegisterField(input.Field{Format: spec.Arazzo, Key: "arazzo", Build: LintInput})
}

// LintInput is the value of input.arazzo for an Arazzo document: its
// workflows, their steps with the operation each calls (and the credentials
// its security schemes send, which OpenAPI declares as schemes, not as
// parameters), the runtime expressions used, and what Check found that
// leaves the document unrunnable. docs/input.md gives its shape.
func LintInput(doc *spec.Document) any {
	c, problems := Check(context.Background(), doc)
	if c == nil {
		return nil
	}
	broken := []any{}
	for _, p := range problems {
		if !p.Broken {
			continue
		}
		broken = append(broken, map[string]any{"message": p.Message, "source": pathValue(p.Path)})
	}
	workflows := []any{}
	steps := []any{}
	for _, w := range c.Workflows {
		wf := map[string]any{"id": w.ID, "source": pathValue(w.Path), "inputs": nil}
		if names := inputNames(w.Inputs); names != nil {
			ins := []any{}
			for _, n := range names {
				ins = append(ins, map[string]any{"name": n, "source": pathValue(w.InputsPath.With("properties", n))})
			}
			wf["inputs"] = ins
		}
		workflows = append(workflows, wf)
		for _, s := range w.Steps {
			steps = append(steps, lintStep(c, w, s))
		}
	}
	uses := []any{}
	for _, u := range c.Uses {
		uses = append(uses, map[string]any{"workflow": u.Workflow, "step": u.Step, "kind": u.Kind.String(),
			"id": u.ID, "field": u.Field, "name": u.Name, "expression": u.Raw, "source": pathValue(u.Path)})
	}
	return map[string]any{"workflows": workflows, "steps": steps, "uses": uses, "broken": broken}
}

func lintStep(c *Checked, w *Workflow, s *Step) map[string]any {
	sent := []any{}
	for _, p := range sentParameters(c.Description, w, s) {
		sent = append(sent, map[string]any{"name": p.name, "in": p.in, "source": pathValue(p.path), "workflowLevel": p.workflowLevel})
	}
	out := map[string]any{"workflow": w.ID, "id": s.ID, "source": pathValue(s.Path), "kind": s.Kind(),
		"parameters": sent, "operation": nil}
	if s.Kind() != "operation" {
		return out
	}
	t, err := resolveTarget(c.Description, c.Loaded, s)
	if err != nil || t.Operation == nil {
		return out
	}
	declared := []any{}
	for _, p := range t.Operation.Parameters {
		declared = append(declared, map[string]any{"name": p.Name, "in": p.In})
	}
	out["operation"] = map[string]any{"name": t.String(), "parameters": declared,
		"credentials": credentials(t.Source.Doc, t.Operation)}
	return out
}

// sentParameter is a parameter a step sends, where it is written.
type sentParameter struct {
	name, in      string
	path          spec.Path
	workflowLevel bool
}

// sentParameters are the parameters a step sends, as the runner merges
// them: its workflow's (those with a location, for a step that calls a
// workflow: none), replaced by its own of the same name and location;
// a reusable parameter counts under the name and location of its
// component.
func sentParameters(d *Description, w *Workflow, s *Step) []sentParameter {
	var out []sentParameter
	index := map[string]int{}
	add := func(p *Parameter, workflowLevel bool) {
		name, in := p.Name, p.In
		if p.Reference != "" {
			c := d.Components.Parameters[strings.TrimPrefix(p.Reference, "$components.parameters.")]
			if c == nil {
				return
			}
			name, in = c.Name, c.In
		}
		sp := sentParameter{name: name, in: in, path: p.Path, workflowLevel: workflowLevel}
		key := in + "\x00" + name
		if i, ok := index[key]; ok {
			out[i] = sp
			return
		}
		index[key] = len(out)
		out = append(out, sp)
	}
	for _, p := range w.Parameters {
		if s.WorkflowID != "" && p.In != "" {
			continue
		}
		add(p, true)
	}
	for _, p := range s.Parameters {
		add(p, false)
	}
	return out
}

// credentials are the parameters an operation's security schemes send,
// over all its alternatives.
func credentials(doc *spec.Document, op *spec.Operation) []any {
	out := []any{}
	if op.Security == nil {
		return out
	}
	schemes := map[string]*spec.SecurityScheme{}
	for _, s := range doc.Views().SecuritySchemes {
		schemes[s.Name] = s
	}
	for _, alt := range op.Security.Alternatives {
		for _, ss := range alt.Schemes {
			s := schemes[ss.Name]
			switch {
			case s == nil:
			case s.Type == "apiKey":
				out = append(out, map[string]any{"name": s.ParamName, "in": s.In})
			case s.Type == "http" || s.Type == "oauth2" || s.Type == "openIdConnect":
				out = append(out, map[string]any{"name": "Authorization", "in": "header"})
			}
		}
	}
	return out
}

func pathValue(p spec.Path) []any {
	out := make([]any, len(p))
	copy(out, p)
	return out
}

// String names the kind as input.arazzo.uses does: the expression's first
// name without its $ (inputs, steps, statusCode, …).
func (k ExprKind) String() string {
	for _, p := range prefixes {
		if p.kind == k {
			return strings.TrimSuffix(strings.TrimPrefix(p.text, "$"), ".")
		}
	}
	return "unknown"
}
