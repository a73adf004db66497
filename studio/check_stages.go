package studio

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// config is the workspace's specgate.yaml, read again when it changes; nil
// when there is none or it does not load.
func (c *checker) config() *config.Config {
	path, ok := config.Find(c.s.ws.Dir())
	if !ok || !c.s.ws.contains(path) {
		return nil
	}
	v, _ := currentVersion(path)
	key := path + "@" + v
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg != nil && c.cfg.key == key {
		return c.cfg.cfg
	}
	cfg, err := config.Load(path, config.Options{Getenv: c.getenv()})
	if err != nil {
		cfg = nil
	}
	c.cfg = &configState{key: key, cfg: cfg}
	return cfg
}

// exampleDirs are the configured example folders of a spec (besides its
// <name>_examples folder).
func (c *checker) exampleDirs(specAbs string) []string {
	cfg := c.config()
	if cfg == nil {
		return nil
	}
	var dirs []string
	for _, t := range cfg.Tests {
		if t.Spec != nil && t.Spec.Git == nil && t.Spec.Path == specAbs {
			dirs = append(dirs, t.Examples...)
		}
	}
	for _, m := range cfg.Mocks {
		for _, s := range m.Specs {
			if s.Git == nil && s.Path == specAbs {
				dirs = append(dirs, m.Examples...)
			}
		}
	}
	var out []string
	for _, d := range append(dirs, cfg.Data.Examples...) {
		if c.s.ws.contains(d) && !slices.Contains(out, d) {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				out = append(out, d)
			}
		}
	}
	return out
}

// specExamples checks the inline examples of a spec's text and its external
// example files.
func (c *checker) specExamples(abs string, doc *spec.Document) ([]Diagnostic, string) {
	schemas := schema.NewSet(doc)
	ct, err := contract.New(doc, schemas, contract.Options{})
	if err != nil {
		return nil, "examples not checked: " + err.Error()
	}
	k := examples.NewChecker(ct, schemas)
	in := examples.Inline(doc, examples.Options{})
	set := examples.Discover(abs, c.exampleDirs(abs), examples.Options{})
	var ds []Diagnostic
	for _, e := range append(in.Errors, set.Errors...) {
		ds = append(ds, c.errDiag("examples", e))
	}
	for _, f := range k.CheckAll(append(in.Examples, set.Examples...)) {
		ds = append(ds, c.findingDiag(f))
	}
	return ds, fmt.Sprintf("%d inline, %d in files", len(in.Examples), len(set.Examples))
}
func (c *checker) findingDiag(f examples.Finding) Diagnostic {
	msg := f.Message
	if f.Path != "" {
		msg += " (at " + f.Path + ")"
	}
	return Diagnostic{Source: "examples", Severity: "error", Rule: f.Code, Message: msg, File: c.s.ws.Rel(f.Loc.File),
		Line: int(f.Loc.Range.Start.Line), Column: int(f.Loc.Range.Start.Col), EndLine: int(f.Loc.Range.End.Line), EndColumn: int(f.Loc.Range.End.Col),
		URL: examplesDocURL}
}

