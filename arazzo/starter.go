package arazzo

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/internal/yamlvalue"
	"github.com/specgate/specgate/spec"
)

// StarterVersion is the Arazzo version of the documents Starter writes.
const StarterVersion = "1.0.1"

// Starter writes an Arazzo document of starter workflows for an OpenAPI
// description: one workflow per operation under its paths, calling the
// operation with its required parameters and request body taken from the
// workflow's inputs, succeeding on the operation's first 2xx status, and
// handing on the response body as its output. sourceURL is how the
// document names the description (a path relative to where the document
// will be written, or a URL). The document is valid against the official
// schema of its version and passes Check, so a team edits it into real
// workflows (more steps, outputs passed between them) rather than writing
// one from nothing.
func Starter(doc *spec.Document, sourceURL string) ([]byte, error) {
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return nil, fmt.Errorf("%s is %s; starter workflows are written for OpenAPI descriptions", doc.Root.Name, doc)
	}
	ops := doc.Views().Operations
	if len(ops) == 0 {
		return nil, fmt.Errorf("%s has no operations under paths", doc.Root.Name)
	}
	info := doc.Root.Root.Get("info")
	title := info.GetStr("title")
	if title == "" {
		title = "API"
	}
	source := idOf(title, "api")
	root := mapping()
	root.add("arazzo", scalar(StarterVersion))
	root.add("info", mapping().
		add("title", scalar(title+" workflows")).
		add("version", scalar("1.0.0")).
		add("description", scalar(fmt.Sprintf("Starter workflows for %s, one per operation, written by specgate examples generate --workflows: "+
			"each calls its operation with the required parameters and body from its inputs. Add steps that pass outputs on to build real workflows.", title))).node)
	root.add("sourceDescriptions", sequence(mapping().add("name", scalar(source)).add("url", scalar(sourceURL)).add("type", scalar("openapi")).node))
	var workflows []*yaml.Node
	ids := map[string]bool{}
	for _, op := range ops {
		workflows = append(workflows, starterWorkflow(op, source, unique(ids, workflowIDOf(op))))
	}
	root.add("workflows", sequence(workflows...))
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root.node}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func starterWorkflow(op *spec.Operation, source, id string) *yaml.Node {
	name := strings.ToUpper(op.Method) + " " + op.Path
	summary := op.Summary
	if summary == "" {
		summary = "Call " + name + "."
	}
	w := mapping().add("workflowId", scalar(id)).add("summary", scalar(summary))
	step := mapping().add("stepId", scalar("call"))
	if op.OperationID != "" && isID(op.OperationID) {
		step.add("operationId", scalar(op.OperationID))
	} else {
		step.add("operationPath", scalar(fmt.Sprintf("{$sourceDescriptions.%s.url}#%s", source, spec.Pointer(op.Source))))
	}
	inputs := mapping()
	var required []*yaml.Node
	names := map[string]bool{}
	var params []*yaml.Node
	for _, p := range op.Parameters {
		if !p.Required && p.In != "path" || ignoredHeader(p) {
			continue
		}
		in := unique(names, inputNameOf(p.Name))
		inputs.add(in, inputSchema(p.Schema, fmt.Sprintf("the %s parameter %s", p.In, p.Name)))
		required = append(required, scalar(in))
		params = append(params, mapping().add("name", scalar(p.Name)).add("in", scalar(p.In)).add("value", scalar("$inputs."+in)).node)
	}
	if len(params) > 0 {
		step.add("parameters", sequence(params...))
	}
	if body := starterBody(op, names, inputs, &required); body != nil {
		step.add("requestBody", body)
	}
	step.add("successCriteria", sequence(mapping().add("condition", scalar(successCondition(op))).node))
	hasBody := responseHasBody(op)
	if hasBody {
		step.add("outputs", mapping().add("body", scalar("$response.body")).node)
	}
	if len(inputs.node.Content) > 0 {
		schema := mapping().add("type", scalar("object"))
		if len(required) > 0 {
			schema.add("required", flow(sequence(required...)))
		}
		schema.add("properties", inputs.node)
		w.add("inputs", schema.node)
	}
	w.add("steps", sequence(step.node))
	if hasBody {
		w.add("outputs", mapping().add("body", scalar("$steps.call.outputs.body")).node)
	}
	return w.node
}

