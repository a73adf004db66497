package arazzo

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Problem is one way an Arazzo document breaks its specification, located
// where it is written.
type Problem struct {
	File    string
	Range   spec.Range
	Pointer string
	Message string
	// Unreadable marks a container where a scalar must stand or the
	// reverse: the document cannot be read as written there.
	Unreadable bool
	// Broken marks a reference that does not resolve (a source
	// description, an operation, a workflow, a step, a component, an input
	// or output an expression names) or an expression that does not
	// parse: the document cannot be run as written. Lint reports these as
	// errors under every ruleset (arazzo-references-resolve).
	Broken bool
	// Path is where the problem is written, in the document's tree.
	Path spec.Path
}

func (p Problem) Error() string {
	if p.Range.Start.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Range.Start.Line, p.Range.Start.Col, p.Message)
	}
	return p.File + ": " + p.Message
}

func locate(doc *spec.Document, path spec.Path, msg string) Problem {
	loc := doc.Locate(path, nil)
	p := Problem{File: doc.Root.Name, Pointer: loc.Pointer, Message: msg, Range: loc.Range, Path: path}
	if loc.File != nil {
		p.File = loc.File.Name
	}
	return p
}

// LoadedSource is a source description and the document it names.
type LoadedSource struct {
	*Source
	Doc *spec.Document // nil when it did not load
	Err error
	// Arazzo is the description of an arazzo source.
	Arazzo *Description
}

// Checked is an Arazzo description with its sources loaded.
type Checked struct {
	*Description
	Loaded map[string]*LoadedSource // by source name
	// Uses are the runtime expressions that parse, where each is written,
	// in the order Check met them: what each workflow reads.
	Uses []Use
}

// Use is a runtime expression written in the document.
type Use struct {
	*Expr
	// Workflow and Step are where it is written: "" outside a workflow
	// (components), resp. outside a step.
	Workflow, Step string
	Path           spec.Path
}

// Check validates an Arazzo document against the official schema of its
// version, then checks what a schema cannot say: that the source
// descriptions load and are of their type, that the operations
// (operationId, operationPath; 1.1 channelPath and action), workflows and
// steps named exist, that ids are unique, that dependsOn has no cycle,
// that every runtime expression and condition parses and names something
// that exists. Sources are loaded with doc.LoadRelated, under the rules of
// $refs. Problems come sorted by file and position.
func Check(ctx context.Context, doc *spec.Document) (*Checked, []Problem) {
	if doc.Format != spec.Arazzo {
		return nil, []Problem{locate(doc, nil, fmt.Sprintf("%s is %s, not an Arazzo document", doc.Root.Name, doc))}
	}
	ch := &checker{doc: doc, desc: Read(doc)}
	ch.problems = schemaProblems(doc)
	ch.loadSources(ctx)
	ch.checkIDs()
	for _, w := range ch.desc.Workflows {
		ch.checkWorkflow(w)
	}
	ch.checkDependsOn()
	ch.checkComponents()
	slices.SortFunc(ch.problems, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Col, b.Range.Start.Col), cmp.Compare(a.Message, b.Message))
	})
	ch.problems = slices.CompactFunc(ch.problems, func(a, b Problem) bool {
		return a.File == b.File && a.Range.Start == b.Range.Start && a.Message == b.Message
	})
	return &Checked{Description: ch.desc, Loaded: ch.loaded, Uses: ch.uses}, ch.problems
}

type checker struct {
	doc      *spec.Document
	desc     *Description
	loaded   map[string]*LoadedSource
	problems []Problem
	uses     []Use
}

func (ch *checker) report(path spec.Path, format string, args ...any) {
	ch.problems = append(ch.problems, locate(ch.doc, path, fmt.Sprintf(format, args...)))
}

// broken reports a reference that does not resolve or an expression that
// does not parse (Problem.Broken).
func (ch *checker) broken(path spec.Path, format string, args ...any) {
	p := locate(ch.doc, path, fmt.Sprintf(format, args...))
	p.Broken = true
	ch.problems = append(ch.problems, p)
}

// loadSources loads every source description once, by name.
func (ch *checker) loadSources(ctx context.Context) {
	ch.loaded = map[string]*LoadedSource{}
	for _, s := range ch.desc.Sources {
		if s.Name == "" || s.URL == "" {
			continue
		}
		if ch.loaded[s.Name] != nil {
			ch.report(s.Path.With("name"), "source description name %q is used twice; names must be unique", s.Name)
			continue
		}
		ls := &LoadedSource{Source: s}
		ch.loaded[s.Name] = ls
		doc, err := ch.doc.LoadRelated(ctx, s.URL)
		if err != nil {
			ls.Err = err
			ch.broken(s.Path.With("url"), "source description %q does not load: %v", s.Name, err)
			continue
		}
		ls.Doc = doc
		want := map[string][]spec.Format{"openapi": {spec.OpenAPI, spec.Swagger}, "asyncapi": {spec.AsyncAPI}, "arazzo": {spec.Arazzo}}
		typ := s.Type
		if typ == "" {
			typ = "openapi"
			switch doc.Format {
			case spec.AsyncAPI:
				typ = "asyncapi"
			case spec.Arazzo:
				typ = "arazzo"
			}
		}
		if formats, ok := want[typ]; ok && !slices.Contains(formats, doc.Format) {
			where := s.Path.With("type")
			if s.Type == "" {
				where = s.Path.With("url")
			}
			ch.broken(where, "source description %q is of type %s, but %s is %s", s.Name, typ, doc.Root.Name, doc)
			continue
		}
		if typ == "asyncapi" && ch.desc.Minor < 1 {
			ch.report(s.Path.With("type"), "AsyncAPI source descriptions need Arazzo 1.1 (this document is %s)", ch.doc.Version)
		}
		if doc.Format == spec.Arazzo {
			ls.Arazzo = Read(doc)
		} else {
			doc.Views()
		}
	}
}

