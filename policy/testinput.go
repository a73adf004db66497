package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

// TestInputName is the file name a test document is loaded under: what
// messages about it and `file` of its findings say.
const TestInputName = "test.yaml"

// testInputDecl declares specgate.test_input(doc): the input lint builds
// for a document given as YAML or JSON text, or as a Rego object. Only
// `rules test` has it (TestCapabilities): a rule sees the input of the
// document it lints, never one it builds.
var testInputDecl = &rego.Function{
	Name:    "specgate.test_input",
	Decl:    types.NewFunction(types.Args(types.A), types.A),
	Memoize: true,
}

// TestCapabilities are Capabilities with the builtins a test may call
// besides the rules' own (specgate.test_input).
func TestCapabilities() *ast.Capabilities {
	caps := Capabilities()
	caps.Builtins = append(caps.Builtins, &ast.Builtin{Name: testInputDecl.Name, Decl: testInputDecl.Decl})
	return caps
}

// TestBuiltins are the implementations of the builtins TestCapabilities
// adds, for tester.Runner.AddCustomBuiltins.
func TestBuiltins() []*tester.Builtin {
	return []*tester.Builtin{{
		Decl: &ast.Builtin{Name: testInputDecl.Name, Decl: testInputDecl.Decl},
		Func: rego.Function1(testInputDecl, testInputBuiltin),
	}}
}

// testInputBuiltin is specgate.test_input(doc): doc is the text of a
// specification (YAML or JSON) or a specification written as a Rego
// object; the result is input.Build of the document the loader makes of it, as
// lint makes it of a file named test.yaml. A document that does not load
// halts the test with the loader's error (file, line and column), since
// a test of a rule over no input would pass or fail for the wrong reason.
// Its $refs may name no other file: a test document is self-contained.
func testInputBuiltin(bctx rego.BuiltinContext, doc *ast.Term) (*ast.Term, error) {
	var data []byte
	switch v := doc.Value.(type) {
	case ast.String:
		data = []byte(v)
	case ast.Object:
		js, err := ast.JSON(v)
		if err != nil {
			return nil, testInputError(err.Error())
		}
		if data, err = json.Marshal(js); err != nil {
			return nil, testInputError(err.Error())
		}
	default:
		return nil, testInputError(fmt.Sprintf("the document is %s, want a string (YAML or JSON) or an object", ast.ValueName(v)))
	}
	d, err := LoadTestDocument(bctx.Context, data)
	if err != nil {
		return nil, testInputError(err.Error())
	}
	return ast.NewTerm(input.Build(d)), nil
}

// LoadTestDocument loads data as the document of a test, named
// TestInputName, as specgate.test_input does: $refs to other files do
// not resolve (their folder is one that holds none).
func LoadTestDocument(ctx context.Context, data []byte) (*spec.Document, error) {
	loader := spec.NewLoader(spec.Options{RefRoot: filepath.Join(os.TempDir(), "specgate-test-input-has-no-files")})
	return loader.LoadBytes(ctx, TestInputName, data)
}

// testInputError halts the evaluation: an ordinary builtin error would
// leave the call undefined, and the test would fail without saying why.
// (OPA names the builtin and the place of the call.)
func testInputError(msg string) error {
	return rego.NewHaltError(errors.New(msg))
}
