package examples

import (
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// GeneratedFile is an example file that Generate made: its name in the
// examples folder and its JSON text.
type GeneratedFile struct {
	Name string // "getPet_200.json"
	// Op is the operation; Status the response key it exercises ("200",
	// "4XX", "default"), or "405" and "415" for the examples of an
	// undeclared method and an unsupported Content-Type.
	Op        *spec.Operation
	Status    string
	MediaType string // the response's media type; "" when it has no body
	Data      []byte
}

// Generate makes one external example per operation, declared response
// status and response media type, each valid against the specification,
// with values drawn from g (the same seed gives the same files), and a 405
// example per path and a 415 example per operation that takes a body;
// docs/examples.md ("Generating examples") says what each holds. The error
// lists what could not be generated (a schema no value satisfies); the
// other files are still returned.
func (k *Checker) Generate(g *schema.Generator) ([]GeneratedFile, error) {
	return k.generateAll(&generator{k: k, g: g, names: map[string]bool{}, failed: map[*spec.Operation]bool{}})
}

// GenerateSeeded is Generate with each file's values drawn from seed
// mixed with what the file exemplifies (its operation, status and media
// type): a file has the same values whatever else the spec declares, so
// that adding an operation changes no other file.
func (k *Checker) GenerateSeeded(seed uint64) ([]GeneratedFile, error) {
	return k.generateAll(&generator{k: k, seed: seed, seeded: true, names: map[string]bool{}, failed: map[*spec.Operation]bool{}})
}

func (k *Checker) generateAll(gen *generator) ([]GeneratedFile, error) {
	var errs []error
	byPath := map[string][]*spec.Operation{}
	var paths []string
	for _, op := range k.c.Operations() {
		if _, seen := byPath[op.Path]; !seen {
			paths = append(paths, op.Path)
		}
		byPath[op.Path] = append(byPath[op.Path], op)
	}
	for _, path := range paths {
		for _, op := range byPath[path] {
			errs = append(errs, gen.operation(op)...)
			if err := gen.unsupportedType(op); err != nil {
				errs = append(errs, err)
			}
		}
		if err := gen.methodNotAllowed(byPath[path]); err != nil {
			errs = append(errs, err)
		}
	}
	return gen.files, errors.Join(errs...)
}

type generator struct {
	k *Checker
	// g draws the values of the file being made: one generator for every
	// file, or with seeded one per file (see forFile).
	g      *schema.Generator
	seed   uint64
	seeded bool
	files  []GeneratedFile
	names  map[string]bool
	// failed holds the operations whose request cannot be made: said
	// once, not again for each of their responses, 415 and 405 examples.
	failed map[*spec.Operation]bool
}

// forFile sets the generator of the file that exemplifies key.
func (gen *generator) forFile(key string) {
	if gen.seeded {
		h := fnv.New64a()
		h.Write([]byte(key))
		gen.g = schema.NewGenerator(gen.seed ^ h.Sum64())
	}
}

// exchange is a generated example before it is written.
type exchange struct {
	op      *spec.Operation
	method  string
	path    string // serialized, without a server prefix
	pathVal map[string]any
	query   map[string]any
	headers map[string]any
	body    any
	media   string // the request body's media type; "" without a body
	// secret holds the names of the headers and query parameters that
	// carry credentials.
	secret map[string]bool

	status      int
	respHeaders map[string]any
	respBody    any
	respMedia   string
}

func (gen *generator) operation(op *spec.Operation) []error {
	var errs []error
	for _, r := range op.Responses {
		status := gen.statusOf(op, r.Status)
		if status == http.StatusMethodNotAllowed || status == http.StatusUnsupportedMediaType {
			continue // written by methodNotAllowed and unsupportedType
		}
		// A default beside declared successes stands for the other
		// outcomes: its example's request must lead to one, so it is the
		// request broken in one place, answered 400 (or 422).
		defaultError := r.Status == "default" && anyDeclared(op, 200, 299)
		if defaultError {
			if status = defaultErrorStatus(op); status == 0 {
				continue
			}
		}
		medias := r.Content
		if len(medias) == 0 || status == http.StatusNoContent || status == http.StatusNotModified {
			medias = []*spec.MediaType{nil}
		}
		for _, m := range medias {
			key := opName(op) + " " + r.Status
			if m != nil {
				key += " " + m.Name
			}
			gen.forFile(key)
			x, err := gen.request(op)
			if err != nil {
				// Every example of the operation needs the request: one
				// error says it.
				gen.failed[op] = true
				return append(errs, fmt.Errorf("%s %s: %w", strings.ToUpper(op.Method), op.Path, err))
			}
			x.status = status
			broken := false
			switch {
			case status == http.StatusUnauthorized:
				x.dropCredentials()
			case status == http.StatusBadRequest || status == http.StatusUnprocessableEntity:
				broken = gen.breakRequest(x)
			}
			if defaultError && !broken {
				break // no request of the operation leads to its default response
			}
			if err := gen.response(x, r, m, len(r.Content) > 1); err != nil {
				errs = append(errs, fmt.Errorf("%s %s, response %s: %w", strings.ToUpper(op.Method), op.Path, r.Status, err))
				continue
			}
			name := opName(op) + "_" + r.Status
			if len(r.Content) > 1 && m != nil {
				name += "_" + mediaSlug(m.Name)
			}
			gen.add(name, op, r.Status, x)
		}
	}
	return errs
}

// statusOf picks the status an example of a response key sends: the
// status itself, the first of a range, and for default a status nothing
// else declares (200 when no 2xx is declared, else 500 and up).
func (gen *generator) statusOf(op *spec.Operation, key string) int {
	if code, err := strconv.Atoi(key); err == nil {
		return code
	}
	declared := func(code int) bool { return gen.k.c.Response(op, code) != nil && !isDefaultFor(op, code) }
	if len(key) == 3 && strings.EqualFold(key[1:], "XX") {
		base := int(key[0]-'0') * 100
		for code := base; code < base+100; code++ {
			if contract.ExactResponse(op, code) == nil {
				return code
			}
		}
		return base
	}
	if !anyDeclared(op, 200, 299) {
		return http.StatusOK
	}
	for _, code := range []int{500, 502, 503, 504, 501, 418} {
		if !declared(code) {
			return code
		}
	}
	return 599
}

// defaultErrorStatus is the status of a default example beside declared
// successes: 400, else 422, whichever only default covers; 0 when the
// operation declares both otherwise.
func defaultErrorStatus(op *spec.Operation) int {
	for _, code := range []int{http.StatusBadRequest, http.StatusUnprocessableEntity} {
		if isDefaultFor(op, code) {
			return code
		}
	}
	return 0
}

// isDefaultFor reports whether only the default response covers a status.
func isDefaultFor(op *spec.Operation, code int) bool {
	for _, r := range op.Responses {
		if r.Status == strconv.Itoa(code) || len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "XX") && r.Status[0] == byte('0'+code/100) {
			return false
		}
	}
	return true
}

