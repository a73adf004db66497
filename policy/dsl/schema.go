package dsl

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaError is one failure of a value against a JSON Schema: a message
// and the path of the failing value within the checked value.
type SchemaError struct {
	Message string
	Path    []any
	// Kind names the failed keyword the way OPA's json.match_schema does
	// (invalid_type, format, number_one_of, ..., else the keyword), and
	// Desc is the message in its style, for rules ported from it.
	Kind, Desc string
}

var english = message.NewPrinter(language.English)

var dialects = map[string]*jsonschema.Draft{
	"draft4": jsonschema.Draft4, "draft6": jsonschema.Draft6, "draft7": jsonschema.Draft7,
	"draft2019-09": jsonschema.Draft2019, "draft2020-12": jsonschema.Draft2020,
}

// schemaCache holds compiled schemas by dialect and text: the schema
// function's schemas are constants of the rules, compiled once per process.
// Schemas taken from documents pass here too, so in a long-running lint
// server the cache is emptied whenever it reaches maxCachedSchemas.
var schemaCache struct {
	sync.Mutex
	m map[string]*jsonschema.Schema
}

const maxCachedSchemas = 1024

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: schemas of the schema function cannot reference other documents", url)
}

// SchemaSet compiles draft 7 schemas whose $refs name shared schemas
// (an OpenAPI document's components or definitions) by a prefix such as
// "#/components/schemas/": each shared schema is a resource of its own,
// compiled once when a schema first reaches it. (One resource holding
// them all would be copied by the validator's bookkeeping each time a
// schema reaches a new one.) It is safe for concurrent use.
type SchemaSet struct {
	mu     sync.Mutex
	c      *jsonschema.Compiler
	prefix string
	n      int
}

const setBase = "https://specgate.invalid/"

// NewSchemaSet returns a set of schemas that refer to the shared schemas
// (decoded JSON, by name) as prefix + name. The shared schemas are
// rewritten in place.
func NewSchemaSet(shared map[string]any, prefix string) *SchemaSet {
	s := &SchemaSet{c: jsonschema.NewCompiler(), prefix: prefix}
	s.c.UseLoader(noLoader{})
	s.c.AssertFormat()
	s.c.DefaultDraft(jsonschema.Draft7)
	for name, schema := range shared {
		s.repoint(schema)
		// A shared schema that cannot be added fails the schemas that
		// reach it, when they compile.
		s.c.AddResource(sharedURL(pointerEscape(name)), schema) //nolint:errcheck // see above
	}
	return s
}

// sharedURL is the resource of a shared schema named by the escaped
// JSON pointer token of a $ref.
func sharedURL(token string) string { return setBase + "shared/" + url.PathEscape(token) + ".json" }

func pointerEscape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// Compile compiles a schema (decoded JSON, rewritten in place).
func (s *SchemaSet) Compile(schema any) (*jsonschema.Schema, error) {
	s.repoint(schema)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	u := setBase + "schema-" + strconv.Itoa(s.n) + ".json"
	if err := s.c.AddResource(u, schema); err != nil {
		return nil, err
	}
	return s.c.Compile(u)
}

// dataKeywords hold values rather than schemas; nameMaps map names to
// schemas.
var (
	dataKeywords = map[string]bool{"enum": true, "const": true, "default": true, "example": true, "examples": true}
	nameMaps     = map[string]bool{"properties": true, "patternProperties": true, "definitions": true, "$defs": true, "dependentSchemas": true}
)

