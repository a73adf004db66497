package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/spec"
)

// CompatInput is the input of backward_compatibility_check: two files
// (base and revision), or git mode.
type CompatInput struct {
	Base     string    `json:"base,omitempty" jsonschema:"files mode: the base (old) version of the specification, relative to the root"`
	Revision string    `json:"revision,omitempty" jsonschema:"files mode: the revised (new) version of the specification, relative to the root"`
	Git      *GitInput `json:"git,omitempty" jsonschema:"git mode, instead of base and revision: compare the working tree's specifications with their versions on a base branch, read with git plumbing (the working tree, index and HEAD are not touched)"`
	Protocol string    `json:"protocol,omitempty" jsonschema:"the kind of specification, checked against the files (files mode) or selecting the specifications to check (git mode); default: read from the files"`
	Strict   bool      `json:"strict,omitempty" jsonschema:"warnings fail the check too"`
}

// GitInput selects git mode.
type GitInput struct {
	BaseBranch  string   `json:"baseBranch,omitempty" jsonschema:"the branch or commit to compare with; default: the remote's default branch (origin/HEAD), else main"`
	TargetPaths []string `json:"targetPaths,omitempty" jsonschema:"specification files or folders to check, relative to the root; default: every specification that changed since the base, including those whose $ref'd files changed"`
	RepoDir     string   `json:"repoDir,omitempty" jsonschema:"a folder of the repository, relative to the root; default: the root"`
}

// CompatOutput is the answer of backward_compatibility_check.
type CompatOutput struct {
	Verdict string       `json:"verdict" jsonschema:"compatible, incompatible, or error when a specification could not be checked"`
	Mode    string       `json:"mode" jsonschema:"files or git"`
	Base    string       `json:"base" jsonschema:"what the revisions are compared with: the base file, or the base branch"`
	Commit  string       `json:"commit,omitempty" jsonschema:"git mode: the commit the base versions were read from (where the current branch forked from the base branch)"`
	Specs   []CompatSpec `json:"specs" jsonschema:"the verdict on each specification"`
	Omitted int          `json:"omitted,omitempty" jsonschema:"failing changes left out of this answer; the report lists them all"`
	Report  string       `json:"report,omitempty" jsonschema:"the full JSON report, written when changes were left out"`
}

// CompatSpec is the verdict on one specification.
type CompatSpec struct {
	Spec     string         `json:"spec" jsonschema:"the revision's file (the base's for a deleted specification)"`
	BaseSpec string         `json:"baseSpec,omitempty" jsonschema:"the base's file; empty when the base has none"`
	Format   string         `json:"format,omitempty"`
	Verdict  string         `json:"verdict" jsonschema:"compatible, incompatible, error or skipped"`
	Reason   string         `json:"reason" jsonschema:"why: unchanged, non-breaking, new-spec, breaking-changes, missing-operations, strict-mode, spec-deleted, unsupported-format or load-error"`
	Message  string         `json:"message"`
	Breaking int            `json:"breaking"`
	Warnings int            `json:"warnings"`
	Info     int            `json:"info"`
	Changes  []CompatChange `json:"changes" jsonschema:"the changes that fail the check (breaking ones; warnings too when strict)"`
}

// CompatChange is one change that fails the check, placed in both
// versions.
type CompatChange struct {
	Rule       string    `json:"rule" jsonschema:"the breaking-change rule"`
	Level      string    `json:"level" jsonschema:"breaking or warning"`
	Message    string    `json:"message" jsonschema:"what changed"`
	Why        string    `json:"why,omitempty" jsonschema:"what it does to consumers"`
	Operations []string  `json:"operations,omitempty" jsonschema:"the operations affected, e.g. GET /pets"`
	WrittenIn  string    `json:"writtenIn" jsonschema:"revision, or base for something the revision no longer has: the version whose place is where the change is written"`
	Base       *Location `json:"base,omitempty" jsonschema:"where the base writes what changed, or the nearest part it writes; absent when the check knows no place there"`
	Revision   *Location `json:"revision,omitempty" jsonschema:"where the revision writes what changed, or the nearest part it writes (the object a property was added to, the path a removed operation was under); absent when the check knows no place there"`
}

// Location is a place in a file.
type Location struct {
	File    string `json:"file"`
	Line    int    `json:"line" jsonschema:"1-based; 0 when there is no position"`
	Column  int    `json:"column"`
	Pointer string `json:"pointer,omitempty" jsonschema:"JSON pointer within the file"`
}

// protocols are the kinds of specification the input may name, with the
// formats of each.
var protocols = []any{"openapi", "asyncapi", "grpc", "graphql", "wsdl"}

var protocolFormats = map[string][]spec.Format{
	"openapi":  {spec.OpenAPI, spec.Swagger},
	"asyncapi": {spec.AsyncAPI},
	"grpc":     {spec.Proto},
	"graphql":  {spec.GraphQL},
	"wsdl":     {spec.WSDL},
}

// isProtocol reports whether a result's format (spec.Document.String: "OpenAPI
// 3.1.0", "GraphQL …") is one of the protocol's.
func isProtocol(format, protocol string) bool {
	for _, f := range protocolFormats[protocol] {
		if name := spec.FormatName(f); format == name || strings.HasPrefix(format, name+" ") {
			return true
		}
	}
	return false
}

