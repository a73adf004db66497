package arazzo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/specgate/specgate/internal/suggest"
)

// ExprKind is what a runtime expression reads.
type ExprKind uint8

// The kinds of runtime expressions, by their first name.
const (
	ExprURL ExprKind = iota + 1
	ExprMethod
	ExprStatusCode
	ExprRequest  // $request.header.X, .query.x, .path.x, .body#/ptr
	ExprResponse // $response.header.X, .body#/ptr
	ExprMessage  // 1.1: $message.header.X, .payload#/ptr
	ExprInputs
	ExprOutputs
	ExprSteps              // $steps.<id>.outputs.<name>
	ExprWorkflows          // $workflows.<id>.inputs|outputs.<name>
	ExprSourceDescriptions // $sourceDescriptions.<name>.<reference>
	ExprComponents         // $components.inputs|parameters|successActions|failureActions.<name>
	ExprSelf               // 1.1: $self
)

// prefixes are the runtime expressions' first names, longest first where
// one is the start of another.
var prefixes = []struct {
	text string
	kind ExprKind
}{
	{"$url", ExprURL}, {"$method", ExprMethod}, {"$statusCode", ExprStatusCode},
	{"$request.", ExprRequest}, {"$response.", ExprResponse}, {"$message.", ExprMessage},
	{"$inputs.", ExprInputs}, {"$outputs.", ExprOutputs}, {"$steps.", ExprSteps},
	{"$workflows.", ExprWorkflows}, {"$sourceDescriptions.", ExprSourceDescriptions},
	{"$components.", ExprComponents}, {"$self", ExprSelf},
}

// Expr is a parsed runtime expression (the Arazzo specification's ABNF,
// with the JSON pointer suffix its examples put on inputs and outputs:
// $steps.find.outputs.pets#/0/id).
type Expr struct {
	Raw  string
	Kind ExprKind
	// Source is what part of a message a $request, $response or $message
	// expression reads: header, query, path, body or payload.
	Source string
	// ID is the step, workflow or source description named; for
	// $components the kind of component (parameters, …).
	ID string
	// Field is "outputs" for $steps, "inputs" or "outputs" for
	// $workflows.
	Field string
	// Name is the header, parameter, input, output or component named; for
	// $sourceDescriptions the reference after the source's name.
	Name string
	// Pointer is the JSON pointer after '#' (HasPointer tells "#" alone,
	// the root, from none).
	Pointer    string
	HasPointer bool
}

func (e *Expr) String() string { return e.Raw }

// IsExpression reports whether s is meant as a runtime expression: it
// starts with the name of one ($inputs., $statusCode, …), or with a
// misspelling of one (see misspeltRoot). Such a string that does not parse
// is an error rather than a literal.
func IsExpression(s string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, strings.TrimSuffix(p.text, ".")) {
			return true
		}
	}
	return misspeltRoot(s) != ""
}

// misspeltRoot is the expression name that s, which starts with none,
// misspells, or "". The Arazzo grammar makes any other string a literal,
// so $input.email is, as written, the text "$input.email"; but a value
// that has an expression's shape ($, a name of letters, then . or # or
// the end) and whose name is close to one's is a mistake, which would
// otherwise be sent as text. Close means what package suggest offers
// before a . or #, where the rest reads as a path ($input.email,
// $reponse.body#/id, $Steps.a.outputs.b), and at most one edit alone
// ($statuscode, $methd), so that a word such as $USD stays a literal. A
// name that starts with a digit ($5) or no name ($.items, a JSONPath) is
// never meant as one.
func misspeltRoot(s string) string {
	if !strings.HasPrefix(s, "$") {
		return ""
	}
	i := 1
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == 1 || i < len(s) && s[i] != '.' && s[i] != '#' {
		return ""
	}
	word := s[:i]
	if slices.Contains(KnownExpressions(), word) {
		return ""
	}
	if i < len(s) {
		return suggest.Closest(word, KnownExpressions())
	}
	for _, k := range KnownExpressions() {
		if levenshtein.ComputeDistance(strings.ToLower(word), strings.ToLower(k)) <= 1 {
			return k
		}
	}
	return ""
}