func (ch *checker) checkIDs() {
	seen := map[string]bool{}
	for _, w := range ch.desc.Workflows {
		if w.ID == "" {
			continue
		}
		if seen[w.ID] {
			ch.report(w.Path.With("workflowId"), "workflowId %q is used by an earlier workflow; ids must be unique", w.ID)
		}
		seen[w.ID] = true
		steps := map[string]bool{}
		for _, s := range w.Steps {
			if s.ID == "" {
				continue
			}
			if steps[s.ID] {
				ch.report(s.Path.With("stepId"), "stepId %q is used by an earlier step of workflow %q; step ids must be unique in a workflow", s.ID, w.ID)
			}
			steps[s.ID] = true
		}
	}
}

func (ch *checker) workflowIDs() []string {
	var ids []string
	for _, w := range ch.desc.Workflows {
		ids = append(ids, w.ID)
	}
	return ids
}

// checkDependsOn checks that dependsOn names workflows that exist and that
// no workflow depends on itself, directly or through others.
func (ch *checker) checkDependsOn() {
	for _, w := range ch.desc.Workflows {
		for _, d := range w.DependsOn {
			if strings.HasPrefix(d.Value, "$") {
				ch.checkForeignWorkflow(d.Value, d.Path, "dependsOn")
				continue
			}
			if ch.desc.Workflow(d.Value) == nil {
				ch.broken(d.Path, "dependsOn names workflow %q, which does not exist%s", d.Value, suggest.Hint(d.Value, ch.workflowIDs()))
			}
		}
	}
	// A cycle is reported once, at the dependsOn entry that closes it.
	state := map[string]int{} // 0 unseen, 1 on the stack, 2 done
	var stack []string
	var visit func(w *Workflow)
	visit = func(w *Workflow) {
		state[w.ID] = 1
		stack = append(stack, w.ID)
		for _, d := range w.DependsOn {
			next := ch.desc.Workflow(d.Value)
			if next == nil {
				continue
			}
			switch state[next.ID] {
			case 0:
				visit(next)
			case 1:
				i := slices.Index(stack, next.ID)
				cycle := append(slices.Clone(stack[i:]), next.ID)
				ch.report(d.Path, "dependsOn makes a cycle: %s", strings.Join(cycle, " → "))
			}
		}
		stack = stack[:len(stack)-1]
		state[w.ID] = 2
	}
	for _, w := range ch.desc.Workflows {
		if w.ID != "" && state[w.ID] == 0 {
			visit(w)
		}
	}
}

// checkForeignWorkflow checks $sourceDescriptions.<name>.<workflowId>.
func (ch *checker) checkForeignWorkflow(s string, path spec.Path, field string) {
	e, err := ParseExpr(s)
	if err != nil {
		ch.broken(path, "%s: %v", field, err)
		return
	}
	if e.Kind != ExprSourceDescriptions {
		ch.broken(path, "%s %q: a workflow of another document is named $sourceDescriptions.<name>.<workflowId>", field, s)
		return
	}
	ls := ch.source(e.ID, path)
	if ls == nil || ls.Arazzo == nil {
		if ls != nil && ls.Doc != nil {
			ch.broken(path, "%s %q: source description %q is %s, not an Arazzo document", field, s, e.ID, ls.Doc)
		}
		return
	}
	if ls.Arazzo.Workflow(e.Name) == nil {
		var ids []string
		for _, w := range ls.Arazzo.Workflows {
			ids = append(ids, w.ID)
		}
		ch.broken(path, "%s %q: %s has no workflow %q%s", field, s, ls.Doc.Root.Name, e.Name, suggest.Hint(e.Name, ids))
	}
}

// source returns a loaded source by name, reporting one that does not
// exist; nil when it does not, or did not load (reported already).
func (ch *checker) source(name string, path spec.Path) *LoadedSource {
	ls := ch.loaded[name]
	if ls == nil {
		var names []string
		for _, s := range ch.desc.Sources {
			names = append(names, s.Name)
		}
		ch.broken(path, "there is no source description %q%s", name, suggest.Hint(name, names))
		return nil
	}
	if ls.Doc == nil {
		return nil
	}
	return ls
}

func (ch *checker) checkWorkflow(w *Workflow) {
	sc := &scope{w: w}
	for _, p := range w.Parameters {
		ch.checkParameter(sc, p, nil)
	}
	ch.checkActions(sc, w.SuccessActions, w.FailureActions)
	for _, s := range w.Steps {
		ch.checkStep(w, s)
	}
	for _, o := range w.Outputs {
		ch.checkOutput(&scope{w: w, workflowOutputs: true}, o)
	}
}

// scope is where an expression is written: in a workflow, maybe in one of
// its steps.
type scope struct {
	w    *Workflow
	step *Step
	// workflowOutputs: the workflow's own outputs, where no message is
	// at hand.
	workflowOutputs bool
	// called is the workflow a workflow step calls: $outputs in the step's
	// outputs are that workflow's.
	called *Workflow
}
