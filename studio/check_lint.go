package studio

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"time"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// lintCached lints a document, or answers with the diagnostics of the last
// lint of the same text with the same rules: moving between files, saving,
// or undoing an edit checks a text that was linted already, and lint is
// most of a large spec's check.
func (c *checker) lintCached(ctx context.Context, abs string, data []byte, doc *spec.Document) ([]Diagnostic, string) {
	l, err := c.linter(ctx)
	if err != nil {
		return c.lintDoc(ctx, doc)
	}
	h := sha256.New()
	h.Write(data)
	for _, f := range doc.Files()[1:] {
		// The $ref'd files, as they are on disk now.
		var mod int64
		if st, err := os.Stat(f.Name); err == nil {
			mod = st.ModTime().UnixNano()
		}
		fmt.Fprintf(h, "\x00%s\x00%d\x00%d", f.Name, f.Size, mod)
	}
	key := lintKey{l: l, sum: string(h.Sum(nil))}
	c.mu.Lock()
	hit, ok := c.lints[abs]
	c.mu.Unlock()
	if ok && hit.key == key {
		return hit.ds, hit.note + ", unchanged"
	}
	ds, note := c.lintDoc(ctx, doc)
	if ctx.Err() == nil {
		c.mu.Lock()
		c.lints[abs] = lintHit{key: key, ds: ds, note: note}
		c.mu.Unlock()
	}
	return ds, note
}

type lintKey struct {
	l   *linter.Linter
	sum string
}
type lintHit struct {
	key  lintKey
	ds   []Diagnostic
	note string
}

// lintDoc lints a document with the workspace's rules.
func (c *checker) lintDoc(ctx context.Context, doc *spec.Document) ([]Diagnostic, string) {
	l, err := c.linter(ctx)
	if err != nil {
		return []Diagnostic{{Source: "lint", Severity: "error", Rule: "lint-config", Message: "the lint configuration does not load: " + err.Error(), File: c.s.ws.Rel(doc.Root.Name), Line: 1, Column: 1}}, ""
	}
	res := l.LintDocument(ctx, doc)
	var ds []Diagnostic
	docs := map[string]string{} // each rule's page, looked up once
	for _, d := range res.Findings {
		if d.Rule == linter.LoadErrorRule || d.Rule == linter.StructureRule {
			continue // the parse and validate stages report these
		}
		sev := "warning"
		switch d.Severity {
		case level.Error:
			sev = "error"
		case level.Off:
			sev = "info"
		}
		url, ok := docs[d.Rule]
		if !ok {
			url = l.DocURL(d.Rule)
			docs[d.Rule] = url
		}
		ds = append(ds, Diagnostic{Source: "lint", Severity: sev, Rule: d.Rule, Message: d.Message, File: c.s.ws.Rel(d.File),
			Line: int(d.Range.Start.Line), Column: int(d.Range.Start.Col), EndLine: int(d.Range.End.Line), EndColumn: int(d.Range.End.Col), URL: url})
	}
	return ds, fmt.Sprintf("%d rules", l.RuleCount())
}

// linter returns the linter of the workspace's lint configuration (found
// from the folder upward) or of the chosen ruleset, compiled again when the
// configuration changes.
func (c *checker) linter(ctx context.Context) (*linter.Linter, error) {
	opts := rulesets.Options{Cache: policy.OpenCache(policy.DefaultCacheDir(c.getenv())), NoSearch: true}
	key := "ruleset=" + c.s.opts.Ruleset
	if found, ok := rulesets.FindConfig(c.s.ws.Dir()); ok {
		v, _ := currentVersion(found)
		opts.Config, key = found, key+" config="+found+"@"+v
	}
	if r := c.s.opts.Ruleset; r != "" {
		opts.Ruleset = r
		if !rulesets.IsBuiltin(r) {
			abs, err := c.s.ws.Resolve(r)
			if err != nil {
				return nil, err
			}
			v, _ := currentVersion(abs)
			opts.Ruleset, key = abs, key+"@"+v
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lint != nil && c.lint.key == key {
		return c.lint.l, c.lint.err
	}
	st := &lintState{key: key}
	p, err := linter.Open(ctx, linter.Config{Rules: opts, Loader: c.s.loader, Timeout: time.Minute})
	if err == nil {
		st.l = p.Linter
	}
	st.err = err
	if ctx.Err() == nil {
		c.lint = st
	}
	return st.l, st.err
}
func (c *checker) getenv() func(string) string {
	if c.s.opts.Getenv != nil {
		return c.s.opts.Getenv
	}
	return os.Getenv
}
