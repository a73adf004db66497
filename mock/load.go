package mock

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// ReservedPrefix is where the mock's own endpoints are: a spec whose paths
// start with it is refused, so that they cannot clash.
const ReservedPrefix = "/_specgate/"

// generation is one immutable load of the specs and their examples. A
// request reads the generation current when it arrives and keeps it to
// its end; a reload builds a new one aside and swaps it in whole.
type generation struct {
	apis []*api
	// notAllowed are the 405 examples: each answers a method that its
	// path does not declare.
	notAllowed []*example
	watch      watchSet
	loaded     time.Time
}

// api is one served spec.
type api struct {
	name     string // the spec as given
	stateKey string // names its store and state: its absolute path, links resolved, or its URL
	doc      *spec.Document
	contract *contract.Contract
	schemas  *schema.Set
	checker  *examples.Checker // completes partial examples
	// inline delivers the spec's inline examples, read in the background
	// while the rest loads.
	inline   <-chan *examples.InlineSet
	prefixes []string // where its operations are served, "" for the root
	ops      []*operation
	byOp     map[*spec.Operation]*operation
	schemes  map[string]*spec.SecurityScheme // by name
}

// operation is one operation of a served spec, with its examples.
type operation struct {
	api         *api
	op          *spec.Operation
	method      string // lower case
	path        string // the template as written
	operationID string
	file        string // where the operation is written
	line, col   int
	examples    []*example
	usage       *opCounter
	// answers keeps the generated answers by status and media type.
	answers sync.Map
	// success is the response answered when nothing chooses another
	// (lowestSuccess), and its status.
	success       *spec.Response
	successStatus int
	// crud is the part the operation plays in the stateful mock; nil in
	// the stateless mock, and for operations it leaves to it.
	crud *crud
}

// String names the operation in logs and problems: "GET /pets/{id}".
func (o *operation) String() string { return upper(o.method) + " " + o.path }

func upper(s string) string { return strings.ToUpper(s) }

func (g *generation) operationCount() int {
	n := 0
	for _, a := range g.apis {
		n += len(a.ops)
	}
	return n
}

func (g *generation) exampleCount() int {
	n := 0
	for _, a := range g.apis {
		for _, op := range a.ops {
			n += len(op.examples)
		}
	}
	return n
}

// LoadError is every problem that kept the mock from loading, each with
// its file, line and column when known.
type LoadError struct {
	Errs []error
}

