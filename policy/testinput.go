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

// testInputFilesDecl declares specgate.test_input_files(files): the input
// lint builds for a document of several files, given as an object of file
// names and documents, whose entry is TestInputName.
var testInputFilesDecl = &rego.Function{
	Name:    "specgate.test_input_files",
	Decl:    types.NewFunction(types.Args(types.NewObject(nil, types.NewDynamicProperty(types.S, types.A))), types.A),
	Memoize: true,
}

// TestCapabilities are Capabilities with the builtins a test may call
// besides the rules' own (specgate.test_input, specgate.test_input_files).
func TestCapabilities() *ast.Capabilities {
	caps := Capabilities()
	for _, f := range []*rego.Function{testInputDecl, testInputFilesDecl} {
		caps.Builtins = append(caps.Builtins, &ast.Builtin{Name: f.Name, Decl: f.Decl})
	}
	return caps
}

// TestBuiltins are the implementations of the builtins TestCapabilities
// adds, for tester.Runner.AddCustomBuiltins.
func TestBuiltins() []*tester.Builtin {
	return []*tester.Builtin{{
		Decl: &ast.Builtin{Name: testInputDecl.Name, Decl: testInputDecl.Decl},
		Func: rego.Function1(testInputDecl, testInputBuiltin),
	}, {
		Decl: &ast.Builtin{Name: testInputFilesDecl.Name, Decl: testInputFilesDecl.Decl},
		Func: rego.Function1(testInputFilesDecl, testInputFilesBuiltin),
	}}
}

// testInputBuiltin is specgate.test_input(doc): doc is the text of a
// specification (YAML or JSON) or a specification written as a Rego
// object; the result is input.Build of the document the loader makes of it, as
// lint makes it of a file named test.yaml. A document that does not load
// halts the test with the loader's error (file, line and column), since
// a test of a rule over no input would pass or fail for the wrong reason.
// Its $refs resolve to no other file: one that names another is left
// unresolved, as lint leaves a $ref to a file that does not exist.
func testInputBuiltin(bctx rego.BuiltinContext, doc *ast.Term) (*ast.Term, error) {
	data, err := documentText(doc.Value)
	if err != nil {
		return nil, testInputError(err.Error())
	}
	d, err := LoadTestDocument(bctx.Context, data)
	if err != nil {
		return nil, testInputError(err.Error())
	}
	return ast.NewTerm(input.Build(d)), nil
}

// testInputFilesBuiltin is specgate.test_input_files(files): files maps
// the names of a document's files (relative paths such as "common/pet.yaml")
// to their documents, each as test_input takes one; the entry file is
// test.yaml. The files are written to a temporary folder, which is the ref
// root, and lint's input is built of the entry, so that a test sees
// references between files resolve, or fail, as lint reports them.
func testInputFilesBuiltin(bctx rego.BuiltinContext, files *ast.Term) (*ast.Term, error) {
	obj, ok := files.Value.(ast.Object)
	if !ok {
		return nil, testInputError(fmt.Sprintf("the files are %s, want an object of file names and documents", ast.ValueName(files.Value)))
	}
	texts := map[string][]byte{}
	for _, k := range obj.Keys() {
		name, ok := k.Value.(ast.String)
		if !ok || !filepath.IsLocal(string(name)) || filepath.ToSlash(filepath.Clean(string(name))) != string(name) {
			return nil, testInputError(fmt.Sprintf("file name %v is not a clean relative path inside the test's folder", k))
		}
		data, err := documentText(obj.Get(k).Value)
		if err != nil {
			return nil, testInputError(fmt.Sprintf("%s: %v", name, err))
		}
		texts[string(name)] = data
	}
	entry, ok := texts[TestInputName]
	if !ok {
		return nil, testInputError(fmt.Sprintf("the files have no %s, the entry file", TestInputName))
	}
	dir, err := os.MkdirTemp("", "specgate-test-input-")
	if err != nil {
		return nil, testInputError(err.Error())
	}
	defer os.RemoveAll(dir)
	for name, data := range texts {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, testInputError(err.Error())
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, testInputError(err.Error())
		}
	}
	loader := spec.NewLoader(spec.Options{RefRoot: dir})
	d, err := loader.LoadBytesIn(bctx.Context, dir, TestInputName, entry)
	if err != nil {
		return nil, testInputError(err.Error())
	}
	return ast.NewTerm(input.Build(d)), nil
}

// documentText is a test's document as the loader reads it: a string as
// it is, an object as its JSON text.
func documentText(v ast.Value) ([]byte, error) {
	switch v := v.(type) {
	case ast.String:
		return []byte(v), nil
	case ast.Object:
		js, err := ast.JSON(v)
		if err != nil {
			return nil, err
		}
		return json.Marshal(js)
	default:
		return nil, fmt.Errorf("the document is %s, want a string (YAML or JSON) or an object", ast.ValueName(v))
	}
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