func anyDeclared(op *spec.Operation, lo, hi int) bool {
	for _, r := range op.Responses {
		if code, err := strconv.Atoi(r.Status); err == nil && code >= lo && code <= hi {
			return true
		}
		if len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "XX") && int(r.Status[0]-'0') == lo/100 {
			return true
		}
	}
	return false
}

// response generates the response of an exchange for a declared response
// and one of its media types (nil when it declares none).
func (gen *generator) response(x *exchange, r *spec.Response, m *spec.MediaType, several bool) error {
	x.respHeaders = map[string]any{}
	for _, h := range r.Headers {
		if !h.Required || strings.EqualFold(h.Name, "Content-Type") {
			continue
		}
		v, err := gen.k.generate(h.Schema, h.SchemaSource, gen.g, schema.Response)
		if err != nil {
			return fmt.Errorf("header %s: %w", h.Name, err)
		}
		x.respHeaders[h.Name] = v
	}
	if m == nil {
		return nil
	}
	x.respMedia = concreteType(m.Name)
	x.respHeaders["Content-Type"] = x.respMedia
	if several && !strings.Contains(m.Name, "*") {
		x.headers["Accept"] = x.respMedia
	}
	v, ok, err := gen.k.mediaValue(m, gen.g, schema.Response)
	switch {
	case err != nil:
		return err
	case !ok:
		v = "content"
	}
	x.respBody = v
	if !isJSONType(x.respMedia) && isScalar(v) {
		// A scalar body of another type is written as the text it travels
		// as (XML: an element), as the contract encodes it.
		data, _, err := gen.k.c.EncodeResponse(x.op, x.status, x.respMedia, v)
		if err != nil {
			return err
		}
		x.respBody = string(data)
	}
	return nil
}

// explicitResponse is the response an operation declares for a status by
// the status itself or its range, not by default.
func explicitResponse(op *spec.Operation, code int) *spec.Response {
	var ranged *spec.Response
	for _, r := range op.Responses {
		if r.Status == strconv.Itoa(code) {
			return r
		}
		if len(r.Status) == 3 && strings.EqualFold(r.Status[1:], "XX") && r.Status[0] == byte('0'+code/100) {
			ranged = r
		}
	}
	return ranged
}

func firstMedia(r *spec.Response) *spec.MediaType {
	if len(r.Content) == 0 {
		return nil
	}
	return declaredMedia(r.Content, firstJSON(mediaNames(r)))
}