func (e *LoadError) Error() string {
	msgs := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

func (e *LoadError) Unwrap() []error { return e.Errs }

// load builds a generation from the options: every spec, its contract and
// its examples. Specs load one after the other (each load already uses
// every core); schemas are compiled when a request first needs them.
func (s *Server) load(ctx context.Context) (*generation, error) {
	gen := &generation{loaded: time.Now()}
	var errs []error
	loader := spec.NewLoader(s.opts.Load)
	for _, src := range s.opts.Specs {
		a, files, err := loadAPI(ctx, loader, src)
		gen.watch.files = append(gen.watch.files, files...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(a.contract.Operations()) == 0 {
			s.opts.Logger.Warn("the spec declares no operation to serve: every request to it is answered 404", slog.String("spec", src.Path),
				slog.Int("webhooks", len(a.doc.Views().Webhooks)))
		}
		gen.apis = append(gen.apis, a)
	}
	if len(errs) == 0 {
		errs = append(errs, checkClaims(gen.apis)...)
	}
	if s.state != nil {
		for _, a := range gen.apis {
			planStateful(a)
		}
	}
	dirs, exErrs := s.loadExamples(gen)
	gen.watch.dirs = dirs
	errs = append(errs, exErrs...)
	if len(errs) > 0 {
		return nil, &LoadError{Errs: errs}
	}
	return gen, nil
}

// loadAPI loads one spec and prepares its contract. files are the local
// files the spec was read from (for hot reload), even when it failed to
// load.
func loadAPI(ctx context.Context, loader *spec.Loader, src SpecSource) (*api, []string, error) {
	var files []string
	if !strings.Contains(src.Path, "://") {
		files = append(files, src.Path)
	}
	doc, err := loader.Load(ctx, src.Path)
	if err != nil {
		return nil, files, err
	}
	for _, f := range doc.Files()[1:] {
		if !strings.Contains(f.Name, "://") {
			files = append(files, f.Name)
		}
	}
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return nil, files, &spec.Error{File: doc.Root.Name, Msg: fmt.Sprintf("%s is not an OpenAPI description: the mock serves OpenAPI 2.0, 3.0, 3.1 and 3.2", doc)}
	}
	for _, r := range doc.Refs {
		if r.Err != nil {
			return nil, files, r.Err
		}
	}
	// The inline examples are read while the contract is built: the two
	// only read the document once its views are built.
	doc.Views()
	inline := make(chan *examples.InlineSet, 1)
	go func() { inline <- examples.Inline(doc, examples.Options{}) }()
	var opts contract.Options
	if src.Prefix != "" {
		p := "/" + strings.Trim(src.Prefix, "/")
		if p == "/" {
			p = ""
		}
		opts.Prefixes = []string{p}
	}
	schemas := schema.NewSet(doc)
	c, err := contract.New(doc, schemas, opts)
	if err != nil {
		return nil, files, err
	}
	a := &api{name: src.Path, stateKey: stateKey(src.Path), doc: doc, contract: c, schemas: schemas, checker: examples.NewChecker(c, schemas), inline: inline, byOp: map[*spec.Operation]*operation{}, schemes: map[string]*spec.SecurityScheme{}}
	for _, sc := range doc.Views().SecuritySchemes {
		a.schemes[sc.Name] = sc
	}
	for _, op := range c.Operations() {
		if strings.HasPrefix(op.Path+"/", ReservedPrefix) && opts.Prefixes == nil && c.Prefix(op) == "" {
			loc := doc.Locate(op.Source, nil)
			return nil, files, &spec.Error{File: loc.File.Name, Pos: loc.Range.Start,
				Msg: fmt.Sprintf("path %s is under %s, which the mock reserves for its own endpoints; serve the spec under a --prefix", op.Path, ReservedPrefix)}
		}
		loc := doc.Locate(op.Source, nil)
		o := &operation{api: a, op: op, method: op.Method, path: op.Path, operationID: op.OperationID,
			file: loc.File.Name, line: int(loc.Range.Start.Line), col: int(loc.Range.Start.Col)}
		o.success, o.successStatus = lowestSuccess(op)
		a.ops = append(a.ops, o)
		a.byOp[op] = o
		if p := c.Prefix(op); !slices.Contains(a.prefixes, p) {
			a.prefixes = append(a.prefixes, p)
		}
	}
	if len(a.prefixes) == 0 {
		a.prefixes = []string{""}
	}
	return a, files, nil
}

// checkClaims refuses two specs that serve the same operation: the same
// method on the same path under the same prefix (path variables compared
// by position, not by name).
func checkClaims(apis []*api) []error {
	type claim struct {
		a  *api
		op *operation
	}
	claims := map[string]claim{}
	var errs []error
	for _, a := range apis {
		for _, op := range a.ops {
			key := op.method + " " + shape(a.contract.Prefix(op.op)+op.path)
			if prev, ok := claims[key]; ok && prev.a != a {
				errs = append(errs, fmt.Errorf("%s:%d:%d: %s %s is also served by %s (%s:%d:%d); give one of the specs another --prefix",
					op.file, op.line, op.col, upper(op.method), a.contract.Prefix(op.op)+op.path, prev.a.name, prev.op.file, prev.op.line, prev.op.col))
				continue
			}
			claims[key] = claim{a, op}
		}
	}
	return errs
}

// shape writes a path template with its variables unnamed: /pets/{} for
// /pets/{petId}.
func shape(path string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(path, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(path[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(path[:open])
		b.WriteString("{}")
		path = path[open+end+1:]
	}
	b.WriteString(path)
	return strings.TrimSuffix(b.String(), "/")
}