// repoint makes the $refs that name shared schemas ("#/components/schemas/
// Pet/properties/id") point at their resources ("…/shared/Pet.json#/
// properties/id").
func (s *SchemaSet) repoint(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if dataKeywords[k] {
				continue // values, not schemas: a "$ref" in them is data
			}
			if named, ok := x.(map[string]any); ok && nameMaps[k] {
				// Keys here are names ("default" may be a property).
				for _, schema := range named {
					s.repoint(schema)
				}
				continue
			}
			if r, ok := x.(string); ok && k == "$ref" && strings.HasPrefix(r, s.prefix) {
				token, rest, _ := strings.Cut(r[len(s.prefix):], "/")
				v[k] = sharedURL(token) + "#/" + rest
				if rest == "" {
					v[k] = sharedURL(token)
				}
			} else {
				s.repoint(x)
			}
		}
	case []any:
		for _, x := range v {
			s.repoint(x)
		}
	}
}

// CheckSchema compiles a JSON Schema given as JSON text. dialect is
// "auto" (the schema's $schema, else draft 7, as Spectral does) or one of
// draft4, draft6, draft7, draft2019-09, draft2020-12.
func CheckSchema(text, dialect string) (*jsonschema.Schema, error) {
	key := dialect + "\x00" + text
	schemaCache.Lock()
	s, ok := schemaCache.m[key]
	schemaCache.Unlock()
	if ok {
		return s, nil
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.AssertFormat()
	draft := jsonschema.Draft7
	if d, ok := dialects[dialect]; ok {
		draft = d
		if obj, ok := doc.(map[string]any); ok {
			// An explicit dialect wins over the document's $schema.
			delete(obj, "$schema")
		}
	}
	c.DefaultDraft(draft)
	const url = "https://specgate.invalid/rule-schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	s, err = c.Compile(url)
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), `"`+url+`#"`, "the schema")
		return nil, errors.New(strings.ReplaceAll(msg, url, "the schema"))
	}
	schemaCache.Lock()
	if len(schemaCache.m) >= maxCachedSchemas || schemaCache.m == nil {
		schemaCache.m = map[string]*jsonschema.Schema{}
	}
	schemaCache.m[key] = s
	schemaCache.Unlock()
	return s, nil
}

// ValidateValue checks a value (as decoded JSON with json.Number numbers)
// against a schema. With allErrors false only the first failure is
// returned, as Spectral does.
func ValidateValue(value any, schemaText, dialect string, allErrors bool) ([]SchemaError, error) {
	s, err := CheckSchema(schemaText, dialect)
	if err != nil {
		return nil, err
	}
	return Validate(s, value, allErrors)
}

// Validate checks a value against a compiled schema.
func Validate(s *jsonschema.Schema, value any, allErrors bool) ([]SchemaError, error) {
	err := s.Validate(value)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	var out []SchemaError
	leaves(ve, value, &out)
	// The validator visits an object's properties in map order, which
	// changes from run to run: order the errors by where they are, then by
	// what they say, so that a report is the same every time.
	slices.SortStableFunc(out, func(a, b SchemaError) int {
		if c := comparePaths(a.Path, b.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.Desc, b.Desc)
	})
	if !allErrors && len(out) > 1 {
		out = out[:1]
	}
	return out, nil
}

