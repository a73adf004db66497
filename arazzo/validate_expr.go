package arazzo

import (
	"maps"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// checkCriterion checks that a criterion's context and condition parse for
// its type.
func (ch *checker) checkCriterion(sc *scope, c *Criterion) {
	if c.Context != "" {
		e, err := ParseExpr(c.Context)
		if err != nil {
			ch.broken(c.Path.With("context"), "%v", err)
		} else {
			ch.checkExpr(sc, e, c.Path.With("context"))
		}
	}
	if _, err := compileCriterion(c); err != nil {
		ch.broken(c.Path.With("condition"), "%v", err)
		return
	}
	if c.Type == "simple" {
		cond, _ := ParseCondition(c.Condition)
		for _, e := range cond.Exprs() {
			ch.checkExpr(sc, e, c.Path.With("condition"))
		}
	}
}

// checkOutput checks an output's expression or selector.
func (ch *checker) checkOutput(sc *scope, o *Output) {
	v := o.Value
	switch {
	case v == nil:
	case v.Kind == spec.String:
		e, err := ParseExpr(v.Value)
		if err != nil {
			ch.broken(o.Path, "output %q: %v", o.Name, err)
			return
		}
		ch.checkExpr(sc, e, o.Path)
	case v.Kind == spec.Object:
		ch.checkSelector(sc, v, o.Path)
	}
}

func (ch *checker) checkSelector(sc *scope, v *spec.Node, path spec.Path) {
	if ctx := v.GetStr("context"); ctx != "" {
		if e, err := ParseExpr(ctx); err != nil {
			ch.broken(path.With("context"), "%v", err)
		} else {
			ch.checkExpr(sc, e, path.With("context"))
		}
	}
	if _, err := compileSelector(v); err != nil {
		ch.broken(path.With("selector"), "%v", err)
	}
}

// checkValue checks the runtime expressions in a value: a string that is
// one, strings with embedded ones, recursively through objects and arrays.
func (ch *checker) checkValue(sc *scope, v *spec.Node, path spec.Path) {
	if v == nil {
		return
	}
	switch v.Kind {
	case spec.String:
		whole, tmpl, err := valueExprs(v.Value)
		if err != nil {
			ch.broken(path, "%v", err)
			return
		}
		if whole != nil {
			ch.checkExpr(sc, whole, path)
		}
		if tmpl != nil {
			for _, e := range tmpl.Exprs {
				ch.checkExpr(sc, e, path)
			}
		}
	case spec.Object:
		if isSelector(v) {
			ch.checkSelector(sc, v, path)
			return
		}
		for _, f := range v.Fields {
			ch.checkValue(sc, f.Value, path.With(f.Key))
		}
	case spec.Array:
		for i, it := range v.Items {
			ch.checkValue(sc, it, path.With(i))
		}
	}
}

// isSelector tells a 1.1 Selector Object in a value from a literal object.
func isSelector(v *spec.Node) bool {
	return v.Kind == spec.Object && v.GetStr("context") != "" && v.GetStr("selector") != "" && v.Get("type") != nil && len(v.Fields) <= 3
}

// checkExpr checks that an expression names something that exists.
func (ch *checker) checkExpr(sc *scope, e *Expr, path spec.Path) {
	u := Use{Expr: e, Path: path}
	if sc.w != nil {
		u.Workflow = sc.w.ID
	}
	if sc.step != nil {
		u.Step = sc.step.ID
	}
	ch.uses = append(ch.uses, u)
	switch e.Kind {
	case ExprURL, ExprMethod, ExprStatusCode, ExprRequest, ExprResponse, ExprMessage:
		if sc.workflowOutputs {
			ch.report(path, "%s reads a step's message; a workflow's outputs read steps' outputs ($steps.<stepId>.outputs.<name>)", e.Raw)
		}
	case ExprInputs:
		if sc.w == nil {
			return
		}
		if names := inputNames(sc.w.Inputs); names != nil && !namesOne(names, e.Name) {
			ch.broken(path, "%s: workflow %q has no input %q%s", e.Raw, sc.w.ID, e.Name, suggest.Hint(e.Name, names))
		}
	case ExprOutputs:
		w := sc.w
		if sc.called != nil {
			w = sc.called
		}
		if w == nil || sc.step != nil && sc.called == nil && !sc.workflowOutputs {
			return
		}
		if !hasOutput(w.Outputs, e.Name) {
			ch.broken(path, "%s: workflow %q has no output %q%s", e.Raw, w.ID, e.Name, suggest.Hint(e.Name, outputNames(w.Outputs)))
		}
	case ExprSteps:
		if sc.w == nil {
			return
		}
		s := sc.w.Step(e.ID)
		if s == nil {
			ch.broken(path, "%s: workflow %q has no step %q%s", e.Raw, sc.w.ID, e.ID, suggest.Hint(e.ID, stepIDs(sc.w)))
			return
		}
		if !hasOutput(s.Outputs, e.Name) {
			ch.broken(path, "%s: step %q has no output %q%s", e.Raw, s.ID, e.Name, suggest.Hint(e.Name, outputNames(s.Outputs)))
		}
	case ExprWorkflows:
		w := ch.desc.Workflow(e.ID)
		if w == nil {
			ch.broken(path, "%s: there is no workflow %q%s", e.Raw, e.ID, suggest.Hint(e.ID, ch.workflowIDs()))
			return
		}
		if e.Field == "outputs" && !hasOutput(w.Outputs, e.Name) {
			ch.broken(path, "%s: workflow %q has no output %q%s", e.Raw, w.ID, e.Name, suggest.Hint(e.Name, outputNames(w.Outputs)))
		}
		if e.Field == "inputs" {
			if names := inputNames(w.Inputs); names != nil && !namesOne(names, e.Name) {
				ch.broken(path, "%s: workflow %q has no input %q%s", e.Raw, w.ID, e.Name, suggest.Hint(e.Name, names))
			}
		}
	case ExprSourceDescriptions:
		ch.source(e.ID, path)
	case ExprComponents:
		var names []string
		switch e.ID {
		case "parameters":
			names = slices.Sorted(maps.Keys(ch.desc.Components.Parameters))
		case "inputs":
			names = slices.Sorted(maps.Keys(ch.desc.Components.Inputs))
		case "successActions":
			names = slices.Sorted(maps.Keys(ch.desc.Components.SuccessActions))
		case "failureActions":
			names = slices.Sorted(maps.Keys(ch.desc.Components.FailureActions))
		}
		if !slices.Contains(names, e.Name) {
			ch.broken(path, "%s: components.%s has no %q%s", e.Raw, e.ID, e.Name, suggest.Hint(e.Name, names))
		}
	}
}

// hasOutput reports whether outputs declare name, or a name that a dotted
// name starts with (the rest reads into its value).
func hasOutput(outs []*Output, name string) bool {
	return namesOne(outputNames(outs), name)
}

// namesOne reports whether name is one of names, or starts with one and a
// dot: $inputs.pet.id reads member id of input pet, as the runner does.
func namesOne(names []string, name string) bool {
	for _, n := range names {
		if n == name || strings.HasPrefix(name, n+".") {
			return true
		}
	}
	return false
}

func outputNames(outs []*Output) []string {
	var names []string
	for _, o := range outs {
		names = append(names, o.Name)
	}
	return names
}