// specFor loads a spec from disk for the example files it owns, kept while
// its entry file is unchanged.
func (c *checker) specFor(ctx context.Context, abs string) (*loadedSpec, error) {
	v, err := currentVersion(abs)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	ls := c.specs[abs]
	c.mu.Unlock()
	if ls != nil && ls.version == v {
		return ls, ls.err
	}
	ls = &loadedSpec{version: v}
	ls.doc, ls.err = c.s.loader.Load(ctx, abs)
	if ls.err == nil {
		ls.doc.Views()
		schemas := schema.NewSet(ls.doc)
		var ct *contract.Contract
		if ct, ls.err = contract.New(ls.doc, schemas, contract.Options{}); ls.err == nil {
			ls.checker = examples.NewChecker(ct, schemas)
		}
	}
	if ctx.Err() == nil {
		c.mu.Lock()
		c.specs[abs] = ls
		c.mu.Unlock()
	}
	return ls, ls.err
}
func (c *checker) checkExample(ctx context.Context, abs, owner string, data []byte, emit func(Stage)) {
	start := time.Now()
	ex, err := examples.Parse(abs, data, examples.Options{})
	if err != nil {
		var ds []Diagnostic
		var es examples.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				ds = append(ds, c.errDiag("parse", e))
			}
		} else {
			ds = append(ds, c.errDiag("parse", err))
		}
		emit(Stage{Stage: "parse", Diagnostics: ds, MS: since(start)})
		return
	}
	emit(Stage{Stage: "parse", MS: since(start)})
	t := time.Now()
	if owner == "" {
		emit(Stage{Stage: "examples", Note: "no spec owns this example: put it in a <spec>_examples folder or a folder specgate.yaml names", MS: since(t)})
		return
	}
	ls, err := c.specFor(ctx, owner)
	if err != nil {
		emit(Stage{Stage: "examples", Note: c.s.ws.Rel(owner) + " does not load: " + err.Error(), MS: since(t)})
		return
	}
	var ds []Diagnostic
	for _, f := range ls.checker.Check(ex) {
		ds = append(ds, c.findingDiag(f))
	}
	emit(Stage{Stage: "examples", Diagnostics: ds, Note: "checked against " + c.s.ws.Rel(owner), MS: since(t)})
}
func (c *checker) checkConfig(abs string, data []byte, emit func(Stage)) {
	start := time.Now()
	cfg, err := config.Parse(abs, data, config.Options{Getenv: c.getenv()})
	var ds []Diagnostic
	var es config.Errors
	switch {
	case errors.As(err, &es):
		for _, e := range es {
			ds = append(ds, c.errDiag("config", e))
		}
	case err != nil:
		ds = append(ds, c.errDiag("config", err))
	}
	note := ""
	if cfg != nil {
		for _, wn := range cfg.Warnings {
			d := c.errDiag("config", wn)
			d.Severity = "warning"
			ds = append(ds, d)
		}
		if cfg.Version == 2 {
			note = "version 2: the Upgrade action rewrites it as version 3 in place"
			ds = append(ds, Diagnostic{Source: "config", Severity: "info", Rule: "config-version-2", Message: "this is a version 2 configuration; Upgrade to V3 rewrites it in place (comments kept)",
				File: c.s.ws.Rel(abs), Line: 1, Column: 1, URL: docsBase + "docs/config.md#version-2-legacy"})
		}
	}
	emit(Stage{Stage: "config", Diagnostics: ds, Note: note, MS: since(start)})
}

// errDiag turns an error into a diagnostic at the position it names.
func (c *checker) errDiag(source string, err error) Diagnostic {
	d := Diagnostic{Source: source, Severity: "error", Rule: source + "-error", Message: err.Error()}
	if source == "config" {
		d.URL = configDocURL
	}
	var se *spec.Error
	if errors.As(err, &se) {
		d.File, d.Line, d.Column, d.Message = c.s.ws.Rel(se.File), int(se.Pos.Line), int(se.Pos.Col), se.Msg
		if d.Message == "" {
			d.Message = err.Error()
		}
		if d.Line > 0 && d.Column == 0 {
			d.Column = 1
		}
	}
	return d
}

// compat compares a spec's text with its version on the base branch.
func (c *checker) compat(ctx context.Context, abs string, doc *spec.Document) ([]Diagnostic, string) {
	base, note := c.git.doc(ctx, abs)
	if base == nil {
		return nil, note
	}
	if why := compat.Comparable(base, doc); why != "" {
		return nil, why
	}
	var ds []Diagnostic
	for _, ch := range compat.Compare(base, doc) {
		d := Diagnostic{Source: "compat", Rule: ch.RuleID, Message: ch.Message, URL: compatDocURL}
		switch ch.Level {
		case compat.Breaking:
			d.Severity = "error"
		case compat.Warning:
			d.Severity = "warning"
		default:
			d.Severity = "info"
		}
		if len(ch.Operations) > 0 {
			d.Message += " (" + strings.Join(ch.Operations, ", ") + ")"
		}
		// What the revision no longer has is shown where the revision
		// writes the nearest part of it (compat places every change on both
		// sides), with its line on the base.
		r := ch.Revision
		if r.File == "" {
			// Formats whose changes name their own side only: the file's
			// start.
			r = compat.Location{File: doc.Root.Name, Line: 1, Column: 1}
		}
		d.File, d.Line, d.Column, d.EndLine, d.EndColumn = c.s.ws.Rel(r.File), r.Line, r.Column, r.EndLine, r.EndColumn
		if d.Line > 0 && d.Column == 0 {
			d.Column = 1
		}
		if ch.Location.Side == compat.Base {
			d.Message += fmt.Sprintf(" [on %s: line %d]", c.git.branchName(), ch.Location.Line)
		}
		ds = append(ds, d)
	}
	return ds, note
}
