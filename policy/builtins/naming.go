package builtins

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

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
	rego.RegisterBuiltin1(&rego.Function{
		Name: "specgate.templates",
		Decl: types.NewFunction(types.Args(types.S), types.NewArray(nil, types.S)),
	}, templatesBuiltin)
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
)

// words splits an identifier into its words (see specgate.words): at
// every byte that is not an ASCII letter or digit, between a lower-case
// letter or digit and a capital, and before the last capital of a run of
// capitals that two lower-case letters follow. That is what two
// regexp.ReplaceAllString, ([a-z0-9])([A-Z]) then ([A-Z]+)([A-Z][a-z]{2,}),
// and a split at [^A-Za-z0-9]+ gave, in one pass over the bytes.
func words(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || !isAlnum(s[i]) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if isUpper(s[i]) && (isLower(s[i-1]) || isDigit(s[i-1]) ||
			isUpper(s[i-1]) && i+2 < len(s) && isLower(s[i+1]) && isLower(s[i+2])) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isUpper(c) || isLower(c) || isDigit(c) }

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
	return stringsTerm(words(string(str))), nil
}

// stringsTerm is an array of strings as a term.
func stringsTerm(list []string) *ast.Term {
	terms := make([]*ast.Term, len(list))
	for i, w := range list {
		terms[i] = ast.StringTerm(w)
	}
	return ast.ArrayTerm(terms...)
}

// specgate.templates(s) -> [name]
//
// the names inside the {templates} of a string, in order: a path's
// parameters, a server URL's variables, an AsyncAPI channel's parameters.
// It lists what [m[1] | some m in regex.find_all_string_submatch_n(
// `\{([^{}]*)\}`, s, -1)] lists, without building a match array per
// template: the parameter rules ask it of every path of an API.
func templatesBuiltin(_ rego.BuiltinContext, s *ast.Term) (*ast.Term, error) {
	str, ok := s.Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("specgate.templates: operand must be a string, got %s", ast.ValueName(s.Value))
	}
	return stringsTerm(templates(string(str))), nil
}

// templates finds each "{" followed by a "}" with no brace between them;
// a "{" met before the "}" starts the template over, as the regular
// expression's leftmost match does.
func templates(s string) []string {
	var out []string
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			return out
		}
		rest := s[open+1:]
		end := strings.IndexAny(rest, "{}")
		if end < 0 {
			return out
		}
		if rest[end] == '{' {
			s = rest[end:]
			continue
		}
		out = append(out, rest[:end])
		s = rest[end+1:]
	}
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
	name, ok := operationName(obj)
	if !ok {
		return nil, nil
	}
	return ast.StringTerm(name), nil
}

// operationName is specgate.operation_name of an operation's object;
// false when it has no name.
func operationName(obj ast.Object) (string, bool) {
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
		return "", false
	}
	webhook, _ := field(webhookKey)
	path, ok := field(pathKeyTerm)
	if !ok && webhook == "" {
		return "", false
	}
	callback, _ := field(callbackKey)
	return NameOperation(method, path, webhook, callback), true
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

// The namespaced-name builtins judge a name made of parts, such as an
// operation id written as namespaces and a method ("users.user.ListUser",
// "repos/get-content"), part by part, in one call: in Rego, the split,
// the call per part and the respelling per token were most of what
// operation-id-casing cost on a large API.
func init() {
	rego.RegisterBuiltin2(&rego.Function{
		Name: "specgate.parts_case",
		Decl: types.NewFunction(types.Args(types.S, types.S), types.S),
	}, partsCaseBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.parts_fit",
		Decl: types.NewFunction(types.Args(types.S, types.S, types.S), types.B),
	}, partsFitBuiltin)
	rego.RegisterBuiltin3(&rego.Function{
		Name: "specgate.respell_parts",
		Decl: types.NewFunction(types.Args(types.S, types.S, types.S), types.S),
	}, respellPartsBuiltin)
}

// conventionPatterns are the conventions' tests of a whole part, as
// data.specgate.lib.naming's is_snake, is_kebab and is_camel and
// data.specgate.lib.style's is_pascal write them.
var conventionPatterns = map[string]func() *regexp.Regexp{
	"snake":  isSnake,
	"kebab":  isKebab,
	"camel":  isCamel,
	"pascal": isPascal,
}

