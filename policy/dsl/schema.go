package dsl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaError is one failure of a value against a JSON Schema: a message
// and the path of the failing value within the checked value.
type SchemaError struct {
	Message string
	Path    []any
}

var english = message.NewPrinter(language.English)

var dialects = map[string]*jsonschema.Draft{
	"draft4": jsonschema.Draft4, "draft6": jsonschema.Draft6, "draft7": jsonschema.Draft7,
	"draft2019-09": jsonschema.Draft2019, "draft2020-12": jsonschema.Draft2020,
}

// schemaCache holds compiled schemas by dialect and text: the schema
// function's schemas are constants of the rules, compiled once per process.
var schemaCache sync.Map

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: schemas of the schema function cannot reference other documents", url)
}

// CheckSchema compiles a JSON Schema given as JSON text. dialect is
// "auto" (the schema's $schema, else draft 7, as Spectral does) or one of
// draft4, draft6, draft7, draft2019-09, draft2020-12.
func CheckSchema(text, dialect string) (*jsonschema.Schema, error) {
	key := dialect + "\x00" + text
	if s, ok := schemaCache.Load(key); ok {
		return s.(*jsonschema.Schema), nil
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
	s, err := c.Compile(url)
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), `"`+url+`#"`, "the schema")
		return nil, errors.New(strings.ReplaceAll(msg, url, "the schema"))
	}
	schemaCache.Store(key, s)
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
	err = s.Validate(value)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	var out []SchemaError
	leaves(ve, value, &out)
	if !allErrors && len(out) > 1 {
		out = out[:1]
	}
	return out, nil
}

func leaves(e *jsonschema.ValidationError, value any, out *[]SchemaError) {
	if len(e.Causes) == 0 {
		msg := e.ErrorKind.LocalizedString(english)
		*out = append(*out, SchemaError{Message: msg, Path: instancePath(value, e.InstanceLocation)})
		return
	}
	for _, c := range e.Causes {
		leaves(c, value, out)
	}
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