// ignoredHeader tells the header parameters OpenAPI ignores: Accept and
// Content-Type follow from the media types, Authorization from security.
func ignoredHeader(p *spec.Parameter) bool {
	if p.In != "header" {
		return false
	}
	switch strings.ToLower(p.Name) {
	case "accept", "content-type", "authorization":
		return true
	}
	return false
}

// starterBody is the request body of an operation that requires one: the
// JSON media type if it has one (else its first), its payload the input
// body; Swagger 2.0 form fields each an input of their own.
func starterBody(op *spec.Operation, names map[string]bool, inputs *orderedMap, required *[]*yaml.Node) *yaml.Node {
	rb := op.RequestBody
	if rb == nil {
		return nil
	}
	if len(rb.FormData) > 0 {
		payload := mapping()
		for _, f := range rb.FormData {
			if !f.Required {
				continue
			}
			in := unique(names, inputNameOf(f.Name))
			inputs.add(in, inputSchema(f.Schema, "the form field "+f.Name))
			*required = append(*required, scalar(in))
			payload.add(f.Name, scalar("$inputs."+in))
		}
		if len(payload.node.Content) == 0 {
			return nil
		}
		ct := "application/x-www-form-urlencoded"
		if mt := op.Node.Get("consumes"); mt != nil && len(mt.Items) > 0 && mt.Items[0].Value == "multipart/form-data" {
			ct = "multipart/form-data"
		}
		return mapping().add("contentType", scalar(ct)).add("payload", payload.node).node
	}
	if !rb.Required || len(rb.Content) == 0 {
		return nil
	}
	mt := rb.Content[0]
	for _, c := range rb.Content {
		if isJSONType(c.Name) {
			mt = c
			break
		}
	}
	in := unique(names, "body")
	schema := inputSchema(mt.Schema, "the request body ("+mt.Name+")")
	if !isJSONType(mt.Name) {
		schema = mapping().add("type", scalar("string")).add("description", scalar("the request body ("+mt.Name+"), as text")).node
	}
	inputs.add(in, schema)
	*required = append(*required, scalar(in))
	return mapping().add("contentType", scalar(mt.Name)).add("payload", scalar("$inputs."+in)).node
}

// successCondition is the operation's first declared 2xx status, else
// any 2xx status.
func successCondition(op *spec.Operation) string {
	var codes []int
	for _, r := range op.Responses {
		if n, err := strconv.Atoi(r.Status); err == nil && n >= 200 && n < 300 {
			codes = append(codes, n)
		}
	}
	if len(codes) > 0 {
		return fmt.Sprintf("$statusCode == %d", slices.Min(codes))
	}
	return "$statusCode >= 200 && $statusCode < 300"
}

func responseHasBody(op *spec.Operation) bool {
	for _, r := range op.Responses {
		if strings.HasPrefix(r.Status, "2") && len(r.Content) > 0 {
			return true
		}
	}
	return false
}

// inputSchema is the schema of an input: the parameter's or body's, with
// the keywords that mean the same in every JSON Schema draft (a $ref
// would name the Arazzo document's components, not the description's, and
// OpenAPI 3.0's boolean exclusiveMinimum is no 2020-12 keyword), and a
// description of what it is when it has none.
func inputSchema(s *spec.Node, what string) *yaml.Node {
	m, _ := portable(s).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	if _, ok := m["description"]; !ok {
		m["description"] = what
	}
	n, _ := yamlvalue.Node(m)
	return n
}

