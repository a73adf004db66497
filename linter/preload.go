package linter

import (
	"context"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// Preloaded is a spec read, and its OPA input built, while the rules load.
type Preloaded struct {
	name   string
	loaded chan struct{} // closed once doc (its format known) and err are set
	// members are the input members to build (see build), which the
	// input's building waits for.
	members chan input.Members
	done    chan struct{} // closed once doc is resolved, and data kept
	built   chan struct{} // closed once input and structure are set too
	doc     *spec.Document
	// data are the bytes of a spec whose node tree may go while its
	// rules run (see lean): nil for any other.
	data  []byte
	input ast.Value
	// structure is what validate finds unreadable in doc (see
	// unreadable), checked while the input is built.
	structure []reports.Finding
	err       error // of loading
}

// Preload starts reading the only input of a run (not standard input)
// while the rules load, and building its OPA input once it is given the
// members to build (see build): on a large spec each takes from tens to
// hundreds of milliseconds, on one core. Nil when there
// is nothing to preload. A nil Preloaded has no formats and takes nothing.
// The file's bytes are kept when its node tree may go while the rules run
// (see lean), to load the same document again afterwards.
func Preload(ctx context.Context, loader *spec.Loader, names []string) *Preloaded {
	if len(names) != 1 || names[0] == "-" {
		return nil
	}
	p := &Preloaded{name: names[0], loaded: make(chan struct{}), members: make(chan input.Members, 1),
		done: make(chan struct{}), built: make(chan struct{})}
	// The collector waits for the spec's document and input (see
	// LoadHeap); take settles its pace.
	startup.raise(LoadHeap)
	go func() {
		defer close(p.built)
		// The format is known before the $refs are followed (one core):
		// the rules that apply load meanwhile (see Formats).
		var data []byte
		p.doc, data, p.err = loader.OpenData(ctx, p.name)
		close(p.loaded)
		if p.err != nil {
			close(p.done)
		} else {
			p.doc.Resolve(ctx)
			if lean(p.doc) {
				p.data = data
			}
			close(p.done)
			if heapObjects() > ParsedHeap {
				// The garbage of parsing goes while only the document
				// is live (see LoadHeap).
				startup.collect()
			}
			// The building of its input is not collected on the way
			// either: nearly all of it stays live (see InputHeap).
			startup.raise(max(LoadHeap, goMemory()+InputHeap*specBytes(p.doc)))
			// The structure is checked on another core meanwhile, so that
			// the views, which it reads too, can go before the rules run
			// (see take).
			structure := checkStructure(p.doc)
			var members input.Members // every member, when the run ends first
			select {
			case members = <-p.members:
			case <-ctx.Done():
			}
			p.input = input.BuildMembers(p.doc, members)
			p.structure = <-structure
		}
	}()
	return p
}

// build gives the preload the input members that the rules to run may
// read (see Linter.members): once its document is loaded, the input's
// building waits for them, so that the rules' program, which tells them,
// is read while the document loads. Only the first call counts.
func (p *Preloaded) build(members input.Members) {
	select {
	case p.members <- members:
	default:
	}
}

// specBytes is the size of a document's files.
func specBytes(doc *spec.Document) int64 {
	var n int64
	for _, f := range doc.Files() {
		n += int64(f.Size)
	}
	return n
}

// Formats waits for the preloaded spec's document and returns its format
// tags; false when there is none (nothing preloaded, or it failed to
// load).
func (p *Preloaded) Formats() ([]string, bool) {
	if p == nil {
		return nil, false
	}
	<-p.loaded
	if p.err != nil || p.doc == nil {
		return nil, false
	}
	return p.doc.FormatTags(), true
}

// take waits for the preloaded spec of name, its input and the error of
// loading it (p.structure is set too); false when name was not preloaded.
// The hold of the spec's
// loading ends: the first collection of its evaluation comes once it has
// allocated EvalHeadroom percent of what the heap holds, or at the usual
// floor, and the collector then runs at EvalPercent (LargeEvalPercent for
// a spec of LargeSpec bytes or more, HugeEvalPercent from HugeSpec).
func (p *Preloaded) take(name string) (doc *spec.Document, input ast.Value, ok bool, err error) {
	if p == nil || p.name != name {
		return nil, nil, false, nil
	}
	p.build(nil) // every member, unless the members were given
	<-p.built
	percent := EvalPercent
	if p.doc != nil {
		percent = evalPercent(specBytes(p.doc))
	}
	startup.settle(evalFloor(), percent)
	startup.take()
	// The input is the caller's from here: once its rules have run, it
	// is garbage while the findings are located and reported (see
	// evaluated), where p, which the caller holds, would keep it.
	input, p.input = p.input, nil
	return p.doc, input, true, p.err
}

// handOver follows take: unless the caller keeps the document, it returns
// the file's bytes when the spec's node tree may go while its rules run
// (see lean), and lets go of the document, which is then the caller's
// alone. p lets go of the bytes either way.
func (p *Preloaded) handOver(keep bool) []byte {
	data := p.data
	p.data = nil
	if keep || data == nil {
		return nil
	}
	p.doc = nil
	return data
}

// leanFrom is the size from which a spec of one file has its node tree
// let go while most of its rules run (lower in tests): below it, loading
// the document again costs more CPU than the memory it saves is worth
// (docs/architecture-notes.md).
var leanFrom int64 = 2 * LargeSpec

// lean tells whether a preloaded document's node tree may go while its
// rules run, to be loaded again from the file's bytes to locate the
// findings (see Linter.lintLean): a spec of leanFrom bytes or more, of
// one file that specgate parses itself (not a registered reader's), whose
// $refs all point into it, so that loading it again reads nothing else.
func lean(doc *spec.Document) bool {
	if doc.Model != nil || len(doc.Files()) != 1 || specBytes(doc) < leanFrom {
		return false
	}
	for _, r := range doc.Refs {
		if !strings.HasPrefix(r.Value, "#") {
			return false
		}
	}
	return true
}