// eachPart calls f with each non-empty run of s between separators (any
// character of seps), in order.
func eachPart(s, seps string, f func(part string) bool) {
	for s != "" {
		i := strings.IndexAny(s, seps)
		if i < 0 {
			f(s)
			return
		}
		if i > 0 && !f(s[:i]) {
			return
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		s = s[i+n:]
	}
}

// partsCase is the convention of a namespaced name (specgate.parts_case):
// that of its parts when they agree, "mixed" when they do not or one is
// "other"; false when no part has one (each is a single lower-case word,
// or there is none).
func partsCase(s, seps string) (string, bool) {
	var first string
	mixed := false
	eachPart(s, seps, func(p string) bool {
		c, ok := caseOf(p)
		switch {
		case !ok:
		case first == "":
			first = c
		case c != first:
			mixed = true
			return false
		}
		return true
	})
	switch {
	case first == "":
		return "", false
	case mixed || first == "other":
		return "mixed", true
	}
	return first, true
}

// partsFit tells whether every part of a namespaced name is written in a
// convention (specgate.parts_fit); false for an unknown convention.
func partsFit(s, convention, seps string) (fit, known bool) {
	pattern, ok := conventionPatterns[convention]
	if !ok {
		return false, false
	}
	re := pattern()
	fit = true
	eachPart(s, seps, func(p string) bool {
		fit = re.MatchString(p)
		return fit
	})
	return fit, true
}

// respellParts writes each part of a namespaced name in a convention,
// keeping its separators (specgate.respell_parts).
func respellParts(s, convention, seps string) (string, bool) {
	if _, ok := conventionPatterns[convention]; !ok {
		return "", false
	}
	var b strings.Builder
	for s != "" {
		i := strings.IndexAny(s, seps)
		if i < 0 {
			i = len(s)
		}
		if i > 0 {
			w, _ := respell(s[:i], convention)
			b.WriteString(w)
		}
		if i == len(s) {
			break
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		s = s[i+n:]
	}
	return b.String(), true
}

// stringOperands reads the string operands of a builtin.
func stringOperands(name string, terms ...*ast.Term) ([]string, error) {
	out := make([]string, len(terms))
	for i, t := range terms {
		s, ok := t.Value.(ast.String)
		if !ok {
			return nil, fmt.Errorf("%s: operand %d must be a string, got %s", name, i+1, ast.ValueName(t.Value))
		}
		out[i] = string(s)
	}
	return out, nil
}

// partsCaseBuiltin is specgate.parts_case(name, separators) -> string: the
// case convention of a name made of parts separated by any character of
// separators, judged part by part as specgate.case_of judges a name:
// "snake", "kebab", "camel" or "pascal" when the parts that have one agree
// (a single lower-case word agrees with any), "mixed" when they disagree
// or one is "other"; undefined when no part has one.
// specgate.parts_case("repos/get-content", "/.") is "kebab".
func partsCaseBuiltin(_ rego.BuiltinContext, name, seps *ast.Term) (*ast.Term, error) {
	ops, err := stringOperands("specgate.parts_case", name, seps)
	if err != nil {
		return nil, err
	}
	c, ok := partsCase(ops[0], ops[1])
	if !ok {
		return nil, nil
	}
	return ast.StringTerm(c), nil
}

// partsFitBuiltin is specgate.parts_fit(name, convention, separators) ->
// boolean: whether every non-empty part of the name (the runs between
// characters of separators) is written in the convention ("snake",
// "kebab", "camel" or "pascal", tested as data.specgate.lib.naming's
// is_snake, is_kebab, is_camel and style's is_pascal test a name); true
// for a name without parts.
func partsFitBuiltin(_ rego.BuiltinContext, name, convention, seps *ast.Term) (*ast.Term, error) {
	ops, err := stringOperands("specgate.parts_fit", name, convention, seps)
	if err != nil {
		return nil, err
	}
	fit, ok := partsFit(ops[0], ops[1], ops[2])
	if !ok {
		return nil, fmt.Errorf("specgate.parts_fit: unknown convention %q (camel, pascal, snake or kebab)", ops[1])
	}
	return ast.BooleanTerm(fit), nil
}

// respellPartsBuiltin is specgate.respell_parts(name, convention,
// separators) -> string: the name with each run between separators
// respelled in the convention as specgate.respell respells it, and every
// separator kept: specgate.respell_parts("repos/get_content", "kebab",
// "/.") is "repos/get-content".
func respellPartsBuiltin(_ rego.BuiltinContext, name, convention, seps *ast.Term) (*ast.Term, error) {
	ops, err := stringOperands("specgate.respell_parts", name, convention, seps)
	if err != nil {
		return nil, err
	}
	out, ok := respellParts(ops[0], ops[1], ops[2])
	if !ok {
		return nil, fmt.Errorf("specgate.respell_parts: unknown convention %q (camel, pascal, snake or kebab)", ops[1])
	}
	return ast.StringTerm(out), nil
}