// portableKeys are the schema keywords inputSchema keeps, with how their
// value is read.
var portableKeys = map[string]string{
	"type": "typed", "format": "string", "enum": "list", "const": "value", "default": "value", "description": "string",
	"title": "string", "pattern": "string", "minimum": "number", "maximum": "number", "multipleOf": "number",
	"minLength": "number", "maxLength": "number", "minItems": "number", "maxItems": "number", "uniqueItems": "bool",
	"minProperties": "number", "maxProperties": "number", "items": "schema", "properties": "schemas",
	"additionalProperties": "schemaOrBool", "required": "strings", "allOf": "schemaList", "anyOf": "schemaList", "oneOf": "schemaList",
}

// valueKinds are the kinds of node the keywords read as plain values may
// hold (by portableKeys' reading); a value of another kind is left out.
var valueKinds = map[string][]spec.Kind{
	"typed": {spec.String, spec.Array}, "string": {spec.String}, "number": {spec.Number},
	"bool": {spec.Bool}, "list": {spec.Array}, "strings": {spec.Array},
}

// portable is a schema reduced to portableKeys; a $ref (or a value that
// is not a schema) is any value, {}.
func portable(s *spec.Node) any {
	if s == nil || s.Kind != spec.Object || s.Get("$ref") != nil {
		return map[string]any{}
	}
	out := map[string]any{}
	for _, f := range s.Fields {
		v := f.Value
		switch read := portableKeys[f.Key]; read {
		case "value":
			out[f.Key] = NodeValue(v)
		case "schema":
			out[f.Key] = portable(v)
		case "schemaOrBool":
			if v.Kind == spec.Bool {
				out[f.Key] = NodeValue(v)
			} else {
				out[f.Key] = portable(v)
			}
		case "schemas":
			props := map[string]any{}
			for _, p := range v.Fields {
				props[p.Key] = portable(p.Value)
			}
			out[f.Key] = props
		case "schemaList":
			// An alternative that was a $ref is any value: oneOf would
			// then match twice, and the others say nothing more.
			var list []any
			for _, it := range v.Items {
				p := portable(it).(map[string]any)
				if len(p) == 0 {
					list = nil
					break
				}
				list = append(list, p)
			}
			if len(list) > 0 {
				out[f.Key] = list
			}
		default:
			if slices.Contains(valueKinds[read], v.Kind) {
				out[f.Key] = NodeValue(v)
			}
		}
	}
	return out
}

var (
	idRE      = regexp.MustCompile(`^[A-Za-z0-9_\-]+$`)
	notIDChar = regexp.MustCompile(`[^A-Za-z0-9_\-]+`)
)

func isID(s string) bool { return idRE.MatchString(s) }

// idOf makes an id of a text: runs of other characters become one '-'.
func idOf(s, fallback string) string {
	id := strings.Trim(notIDChar.ReplaceAllString(s, "-"), "-")
	if id == "" {
		return fallback
	}
	return id
}

// workflowIDOf names an operation's workflow: its operationId, else its
// method and path ("get-pets-petId").
func workflowIDOf(op *spec.Operation) string {
	if op.OperationID != "" {
		return idOf(op.OperationID, "operation")
	}
	return idOf(op.Method+"-"+op.Path, op.Method)
}

// inputNameOf is a parameter's name as an input: $inputs.a.b would read
// member b of input a, so anything but letters, digits, _ and - becomes _.
func inputNameOf(name string) string {
	n := notIDChar.ReplaceAllString(name, "_")
	if n == "" {
		return "value"
	}
	return n
}

// unique returns id, or id with a number when it is taken, and takes it.
func unique(taken map[string]bool, id string) string {
	out := id
	for i := 2; taken[out]; i++ {
		out = fmt.Sprintf("%s-%d", id, i)
	}
	taken[out] = true
	return out
}

// orderedMap builds a YAML mapping in the order its keys are added.
type orderedMap struct{ node *yaml.Node }

func mapping() *orderedMap { return &orderedMap{node: &yaml.Node{Kind: yaml.MappingNode}} }

func (m *orderedMap) add(key string, v *yaml.Node) *orderedMap {
	m.node.Content = append(m.node.Content, scalar(key), v)
	return m
}

func scalar(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func sequence(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Content: items}
}

func flow(n *yaml.Node) *yaml.Node {
	n.Style = yaml.FlowStyle
	return n
}
