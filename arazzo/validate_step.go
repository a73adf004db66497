package arazzo

import (
	"maps"
	"slices"
	"strings"

	"github.com/antchfx/xpath"
	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
	"github.com/theory/jsonpath"
)

func (ch *checker) checkStep(w *Workflow, s *Step) {
	sc := &scope{w: w, step: s}
	targets := 0
	for _, f := range []string{s.OperationID, s.OperationPath, s.WorkflowID, s.ChannelPath} {
		if f != "" {
			targets++
		}
	}
	if targets > 1 && !(s.OperationID != "" && s.ChannelPath != "") {
		ch.report(s.Path, "step %q names more than one of operationId, operationPath, workflowId and channelPath", s.ID)
	}
	var op *Target
	switch {
	case s.WorkflowID != "":
		if strings.HasPrefix(s.WorkflowID, "$") {
			ch.checkForeignWorkflow(s.WorkflowID, s.Path.With("workflowId"), "workflowId")
		} else if t := ch.desc.Workflow(s.WorkflowID); t == nil {
			ch.broken(s.Path.With("workflowId"), "step %q calls workflow %q, which does not exist%s", s.ID, s.WorkflowID, suggest.Hint(s.WorkflowID, ch.workflowIDs()))
		} else {
			sc.called = t
		}
	case s.OperationID != "" || s.OperationPath != "" || s.ChannelPath != "":
		t, err := resolveTarget(ch.desc, ch.loaded, s)
		if err != nil {
			if te, ok := err.(*targetError); !ok || !te.silent {
				field := "operationId"
				switch {
				case s.OperationPath != "":
					field = "operationPath"
				case s.ChannelPath != "":
					field = "channelPath"
				}
				ch.broken(s.Path.With(field), "step %q: %v", s.ID, err)
			}
		}
		op = t
	}
	for _, p := range s.Parameters {
		ch.checkParameter(sc, p, op)
	}
	if op != nil && op.Operation != nil {
		ch.checkRequired(s, op, w)
	}
	if s.RequestBody != nil {
		if s.WorkflowID != "" {
			ch.report(s.RequestBody.Path.With(), "step %q calls a workflow, which takes no request body (pass values as parameters)", s.ID)
		}
		ch.checkValue(sc, s.RequestBody.Payload, s.RequestBody.Path.With("payload"))
		for _, r := range s.RequestBody.Replacements {
			ch.checkValue(sc, r.Value, r.Path.With("value"))
			ch.checkTarget(r, s.RequestBody.ContentType)
		}
	}
	for _, c := range s.SuccessCriteria {
		ch.checkCriterion(sc, c)
	}
	ch.checkActions(sc, s.OnSuccess, s.OnFailure)
	for _, d := range s.DependsOn {
		ch.checkStepDependency(w, d)
	}
	for _, o := range s.Outputs {
		ch.checkOutput(sc, o)
	}
}

// checkTarget checks that a replacement's target parses as what its
// selector type says: a JSON pointer by default, an XPath expression for
// an XML payload of Arazzo 1.0 (which names no type).
func (ch *checker) checkTarget(r *Replacement, contentType string) {
	typ := r.TargetType
	if typ == "" && isXMLType(contentType) {
		typ = "xpath"
	}
	where := r.Path.With("target")
	switch typ {
	case "", "jsonpointer":
		if r.Target != "" && !strings.HasPrefix(r.Target, "/") {
			ch.broken(where, "replacement target %q is a JSON pointer and must start with /", r.Target)
		}
	case "jsonpath":
		if _, err := jsonpath.Parse(r.Target); err != nil {
			ch.broken(where, "replacement target %q: JSONPath does not parse: %v", r.Target, err)
		}
	case "xpath":
		if _, err := xpath.Compile(r.Target); err != nil {
			ch.broken(where, "replacement target %q: XPath does not compile: %v", r.Target, err)
		}
	}
}

func (ch *checker) checkStepDependency(w *Workflow, d Named) {
	switch {
	case strings.HasPrefix(d.Value, "$workflows."):
		parts := strings.Split(strings.TrimPrefix(d.Value, "$workflows."), ".")
		if len(parts) == 3 {
			if t := ch.desc.Workflow(parts[0]); t == nil {
				ch.broken(d.Path, "dependsOn names workflow %q, which does not exist%s", parts[0], suggest.Hint(parts[0], ch.workflowIDs()))
			} else if t.Step(parts[2]) == nil {
				ch.broken(d.Path, "dependsOn names step %q of workflow %q, which has no such step", parts[2], parts[0])
			}
		}
	case strings.HasPrefix(d.Value, "$"):
	default:
		if w.Step(d.Value) == nil {
			ch.broken(d.Path, "dependsOn names step %q, which workflow %q does not have%s", d.Value, w.ID, suggest.Hint(d.Value, stepIDs(w)))
		}
	}
}

func stepIDs(w *Workflow) []string {
	var ids []string
	for _, s := range w.Steps {
		ids = append(ids, s.ID)
	}
	return ids
}

// checkRequired reports required path parameters of the operation that
// the step (and its workflow) leave unset: the request cannot be built.
func (ch *checker) checkRequired(s *Step, t *Target, w *Workflow) {
	set := map[string]bool{}
	for _, p := range append(slices.Clone(w.Parameters), s.Parameters...) {
		if p.Reference != "" {
			if r := ch.desc.Components.Parameters[strings.TrimPrefix(p.Reference, "$components.parameters.")]; r != nil {
				set[r.In+"\x00"+r.Name] = true
			}
			continue
		}
		set[p.In+"\x00"+p.Name] = true
	}
	for _, p := range t.Operation.Parameters {
		if p.In == "path" && !set["path\x00"+p.Name] {
			ch.report(s.Path, "step %q sets no value for path parameter %q of %s", s.ID, p.Name, t)
		}
	}
}

