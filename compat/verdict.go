package compat

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// Verdict is the outcome of checking one specification.
type Verdict string

const (
	Compatible   Verdict = "compatible"
	Incompatible Verdict = "incompatible"
	// Error means the check could not run: a file could not be read or
	// parsed, or its format is not supported.
	Error Verdict = "error"
	// Skipped is for a changed file git mode found on its own whose format
	// the check does not read (an Arazzo workflow): reported, not failed.
	Skipped Verdict = "skipped"
)

// Reason says why a verdict was reached; each has its own message.
type Reason string

const (
	ReasonUnchanged   Reason = "unchanged"          // compatible: no difference consumers could see
	ReasonNonBreaking Reason = "non-breaking"       // compatible: only warnings and info
	ReasonNewSpec     Reason = "new-spec"           // compatible: the base has no such specification
	ReasonBreaking    Reason = "breaking-changes"   // incompatible
	ReasonMissingOps  Reason = "missing-operations" // incompatible: operations of the base are gone
	ReasonStrict      Reason = "strict-mode"        // incompatible only because --strict fails warnings
	ReasonDeleted     Reason = "spec-deleted"       // incompatible: the revision deleted the specification
	ReasonUnsupported Reason = "unsupported-format" // error or skipped
	ReasonLoadError   Reason = "load-error"         // error
)

// Result is the verdict on one specification.
type Result struct {
	Spec     string // the revision's file as shown; the base's for a deleted specification
	BaseSpec string // the base's file as shown ("" when the base has none)
	// Base names what the revision is compared with: a branch in git mode,
	// the base file otherwise.
	Base    string
	Format  string // e.g. "OpenAPI 3.1.0"
	Verdict Verdict
	Reason  Reason
	Message string
	Changes []Change
	Err     error
}

// Count returns how many changes have level l.
func (r *Result) Count(l Level) int {
	n := 0
	for _, c := range r.Changes {
		if c.Level == l {
			n++
		}
	}
	return n
}

// Fails reports whether a change fails the check: every breaking change,
// and warnings in strict mode.
func Fails(c Change, strict bool) bool {
	return c.Level == Breaking || (strict && c.Level == Warning)
}

// Options configure a check.
type Options struct {
	Loader *spec.Loader
	// Strict fails the check on warnings too.
	Strict bool
}

// CheckFiles compares the specification newPath with oldPath.
func CheckFiles(ctx context.Context, opts Options, oldPath, newPath string) Result {
	res := Result{Spec: newPath, BaseSpec: oldPath, Base: oldPath}
	base, rev, err := loadPair(ctx, opts.Loader, oldPath, newPath)
	if err != nil {
		res.fail(ReasonLoadError, err)
		return res
	}
	res.judge(base, rev, opts.Strict)
	return res
}

// loadPair loads two documents side by side.
func loadPair(ctx context.Context, l *spec.Loader, basePath, revPath string) (base, rev *spec.Document, err error) {
	var wg sync.WaitGroup
	var baseErr, revErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		if base, baseErr = l.Load(ctx, basePath); baseErr == nil {
			base.Views()
		}
	}()
	go func() {
		defer wg.Done()
		if rev, revErr = l.Load(ctx, revPath); revErr == nil {
			rev.Views()
		}
	}()
	wg.Wait()
	if baseErr == nil {
		baseErr = refErrors(base)
	}
	if baseErr != nil {
		return nil, nil, baseErr
	}
	if revErr == nil {
		revErr = refErrors(rev)
	}
	return base, rev, revErr
}

// refErrors are the $refs of a document that could not be resolved: a
// schema behind one would be compared as one that admits anything, and
// report a type change where the document is broken.
func refErrors(doc *spec.Document) error {
	var errs []error
	for _, r := range doc.Refs {
		if r.Err != nil {
			errs = append(errs, r.Err)
		}
	}
	return errors.Join(errs...)
}

func (r *Result) fail(reason Reason, err error) {
	r.Verdict, r.Reason, r.Err = Error, reason, err
	r.Message = err.Error()
}

// judge compares two loaded documents and sets the verdict.
func (r *Result) judge(base, rev *spec.Document, strict bool) {
	r.Format = rev.String()
	if why := Comparable(base, rev); why != "" {
		r.Verdict, r.Reason = Error, ReasonUnsupported
		r.Message = "cannot check " + r.Spec + ": " + why
		return
	}
	r.Changes = Compare(base, rev)
	var failing, missingOps []string
	for _, c := range r.Changes {
		if !Fails(c, strict) {
			continue
		}
		failing = appendNew(failing, c.Operations...)
		switch c.RuleID {
		case "path-removed", "operation-removed", "async-operation-removed", "channel-removed",
			"proto-service-removed", "proto-rpc-removed", "graphql-root-field-removed", "wsdl-operation-removed", "wsdl-port-type-removed":
			missingOps = appendNew(missingOps, c.Operations...)
		}
	}
	breaking, warnings := r.Count(Breaking), r.Count(Warning)
	switch {
	case len(missingOps) > 0:
		r.Verdict, r.Reason = Incompatible, ReasonMissingOps
		r.Message = fmt.Sprintf("%s is NOT backward compatible with %s: %s of the base %s missing from the revision (%s), so consumers' requests to %s fail; %s in all",
			r.Spec, r.Base, english.Count(len(missingOps), "operation", "operations"), english.Noun(len(missingOps), "is", "are"), reports.ShortList(missingOps, 3), english.Noun(len(missingOps), "it", "them"), english.Count(breaking, "breaking change", "breaking changes"))
	case breaking > 0:
		r.Verdict, r.Reason = Incompatible, ReasonBreaking
		r.Message = fmt.Sprintf("%s is NOT backward compatible with %s: %s affecting %s",
			r.Spec, r.Base, english.Count(breaking, "breaking change", "breaking changes"), affected(rev.Format, failing))
	case strict && warnings > 0:
		r.Verdict, r.Reason = Incompatible, ReasonStrict
		r.Message = fmt.Sprintf("%s fails the strict backward-compatibility check against %s: no breaking change, but %s fail%s in strict mode (%s)",
			r.Spec, r.Base, english.Count(warnings, "warning", "warnings"), english.Noun(warnings, "s", ""), reports.ShortList(failing, 3))
	case len(r.Changes) > 0:
		r.Verdict, r.Reason = Compatible, ReasonNonBreaking
		r.Message = fmt.Sprintf("%s is backward compatible with %s: no breaking change (%s, %s)",
			r.Spec, r.Base, english.Count(warnings, "warning", "warnings"), english.Count(r.Count(Info), "non-breaking change", "non-breaking changes"))
	default:
		r.Verdict, r.Reason = Compatible, ReasonUnchanged
		r.Message = fmt.Sprintf("%s is backward compatible with %s: nothing consumers depend on changed", r.Spec, r.Base)
	}
}