// KnownExpressions lists the runtime expressions' first names, for
// suggestions.
func KnownExpressions() []string {
	out := make([]string, len(prefixes))
	for i, p := range prefixes {
		out[i] = strings.TrimSuffix(p.text, ".")
	}
	return out
}

// ExprError is a runtime expression that does not parse: where in it and
// why.
type ExprError struct {
	Expr   string
	Offset int // byte offset in Expr
	Msg    string
}

func (e *ExprError) Error() string {
	return fmt.Sprintf("runtime expression %q does not parse: %s", e.Expr, e.Msg)
}

// tchar is the header name character set of RFC 9110.
func tchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// idChar is a character of a step, workflow or source description id.
func idChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// ParseExpr parses a whole string as one runtime expression.
func ParseExpr(s string) (*Expr, error) {
	e := &Expr{Raw: s}
	fail := func(off int, format string, args ...any) (*Expr, error) {
		return nil, &ExprError{Expr: s, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	if !strings.HasPrefix(s, "$") {
		return fail(0, "a runtime expression starts with $")
	}
	var rest string
	for _, p := range prefixes {
		if strings.HasPrefix(s, p.text) {
			e.Kind, rest = p.kind, s[len(p.text):]
			break
		}
	}
	off := len(s) - len(rest)
	switch e.Kind {
	case 0:
		word := s
		if i := strings.IndexAny(s[1:], ".#"); i >= 0 {
			word = s[:i+1]
		}
		if meant := misspeltRoot(s); meant != "" {
			return fail(0, "unknown expression %s; did you mean %s?", word, meant)
		}
		return fail(0, "unknown expression %s; expected one of %s", word, strings.Join(KnownExpressions(), ", "))
	case ExprURL, ExprMethod, ExprStatusCode, ExprSelf:
		if rest != "" {
			return fail(off, "nothing may follow %s", s[:off])
		}
		return e, nil
	case ExprRequest, ExprResponse, ExprMessage:
		src, name, _ := strings.Cut(rest, ".")
		body := "body"
		if e.Kind == ExprMessage {
			body = "payload"
		}
		switch {
		case strings.HasPrefix(rest, body) && (len(rest) == len(body) || rest[len(body)] == '#'):
			e.Source = body
			if len(rest) > len(body) {
				return e, e.setPointer(rest[len(body)+1:], off+len(body)+1)
			}
			return e, nil
		case src == "header":
			if name == "" {
				return fail(len(s), "a header name must follow %sheader.", s[:off])
			}
			for i := 0; i < len(name); i++ {
				if !tchar(name[i]) {
					return fail(off+7+i, "%q cannot be in a header name", name[i])
				}
			}
			e.Source, e.Name = src, name
			return e, nil
		case (src == "query" || src == "path") && e.Kind == ExprRequest:
			if name == "" {
				return fail(len(s), "a parameter name must follow %s%s.", s[:off], src)
			}
			e.Source, e.Name = src, name
			return e, nil
		}
		want := "header.<name>, query.<name>, path.<name> or body"
		switch e.Kind {
		case ExprResponse:
			want = "header.<name> or body"
		case ExprMessage:
			want = "header.<name> or payload"
		}
		return fail(off, "expected %s after %s", want, s[:off])
	case ExprInputs, ExprOutputs:
		name, ptr, hasPtr := strings.Cut(rest, "#")
		if name == "" {
			return fail(off, "a name must follow %s", s[:off])
		}
		e.Name = name
		if hasPtr {
			return e, e.setPointer(ptr, off+len(name)+1)
		}
		return e, nil
	case ExprSteps, ExprWorkflows:
		id := idPrefix(rest)
		if id == "" {
			what := "step"
			if e.Kind == ExprWorkflows {
				what = "workflow"
			}
			return fail(off, "a %s id must follow %s", what, s[:off])
		}
		e.ID = id
		tail := rest[len(id):]
		fieldOff := off + len(id) + 1
		fields := []string{"outputs"}
		if e.Kind == ExprWorkflows {
			fields = []string{"inputs", "outputs"}
		}
		want := "." + strings.Join(fields, " or .")
		field, name, ok := strings.Cut(strings.TrimPrefix(tail, "."), ".")
		if !strings.HasPrefix(tail, ".") || !ok || !slices.Contains(fields, field) {
			form := "$steps.<stepId>.outputs.<name>"
			if e.Kind == ExprWorkflows {
				form = "$workflows.<workflowId>.inputs.<name> or .outputs.<name>"
			}
			return fail(fieldOff, "expected %s.<name> after %s%s (the form is %s)", want, s[:off], id, form)
		}
		name, ptr, hasPtr := strings.Cut(name, "#")
		if name == "" {
			return fail(fieldOff+len(field)+1, "a name must follow %s", s[:fieldOff+len(field)+1])
		}
		e.Field, e.Name = field, name
		if hasPtr {
			return e, e.setPointer(ptr, fieldOff+len(field)+1+len(name)+1)
		}
		return e, nil
	case ExprSourceDescriptions:
		id := idPrefix(rest)
		if id == "" {
			return fail(off, "a source description name must follow $sourceDescriptions.")
		}
		e.ID = id
		tail := rest[len(id):]
		if !strings.HasPrefix(tail, ".") || len(tail) == 1 {
			return fail(off+len(id), "expected .<operationId>, .<workflowId> or .url after $sourceDescriptions.%s", id)
		}
		e.Name = tail[1:]
		return e, nil
	case ExprComponents:
		field, name, ok := strings.Cut(rest, ".")
		kinds := []string{"inputs", "parameters", "successActions", "failureActions"}
		if !ok || !slices.Contains(kinds, field) {
			return fail(off, "expected inputs, parameters, successActions or failureActions after $components.")
		}
		if name == "" {
			return fail(len(s), "a name must follow $components.%s.", field)
		}
		e.ID, e.Name = field, name
		return e, nil
	}
	return fail(0, "not a runtime expression")
}

func (e *Expr) setPointer(p string, off int) error {
	e.HasPointer = true
	if p != "" && p[0] != '/' {
		return &ExprError{Expr: e.Raw, Offset: off, Msg: fmt.Sprintf("the JSON pointer after # must start with /, found %q", p)}
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || (p[i+1] != '0' && p[i+1] != '1')) {
			return &ExprError{Expr: e.Raw, Offset: off + i, Msg: "~ in a JSON pointer must be written ~0 (and / as ~1)"}
		}
	}
	e.Pointer = p
	return nil
}

func idPrefix(s string) string {
	i := 0
	for i < len(s) && idChar(s[i]) {
		i++
	}
	return s[:i]
}

// Template is a string with runtime expressions embedded in braces
// ("Bearer {$steps.login.outputs.token}"). Text holds the literal parts,
// one more than Exprs, around them.
type Template struct {
	Text  []string
	Exprs []*Expr
}

// ParseTemplate finds the {$…} expressions of a string. A brace that does
// not start an expression is text; "{$" without its closing brace, or an
// embedded expression that does not parse, is an error.
func ParseTemplate(s string) (*Template, error) {
	t := &Template{}
	text := strings.Builder{}
	for i := 0; i < len(s); {
		if s[i] == '{' && i+1 < len(s) && s[i+1] == '$' {
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, &ExprError{Expr: s, Offset: i, Msg: "an embedded expression {$… has no closing }"}
			}
			e, err := ParseExpr(s[i+1 : i+end])
			if err != nil {
				if pe, ok := err.(*ExprError); ok {
					pe.Offset += i + 1
					pe.Expr = s
					pe.Msg = fmt.Sprintf("in {%s}: %s", s[i+1:i+end], pe.Msg)
				}
				return nil, err
			}
			t.Text = append(t.Text, text.String())
			text.Reset()
			t.Exprs = append(t.Exprs, e)
			i += end + 1
			continue
		}
		text.WriteByte(s[i])
		i++
	}
	t.Text = append(t.Text, text.String())
	return t, nil
}

// Value is how a string value of a document is read: a whole runtime
// expression (its value keeps its type), a template with embedded
// expressions (a string), or a literal.
func valueExprs(s string) (whole *Expr, tmpl *Template, err error) {
	if IsExpression(s) {
		e, err := ParseExpr(s)
		return e, nil, err
	}
	if strings.Contains(s, "{$") {
		t, err := ParseTemplate(s)
		return nil, t, err
	}
	return nil, nil, nil
}
