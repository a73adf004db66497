package progcache

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// LoadProgram builds a compiler from a compiled rule set's entry, nil when
// there is none or it does not read back. The modules were compiled,
// checked and rewritten before they were stored, so only the stages that
// build the structures evaluation looks things up in run again, on the
// compiler newCompiler makes; the comprehension indices only when the rule
// set has comprehensions OPA indexes (building them walks every rule
// body, a tenth of start-up).
func (s *Store) LoadProgram(key string, newCompiler func() *ast.Compiler) (compiler *ast.Compiler) {
	// The checksum catches damaged entries; an entry written by hand
	// could still hold a tree the compiler does not expect.
	defer func() {
		if recover() != nil {
			compiler = nil
		}
	}()
	data := s.Get(key)
	if len(data) == 0 || data[0] > 1 {
		return nil
	}
	indexed := data[0] == 1
	modules, err := DecodeModules(data[1:])
	if err != nil {
		return nil
	}
	skipped := SkippedWhenCached
	if !indexed {
		skipped = append(slices.Clip(skipped), ast.StageBuildComprehensionIndices)
	}
	compiler = newCompiler().WithSkipStages(skipped...)
	compiler.Compile(modules)
	if compiler.Failed() {
		return nil
	}
	return compiler
}

// StoreProgram writes the entry of a rule set whose compiled modules are
// modules (all or some of compiler's): whether they have indexed
// comprehensions, then the modules.
func (s *Store) StoreProgram(key string, compiler *ast.Compiler, modules map[string]*ast.Module) {
	if s == nil {
		return
	}
	data, err := EncodeModules(modules)
	if err == nil {
		flag := byte(0)
		if HasComprehensionIndices(compiler, modules) {
			flag = 1
		}
		s.Put(key, append([]byte{flag}, data...))
	}
}

// HasComprehensionIndices tells whether the compiler indexed any
// comprehension of modules.
func HasComprehensionIndices(compiler *ast.Compiler, modules map[string]*ast.Module) bool {
	found := false
	for _, m := range modules {
		ast.WalkTerms(m, func(t *ast.Term) bool {
			found = found || (ast.IsComprehension(t.Value) && compiler.ComprehensionIndex(t) != nil)
			return found
		})
		if found {
			return true
		}
	}
	return false
}

// SkippedWhenCached are the compiler stages a compiled rule set has been
// through already: every stage but those that build the module and rule
// trees and the rule and comprehension indices.
var SkippedWhenCached = func() []ast.StageID {
	kept := []ast.StageID{ast.StageSetModuleTree, ast.StageSetRuleTree, ast.StageBuildRuleIndices, ast.StageBuildComprehensionIndices}
	var out []ast.StageID
	for _, s := range ast.AllStages() {
		if !slices.Contains(kept, s) {
			out = append(out, s)
		}
	}
	return out
}()