// comparePaths orders instance paths segment by segment (indices as
// numbers, keys as text, indices before keys), a path before the paths
// below it.
func comparePaths(a, b []any) int {
	for i := range min(len(a), len(b)) {
		x, xi := a[i].(int)
		y, yi := b[i].(int)
		switch {
		case xi && yi:
			if c := cmp.Compare(x, y); c != 0 {
				return c
			}
		case xi:
			return -1
		case yi:
			return 1
		default:
			if c := cmp.Compare(fmt.Sprint(a[i]), fmt.Sprint(b[i])); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(a), len(b))
}

func leaves(e *jsonschema.ValidationError, value any, out *[]SchemaError) {
	if len(e.Causes) == 0 {
		if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			// Listed in map order by the validator.
			slices.Sort(k.Properties)
		}
		msg := e.ErrorKind.LocalizedString(english)
		se := SchemaError{Message: msg, Path: instancePath(value, e.InstanceLocation), Desc: msg}
		switch k := e.ErrorKind.(type) {
		case *kind.Type:
			got := k.Got
			if n, ok := instanceAt(value, se.Path).(json.Number); ok && got == "number" && !strings.ContainsAny(string(n), ".eE") {
				got = "integer"
			}
			se.Kind, se.Desc = "invalid_type", fmt.Sprintf("Invalid type. Expected: %s, given: %s", strings.Join(k.Want, " or "), got)
		case *kind.Format:
			se.Kind = "format"
		case *kind.Required:
			se.Kind, se.Desc = "required", strings.Join(k.Missing, ", ")+" is required"
		case *kind.Maximum:
			se.Kind, se.Desc = "number_lte", "Must be less than or equal to "+ratText(k.Want)
		case *kind.Minimum:
			se.Kind, se.Desc = "number_gte", "Must be greater than or equal to "+ratText(k.Want)
		case *kind.ExclusiveMaximum:
			se.Kind, se.Desc = "number_lt", "Must be less than "+ratText(k.Want)
		case *kind.ExclusiveMinimum:
			se.Kind, se.Desc = "number_gt", "Must be greater than "+ratText(k.Want)
		case *kind.MaxLength:
			se.Kind, se.Desc = "string_lte", fmt.Sprintf("String length must be less than or equal to %d", k.Want)
		case *kind.MinLength:
			se.Kind, se.Desc = "string_gte", fmt.Sprintf("String length must be greater than or equal to %d", k.Want)
		case *kind.MaxItems:
			se.Kind, se.Desc = "array_max_items", fmt.Sprintf("Array must have at most %d items", k.Want)
		case *kind.MinItems:
			se.Kind, se.Desc = "array_min_items", fmt.Sprintf("Array must have at least %d items", k.Want)
		case *kind.Pattern:
			se.Kind, se.Desc = "pattern", fmt.Sprintf("Does not match pattern '%s'", k.Want)
		case *kind.AdditionalProperties:
			se.Kind, se.Desc = "additional_property_not_allowed", fmt.Sprintf("Additional property %s is not allowed", strings.Join(k.Properties, ", "))
		case *kind.Enum:
			want := make([]string, len(k.Want))
			for i, w := range k.Want {
				b, _ := json.Marshal(w)
				want[i] = string(b)
			}
			se.Kind, se.Desc = "enum", FieldName(se.Path)+" must be one of the following: "+strings.Join(want, ", ")
		case *kind.AllOf:
			se.Kind = "number_all_of"
		case *kind.AnyOf:
			se.Kind = "number_any_of"
		case *kind.OneOf:
			se.Kind = "number_one_of"
		default:
			if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
				se.Kind = kp[len(kp)-1]
			}
		}
		*out = append(*out, se)
		return
	}
	for _, c := range e.Causes {
		leaves(c, value, out)
	}
}

// instanceAt is the value at path within v, or nil.
func instanceAt(v any, path []any) any {
	for _, seg := range path {
		switch c := v.(type) {
		case []any:
			i, ok := seg.(int)
			if !ok || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		case map[string]any:
			k, _ := seg.(string)
			v = c[k]
		default:
			return nil
		}
	}
	return v
}

// FieldName is a location as OPA's json.match_schema names it: "(Root)",
// or the dotted path.
func FieldName(path []any) string {
	if len(path) == 0 {
		return "(Root)"
	}
	parts := make([]string, len(path))
	for i, s := range path {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, ".")
}

// ratText prints a schema bound as JSON would: 100, 0.5.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// instancePath turns a location's tokens into a path whose array indices
// are numbers, by walking the value.
func instancePath(value any, tokens []string) []any {
	out := make([]any, len(tokens))
	cur := value
	for i, t := range tokens {
		switch c := cur.(type) {
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(c) {
				out[i], cur = t, nil
				continue
			}
			out[i], cur = n, c[n]
		case map[string]any:
			out[i], cur = t, c[t]
		default:
			out[i], cur = t, nil
		}
	}
	return out
}