// checkParameter checks a parameter's value and, for a step that calls an
// operation, that the operation declares it.
func (ch *checker) checkParameter(sc *scope, p *Parameter, op *Target) {
	if p.Reference != "" {
		e, err := ParseExpr(p.Reference)
		switch {
		case err != nil:
			ch.broken(p.Path.With("reference"), "%v", err)
		case e.Kind != ExprComponents || e.ID != "parameters":
			ch.broken(p.Path.With("reference"), "a parameter's reference names $components.parameters.<name>, found %q", p.Reference)
		case ch.desc.Components.Parameters[e.Name] == nil:
			ch.broken(p.Path.With("reference"), "components.parameters has no %q%s", e.Name, suggest.Hint(e.Name, slices.Sorted(maps.Keys(ch.desc.Components.Parameters))))
		}
		if p.Value != nil {
			ch.checkValue(sc, p.Value, p.Path.With("value"))
		}
		return
	}
	ch.checkValue(sc, p.Value, p.Path.With("value"))
	if sc.step == nil {
		return
	}
	if sc.called != nil {
		if names := inputNames(sc.called.Inputs); names != nil && !slices.Contains(names, p.Name) {
			ch.broken(p.Path.With("name"), "workflow %q has no input %q%s", sc.called.ID, p.Name, suggest.Hint(p.Name, names))
		}
		return
	}
	// A query, header or cookie parameter the operation does not declare is
	// sent as given (OpenAPI allows them); the lint rule
	// arazzo-parameter-declared reports it. A path parameter has nowhere to go.
	if op == nil || op.Operation == nil || p.Name == "" || p.In != "path" {
		return
	}
	var names []string
	for _, d := range op.Operation.Parameters {
		if d.In == p.In {
			if d.Name == p.Name {
				return
			}
			names = append(names, d.Name)
		}
	}
	ch.broken(p.Path.With("name"), "%s has no %s parameter %q%s", op, p.In, p.Name, suggest.Hint(p.Name, names))
}

// inputNames are the properties an inputs schema declares; nil when it
// does not say (no properties, or other properties allowed by a schema
// this check does not read).
func inputNames(schema *spec.Node) []string {
	props := schema.Get("properties")
	if props == nil || props.Kind != spec.Object {
		return nil
	}
	if schema.Get("allOf") != nil || schema.Get("anyOf") != nil || schema.Get("oneOf") != nil || schema.Get("$ref") != nil {
		return nil
	}
	names := []string{}
	for _, f := range props.Fields {
		names = append(names, f.Key)
	}
	return names
}

// checkActions checks the success and failure actions of a workflow or a
// step.
func (ch *checker) checkActions(sc *scope, success, failure []*Action) {
	for _, a := range success {
		ch.checkAction(sc, a, "success")
	}
	for _, a := range failure {
		ch.checkAction(sc, a, "failure")
	}
}

func (ch *checker) checkAction(sc *scope, a *Action, which string) {
	if a.Reference != "" {
		e, err := ParseExpr(a.Reference)
		field := which + "Actions"
		comps := ch.desc.Components.SuccessActions
		if which == "failure" {
			comps = ch.desc.Components.FailureActions
		}
		switch {
		case err != nil:
			ch.broken(a.Path.With("reference"), "%v", err)
		case e.Kind != ExprComponents || e.ID != field:
			ch.broken(a.Path.With("reference"), "a %s action's reference names $components.%s.<name>, found %q", which, field, a.Reference)
		case comps[e.Name] == nil:
			ch.broken(a.Path.With("reference"), "components.%s has no %q%s", field, e.Name, suggest.Hint(e.Name, slices.Sorted(maps.Keys(comps))))
		}
		return
	}
	if a.StepID != "" && sc.w != nil && sc.w.Step(a.StepID) == nil {
		ch.broken(a.Path.With("stepId"), "%s action %q goes to step %q, which workflow %q does not have%s", which, a.Name, a.StepID, sc.w.ID, suggest.Hint(a.StepID, stepIDs(sc.w)))
	}
	if a.WorkflowID != "" {
		if strings.HasPrefix(a.WorkflowID, "$") {
			ch.checkForeignWorkflow(a.WorkflowID, a.Path.With("workflowId"), "workflowId")
		} else if ch.desc.Workflow(a.WorkflowID) == nil {
			ch.broken(a.Path.With("workflowId"), "%s action %q names workflow %q, which does not exist%s", which, a.Name, a.WorkflowID, suggest.Hint(a.WorkflowID, ch.workflowIDs()))
		}
	}
	for _, c := range a.Criteria {
		ch.checkCriterion(sc, c)
	}
	for _, p := range a.Parameters {
		ch.checkValue(sc, p.Value, p.Path.With("value"))
	}
}

// checkComponents checks the reusable objects written under components.
func (ch *checker) checkComponents() {
	sc := &scope{}
	for _, name := range slices.Sorted(maps.Keys(ch.desc.Components.Parameters)) {
		p := ch.desc.Components.Parameters[name]
		ch.checkValue(sc, p.Value, p.Path.With("value"))
	}
	for _, name := range slices.Sorted(maps.Keys(ch.desc.Components.SuccessActions)) {
		ch.checkAction(sc, ch.desc.Components.SuccessActions[name], "success")
	}
	for _, name := range slices.Sorted(maps.Keys(ch.desc.Components.FailureActions)) {
		ch.checkAction(sc, ch.desc.Components.FailureActions[name], "failure")
	}
}