func (s *Server) addCompat() {
	add(s, &mcpsdk.Tool{
		Name:  ToolCompat,
		Title: "Backward-compatibility check",
		Description: "Check that a revision of an API specification does not break consumers of its base version: two files (base, revision), " +
			"or git mode (the working tree against a base branch). It reads " + reads[ToolCompat].words + " (GraphQL as SDL or introspection JSON). " +
			"Returns the verdict and each breaking change with its place in both versions (file, line, column). Same check as `specgate backward-compatibility-check`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, map[string][]any{"protocol": protocols}, s.compat)
}

func (s *Server) compat(ctx context.Context, c *call, in CompatInput) (CompatOutput, error) {
	var out CompatOutput
	files := in.Base != "" || in.Revision != ""
	switch {
	case files && in.Git != nil:
		return out, errors.New("give either base and revision (files mode) or git (git mode), not both")
	case !files && in.Git == nil:
		return out, errors.New("give base and revision (files mode), or git (git mode)")
	case files && (in.Base == "" || in.Revision == ""):
		return out, errors.New("files mode needs both base and revision")
	}
	opts := compat.Options{Loader: s.loader(), Strict: in.Strict}
	rep := &compat.Report{Tool: "specgate", Version: s.opts.Version, Strict: in.Strict, Start: time.Now()}
	c.notify(ctx, 0, 1, "comparing")
	if files {
		base, err := s.root.File("base", in.Base)
		if err != nil {
			return out, err
		}
		rev, err := s.root.File("revision", in.Revision)
		if err != nil {
			return out, err
		}
		res := compat.CheckFiles(ctx, opts, base, rev)
		if res.Verdict == compat.Error {
			return out, s.toolError(ctx, ToolCompat, errors.New(res.Message), base, rev)
		}
		if in.Protocol != "" && res.Format != "" && !isProtocol(res.Format, in.Protocol) {
			return out, fmt.Errorf("protocol is %s, but %s is %s: leave protocol out to check the documents as they are", in.Protocol, s.root.Show(rev), res.Format)
		}
		rep.Mode, rep.Base, rep.Results = "files", base, []compat.Result{res}
	} else {
		g := compat.GitOptions{BaseBranch: in.Git.BaseBranch, RepoDir: s.root.Dir()}
		if in.Git.RepoDir != "" {
			dir, err := s.root.Folder("repoDir", in.Git.RepoDir)
			if err != nil {
				return out, err
			}
			g.RepoDir = dir
		}
		for _, t := range in.Git.TargetPaths {
			abs, err := s.root.Resolve("targetPaths", t)
			if err != nil {
				return out, err
			}
			g.Targets = append(g.Targets, abs)
		}
		// The base versions are read into a temporary folder outside the
		// root: $refs stay within each specification's own folder tree, as
		// the command line's git mode has them.
		opts.Loader = spec.NewLoader(spec.Options{})
		run, err := compat.CheckGit(ctx, opts, g)
		if err != nil {
			return out, fmt.Errorf("%s", s.showErr(err))
		}
		rep.Mode, rep.Base, rep.Commit, rep.Results = "git", run.Base, run.Commit, run.Results
		if in.Protocol != "" {
			rep.Results = slices.DeleteFunc(rep.Results, func(r compat.Result) bool { return r.Format != "" && !isProtocol(r.Format, in.Protocol) })
		}
	}
	rep.Stop = time.Now()
	if ctx.Err() != nil {
		return out, fmt.Errorf("the check was stopped: %w", ctx.Err())
	}
	c.notify(ctx, 1, 1, "compared")

	out.Verdict, out.Mode, out.Base, out.Commit = string(rep.Verdict()), rep.Mode, s.root.Show(rep.Base), rep.Commit
	shown := 0
	for _, r := range rep.Results {
		spec := s.fromWD(r.Spec)
		msg := r.Message
		if r.Spec != "" && !filepath.IsAbs(r.Spec) {
			msg = strings.ReplaceAll(msg, r.Spec, spec)
		}
		msg = s.showText(msg)
		cs := CompatSpec{Spec: spec, BaseSpec: s.fromWD(r.BaseSpec), Format: r.Format, Verdict: string(r.Verdict), Reason: string(r.Reason),
			Message: msg, Breaking: r.Count(compat.Breaking), Warnings: r.Count(compat.Warning), Info: r.Count(compat.Info), Changes: []CompatChange{}}
		for _, ch := range r.Changes {
			if !compat.Fails(ch, in.Strict) {
				continue
			}
			if shown == MaxItems {
				out.Omitted++
				continue
			}
			shown++
			cs.Changes = append(cs.Changes, CompatChange{Rule: ch.RuleID, Level: ch.Level.String(), Message: s.showText(ch.Message), Why: ch.Why, Operations: ch.Operations,
				WrittenIn: ch.Location.Side.String(), Base: s.location(ch.Base), Revision: s.location(ch.Revision)})
		}
		out.Specs = append(out.Specs, cs)
	}
	if out.Specs == nil {
		out.Specs = []CompatSpec{}
	}
	if out.Omitted > 0 {
		var err error
		out.Report, err = c.writeReport("compat-report.json", func(f *os.File) error { return compat.Write(f, "json", rep, false) })
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// fromWD names a file that compat names relative to the working directory
// (as git mode does, for the command line) relative to the root; absolute
// names are shown as Root.Show shows them.
func (s *Server) fromWD(name string) string {
	if name == "" || filepath.IsAbs(name) {
		return s.root.Show(name)
	}
	wd, err := os.Getwd()
	if err != nil {
		return name
	}
	abs, err := fsroot.EvalExisting(filepath.Join(wd, name))
	if err != nil {
		return name
	}
	return s.root.Show(abs)
}

// location is a change's place in one version as answers show it; nil
// when the check knows none.
func (s *Server) location(l compat.Location) *Location {
	if l.File == "" {
		return nil
	}
	return &Location{File: s.fromWD(l.File), Line: l.Line, Column: l.Column, Pointer: l.Pointer}
}
