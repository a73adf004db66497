package arazzo

import (
	"embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// The official schemas of Arazzo 1.0.x and 1.1.x (schemas/README.md).
//
//go:embed schemas/1.0.yaml schemas/1.1.yaml
var schemaFS embed.FS

// officialSchema compiles the schema of an Arazzo minor version once.
var officialSchema = sync.OnceValue(func() map[int]*jsonschema.Schema {
	out := map[int]*jsonschema.Schema{}
	for minor, file := range map[int]string{0: "schemas/1.0.yaml", 1: "schemas/1.1.yaml"} {
		data, err := schemaFS.ReadFile(file)
		if err != nil {
			panic(err)
		}
		root, err := spec.Parse(file, data, spec.DefaultLimits())
		if err != nil {
			panic(err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.UseRegexpEngine(ecmaRegexp)
		url := "https://specgate.invalid/arazzo/" + file
		if err := c.AddResource(url, NodeValue(root)); err != nil {
			panic(err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			panic(fmt.Sprintf("compiling %s: %v", file, err))
		}
		out[minor] = sch
	}
	return out
})

// ecmaRegexp compiles the schemas' patterns as ECMA-262 expressions, as
// JSON Schema means them: 1.1's dependsOn uses a look-ahead, which Go's
// RE2 does not have.
func ecmaRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = 250 * time.Millisecond
	return ecma{re}, nil
}

type ecma struct{ re *regexp2.Regexp }

func (e ecma) String() string { return e.re.String() }
func (e ecma) MatchString(s string) bool {
	ok, err := e.re.MatchString(s)
	return ok && err == nil
}

// NodeValue converts a node into a JSON value (json.Number for numbers).
func NodeValue(n *spec.Node) any { return schema.JSONValue(n) }

// schemaProblems validates the document's entry file against the official
// schema of its version. Each problem is a leaf of the validator's error
// tree; of the branches of a failed oneOf, only the closest is reported
// (the kind of step the author evidently meant).
func schemaProblems(doc *spec.Document) []Problem {
	sch := officialSchema()[doc.Minor]
	if sch == nil {
		return nil
	}
	err := sch.Validate(NodeValue(doc.Root.Root))
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{File: doc.Root.Name, Message: err.Error()}}
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	var out []Problem
	seen := map[string]bool{}
	for _, l := range leaves {
		p := leafProblem(doc, l)
		key := p.Pointer + "\x00" + p.Message
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	return out
}

// collectLeaves gathers the errors without causes; for oneOf and anyOf it
// descends into the closest branch only.
func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		best, bestScore := -1, [2]int{}
		for i, c := range e.Causes {
			var ls []*jsonschema.ValidationError
			collectLeaves(c, &ls)
			depth := 0
			for _, l := range ls {
				depth = max(depth, len(l.InstanceLocation))
			}
			score := [2]int{depth, -len(ls)}
			if best < 0 || score[0] > bestScore[0] || score[0] == bestScore[0] && score[1] > bestScore[1] {
				best, bestScore = i, score
			}
		}
		if k, ok := e.ErrorKind.(*kind.OneOf); ok && len(k.Subschemas) > 1 {
			*out = append(*out, e) // several matched: the oneOf itself is the problem
			return
		}
		collectLeaves(e.Causes[best], out)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

// objectNames name the schema's definitions in messages.
var objectNames = map[string]string{
	"info": "Info object", "source-description-object": "Source Description object", "workflow-object": "Workflow object",
	"step-object": "Step object", "step-object-base": "Step object", "openapi-step-object": "Step object",
	"asyncapi-step-object": "Step object", "workflow-step-object": "Step object", "parameter-object": "Parameter object",
	"success-action-object": "Success Action object", "failure-action-object": "Failure Action object",
	"components-object": "Components object", "reusable-object": "Reusable object", "criterion-object": "Criterion object",
	"request-body-object": "Request Body object", "payload-replacement-object": "Payload Replacement object",
	"selector-object": "Selector object", "expression-type-object": "Expression Type object",
	"criterion-expression-type-object": "Expression Type object",
}

// objectName names the object a schema location belongs to.
func objectName(schemaURL string) string {
	_, frag, _ := strings.Cut(schemaURL, "#")
	segs := strings.Split(frag, "/")
	name := "Arazzo object"
	for i := 0; i+1 < len(segs); i++ {
		if segs[i] == "$defs" {
			if n, ok := objectNames[segs[i+1]]; ok {
				name = n
			}
		}
	}
	return name
}

func leafProblem(doc *spec.Document, e *jsonschema.ValidationError) Problem {
	path := make(spec.Path, len(e.InstanceLocation))
	for i, s := range e.InstanceLocation {
		path[i] = s
		if n, err := strconv.Atoi(s); err == nil {
			if at := doc.Root.Root.At(path[:i]); at != nil && at.Kind == spec.Array {
				path[i] = n
			}
		}
	}
	obj := objectName(e.SchemaURL)
	msg := ""
	unreadable := false
	switch k := e.ErrorKind.(type) {
	case *kind.FalseSchema:
		if len(path) > 0 {
			key := path[len(path)-1]
			path = path[:len(path)-1]
			return locate(doc, path.With(key), fmt.Sprintf("unknown field %q in the %s", fmt.Sprint(key), obj))
		}
		msg = "no value is allowed here"
	case *kind.Required:
		missing := append([]string(nil), k.Missing...)
		sort.Strings(missing)
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = strconv.Quote(m)
		}
		field := "field"
		if len(names) > 1 {
			field = "fields"
		}
		msg = fmt.Sprintf("missing required %s %s in the %s", field, strings.Join(names, ", "), obj)
	case *kind.DependentRequired:
		msg = fmt.Sprintf("%q needs %q beside it in the %s", k.Prop, strings.Join(k.Missing, ", "), obj)
	case *kind.Type:
		msg = fmt.Sprintf("expected %s, found %s", strings.Join(k.Want, " or "), k.Got)
		container := func(t string) bool { return t == "object" || t == "array" }
		wantContainer := false
		for _, w := range k.Want {
			wantContainer = wantContainer || container(w)
		}
		unreadable = wantContainer != container(k.Got)
	case *kind.Pattern:
		msg = fmt.Sprintf("%q does not match the pattern %s", k.Got, k.Want)
		if len(e.InstanceLocation) == 1 && e.InstanceLocation[0] == "arazzo" {
			msg = fmt.Sprintf("arazzo version %q does not match this schema's %s", k.Got, k.Want)
		}
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = describeValue(w)
		}
		msg = fmt.Sprintf("%s is not one of %s", describeValue(k.Got), strings.Join(want, ", "))
	case *kind.OneOf:
		msg = fmt.Sprintf("the value matches more than one of the alternatives allowed here (%v) in the %s", k.Subschemas, obj)
	case *kind.UniqueItems:
		msg = fmt.Sprintf("items %d and %d are equal; the list must not repeat an item", k.Duplicates[0], k.Duplicates[1])
	case *kind.MinItems:
		msg = fmt.Sprintf("the list needs at least %d item(s), found %d", k.Want, k.Got)
	default:
		msg = e.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	}
	p := locate(doc, path, msg)
	p.Unreadable = unreadable
	return p
}
