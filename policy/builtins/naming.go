package builtins

import (
	"fmt"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/specgate/specgate/internal/lazyregexp"
)

// The naming builtins split identifiers into words and spell them in a
// case convention. The naming rules call them for every name of a large
// API; written in Rego, with two regex.replace, a regex.split and a
// comprehension per word, they were a tenth of its lint.
func init() {
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.words",
		Decl: types.NewFunction(types.Args(types.S), types.NewArray(nil, types.S)),
	}, wordsBuiltin)
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.respell",
		Decl: types.NewFunction(types.Args(types.S, types.S), types.S),
	}, respellBuiltin)
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.case_of",
		Decl: types.NewFunction(types.Args(types.S), types.S),
	}, caseOfBuiltin)
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.operation_name",
		Decl: types.NewFunction(types.Args(types.A), types.S),
	}, operationNameBuiltin)
}

var (
	// The conventions, as data.specgate.lib.naming tests them.
	isKebab      = lazyregexp.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	isSnake      = lazyregexp.New(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	isCamel      = lazyregexp.New(`^[a-z][a-zA-Z0-9]*$`)
	isPascal     = lazyregexp.New(`^[A-Z][a-zA-Z0-9]*$`)
	camelStart   = lazyregexp.New(`^[a-z][a-z0-9]*[A-Z]`)
	oneLowerWord = lazyregexp.New(`^[a-z][a-z0-9]*$`)

	lowerThenUpper = lazyregexp.New(`([a-z0-9])([A-Z])`)
	acronymThenCap = lazyregexp.New(`([A-Z]+)([A-Z][a-z]{2,})`)
	separators     = lazyregexp.New(`[^A-Za-z0-9]+`)
)

// words splits an identifier into its words (see specgate.words).
func words(s string) []string {
	s = acronymThenCap().ReplaceAllString(lowerThenUpper().ReplaceAllString(s, "${1} ${2}"), "${1} ${2}")
	var out []string
	for _, w := range separators().Split(s, -1) {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// respell writes the words of s in a style; false for an unknown style.
func respell(s, style string) (string, bool) {
	sep := "_"
	if style == "kebab" {
		sep = "-"
	}
	var b strings.Builder
	for i, w := range words(s) {
		switch style {
		case "snake", "kebab":
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(strings.ToLower(w))
		case "camel", "pascal":
			if i == 0 && style == "camel" {
				b.WriteString(strings.ToLower(w))
			} else {
				// The words are ASCII letters and digits only.
				b.WriteString(strings.ToUpper(w[:1]))
				b.WriteString(strings.ToLower(w[1:]))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// wordsBuiltin is specgate.words(s) -> [string]: the words of an
// identifier, split at every character that is not an ASCII letter or
// digit, and at case changes ("userAccounts", "user_accounts" and
// "User-Accounts" give "user"/"User", "Accounts"/"accounts"); an acronym
// stays one word when a capitalized word follows it ("HTTPServer" is
// "HTTP", "Server").
func wordsBuiltin(_ rego.BuiltinContext, s *ast.Term) (*ast.Term, error) {
	str, ok := s.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.words: operand must be a string, got %s", ast.ValueName(s.Value))
	}
	ws := words(string(str))
	terms := make([]*ast.Term, len(ws))
	for i, w := range ws {
		terms[i] = ast.StringTerm(w)
	}
	return ast.ArrayTerm(terms...), nil
}

// respellBuiltin is specgate.respell(s, style) -> string: the words of s
// in style "camel", "pascal", "snake" or "kebab".
func respellBuiltin(_ rego.BuiltinContext, s, style *ast.Term) (*ast.Term, error) {
	str, ok1 := s.Value.(ast.String)
	st, ok2 := style.Value.(ast.String)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("specgate.respell: operands must be strings")
	}
	out, ok := respell(string(str), string(st))
	if !ok {
		return nil, fmt.Errorf("specgate.respell: unknown style %q (camel, pascal, snake or kebab)", string(st))
	}
	return ast.StringTerm(out), nil
}

// operationNameBuiltin is specgate.operation_name(op) -> string: an HTTP
// operation of input.operations (input.webhooks, input.callbacks) named
// for messages ("GET /pets/{id}", "POST webhook newPet", "POST
// {$request.body#/url} (callback onEvent)"), undefined when its method or
// path is not a string. It names it as data.specgate.lib.naming's
// operation did in Rego, an else-chain of tests and sprintf that a large
// API's messages called thousands of times: by its webhook when it has a
// non-empty one, else its path and its callback when it has a non-empty
// one, else its path.
func operationNameBuiltin(_ rego.BuiltinContext, op *ast.Term) (*ast.Term, error) {
	obj, ok := op.Value.(ast.Object)
	if !ok {
		return nil, nil
	}
	field := func(key *ast.Term) (string, bool) {
		if t := obj.Get(key); t != nil {
			if s, ok := t.Value.(ast.String); ok {
				return string(s), true
			}
		}
		return "", false
	}
	method, ok := field(methodKey)
	if !ok {
		return nil, nil
	}
	webhook, _ := field(webhookKey)
	path, ok := field(pathKeyTerm)
	if !ok && webhook == "" {
		return nil, nil
	}
	callback, _ := field(callbackKey)
	return ast.StringTerm(NameOperation(method, path, webhook, callback)), nil
}

// NameOperation names an operation by its method and its webhook, else
// its path and callback (specgate.operation_name).
func NameOperation(method, path, webhook, callback string) string {
	method = strings.ToUpper(method)
	switch {
	case webhook != "":
		return method + " webhook " + webhook
	case callback != "":
		return method + " " + path + " (callback " + callback + ")"
	}
	return method + " " + path
}

var (
	methodKey   = ast.StringTerm("method")
	webhookKey  = ast.StringTerm("webhook")
	pathKeyTerm = ast.StringTerm("path")
	callbackKey = ast.StringTerm("callback")
)

// caseOf is the case convention of an identifier (specgate.case_of);
// false for a single lower-case word. In Rego it was an else-chain of
// regular expressions that operation-id-casing ran for every operation
// id.
func caseOf(s string) (string, bool) {
	switch {
	case strings.Contains(s, "_") && isSnake().MatchString(s):
		return "snake", true
	case strings.Contains(s, "-") && isKebab().MatchString(s):
		return "kebab", true
	case camelStart().MatchString(s) && isCamel().MatchString(s):
		return "camel", true
	case isPascal().MatchString(s):
		return "pascal", true
	case !oneLowerWord().MatchString(s):
		return "other", true
	}
	return "", false
}

// caseOfBuiltin is specgate.case_of(s) -> string: the case convention of
// an identifier (data.specgate.lib.style's case_of): "snake", "kebab",
// "camel", "pascal", "other" (mixed, or other characters); undefined for
// a single lower-case word, which fits snake, kebab and camel case alike.
func caseOfBuiltin(_ rego.BuiltinContext, s *ast.Term) (*ast.Term, error) {
	str, ok := s.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.case_of: operand must be a string, got %s", ast.ValueName(s.Value))
	}
	c, ok := caseOf(string(str))
	if !ok {
		return nil, nil
	}
	return ast.StringTerm(c), nil
}
