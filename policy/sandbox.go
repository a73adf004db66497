package policy

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/policy/internal/inline"
)

// deniedBuiltins are the builtins user-authored Rego must not reach, besides
// every builtin OPA marks nondeterministic (see Capabilities): rules must be
// pure functions of the document. These are named even when OPA marks them,
// so that a change of OPA's marks cannot let them back in.
var deniedBuiltins = map[string]string{
	"http.send":          "the network",
	"net.lookup_ip_addr": "the network (DNS)",
	"opa.runtime":        "the environment and configuration of the process",
	"time.now_ns":        "the clock",
	"rand.intn":          "randomness",
	"uuid.rfc4122":       "randomness",
	// A JSON Schema $ref such as file:///etc/passwd is read from the file
	// system, whatever allow_net says.
	"json.match_schema":  "the file system",
	"json.verify_schema": "the file system",
	// Token checks read the clock when no time is given; signing draws
	// random numbers.
	"io.jwt.decode_verify":   "the clock",
	"io.jwt.encode_sign":     "randomness",
	"io.jwt.encode_sign_raw": "randomness",
	// Certificate chains are verified at the current time.
	"crypto.x509.parse_and_verify_certificates":              "the clock",
	"crypto.x509.parse_and_verify_certificates_with_options": "the clock",
}

// Capabilities are the sandboxed capabilities every rule is compiled with:
// OPA's builtins without the denied and nondeterministic ones, and no
// network host.
func Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if _, denied := deniedBuiltins[b.Name]; !denied && !b.Nondeterministic && !strings.HasPrefix(b.Name, "net.lookup") {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	caps.AllowNet = []string{}
	return caps
}
func newCompiler(caps *ast.Capabilities) *ast.Compiler {
	return ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false).
		WithStageAfterID(ast.StageResolveRefs, inline.Stage)
}

// parseSources parses modules on every core; the first error wins.
func parseSources(sources []*Source) (map[string]*ast.Module, error) {
	var wg sync.WaitGroup
	next := make(chan *Source)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for s := range next {
				s.Module() //nolint:errcheck // read below
			}
		})
	}
	for _, s := range sources {
		next <- s
	}
	close(next)
	wg.Wait()
	modules := make(map[string]*ast.Module, len(sources))
	for _, s := range sources {
		m, err := s.Module()
		if err != nil {
			return nil, err
		}
		modules[s.File] = m
	}
	return modules, nil
}

// CompileError lists Rego compile errors with their file:line:col.
type CompileError struct{ Errors ast.Errors }

func (e *CompileError) Error() string {
	msgs := make([]string, len(e.Errors))
	for i, err := range e.Errors {
		if err.Location != nil {
			msgs[i] = fmt.Sprintf("%s:%d:%d: %s", err.Location.File, err.Location.Row, err.Location.Col, err.Message)
		} else {
			msgs[i] = err.Message
		}
	}
	return strings.Join(msgs, "\n")
}

// compileError explains the use of a denied builtin, which OPA reports as
// an undefined function.
func compileError(errs ast.Errors) error {
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Message, "undefined function ")
		if reason := deniedBuiltins[name]; ok && reason != "" {
			e.Message += ": rules run sandboxed and cannot reach " + reason
		}
	}
	return &CompileError{Errors: errs}
}
