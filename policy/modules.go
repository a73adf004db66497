package policy

import "github.com/open-policy-agent/opa/v1/ast"

// Functions parses a Rego module of users' custom functions (a ruleset's
// functions folder) and returns the reference of each function it
// defines by name, as data.<package>.<name>: a ruleset's `functions:` list
// names them so.
func Functions(file, text string) (map[string]string, error) {
	m, err := ast.ParseModuleWithOpts(file, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return nil, err
	}
	found := map[string]string{}
	for _, r := range m.Rules {
		if len(r.Head.Args) == 0 {
			continue
		}
		name := r.Head.Name.String()
		if name == "" && len(r.Head.Reference) > 0 {
			name = r.Head.Reference[len(r.Head.Reference)-1].Value.String()
		}
		found[name] = m.Package.Path.String() + "." + name
	}
	return found, nil
}
