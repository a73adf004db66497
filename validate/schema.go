package validate

// Schema Objects. OpenAPI 2.0 and 3.0 define a closed subset of JSON Schema
// (unknown keywords other than x- are errors); OpenAPI 3.1+ and AsyncAPI
// use full JSON Schema dialects that allow any keyword, so there only the
// known keywords are checked, and loosely: this package is strict about
// the specification's own objects, not about the JSON Schema vocabulary.

var (
	jsonTypes30 = []string{"string", "number", "integer", "boolean", "array", "object"}
	jsonTypes   = append(jsonTypes30[:len(jsonTypes30):len(jsonTypes30)], "null")
	jsonTypes20 = append(jsonTypes30[:len(jsonTypes30):len(jsonTypes30)], "file")
)

// validationKeywords are the JSON Schema keywords shared by every version,
// apart from the subschema keywords.
func validationKeywords() []entry {
	return with(lengthKeywords(), []entry{
		field("title", str),
		field("description", str),
		field("multipleOf", number),
		field("maximum", number),
		field("minimum", number),
		field("maxProperties", integer),
		field("minProperties", integer),
		field("required", listOf(str)),
		field("enum", listOf(anyValue)),
		field("format", str),
		field("default", anyValue),
	})
}

// lengthKeywords bound a string's length and pattern and an array's items:
// schemas and Swagger 2.0's non-body values share them.
func lengthKeywords() []entry {
	return []entry{
		field("maxLength", integer),
		field("minLength", integer),
		field("pattern", str),
		field("maxItems", integer),
		field("minItems", integer),
		field("uniqueItems", boolean),
	}
}

func xmlObject(t table) *object {
	return t.obj("XML object",
		field("name", str),
		field("namespace", str),
		field("prefix", str),
		field("attribute", boolean),
		field("wrapped", boolean),
		field("nodeType", oneOf("element", "attribute", "text", "cdata", "none")).since(2),
	)
}

// schema20 returns a Swagger 2.0 schema position: a Schema Object or a
// Reference Object.
func schema20(t table, externalDocs *object) shape {
	s := &object{name: "Schema object"}
	pos := ref(s)
	t.define(s, with(validationKeywords(), []entry{
		field("type", eitherOf(oneOf(jsonTypes20...), listOf(oneOf(jsonTypes20...)))),
		field("exclusiveMaximum", boolean),
		field("exclusiveMinimum", boolean),
		// JSON Schema draft 4 lets items be a list of schemas.
		field("items", eitherOf(pos, listOf(pos))),
		field("allOf", listOf(pos)),
		field("properties", mapOf(pos)),
		field("additionalProperties", eitherOf(boolean, pos)),
		field("discriminator", str),
		field("readOnly", boolean),
		field("xml", xmlObject(t)),
		field("externalDocs", externalDocs),
		field("example", anyValue),
	})...)
	return pos
}

// schema30 returns an OpenAPI 3.0 schema position.
func schema30(t table, externalDocs *object) shape {
	s := &object{name: "Schema object"}
	pos := ref(s)
	t.define(s, with(validationKeywords(), []entry{
		field("type", oneOf(jsonTypes30...)),
		field("exclusiveMaximum", boolean),
		field("exclusiveMinimum", boolean),
		field("items", pos),
		field("allOf", listOf(pos)),
		field("oneOf", listOf(pos)),
		field("anyOf", listOf(pos)),
		field("not", pos),
		field("properties", mapOf(pos)),
		field("additionalProperties", eitherOf(boolean, pos)),
		field("nullable", boolean),
		field("discriminator", discriminator(t)),
		field("readOnly", boolean),
		field("writeOnly", boolean),
		field("xml", xmlObject(t)),
		field("externalDocs", externalDocs),
		field("example", anyValue),
		field("deprecated", boolean),
		check(itemsWithArray),
	})...)
	return pos
}

func discriminator(t table) *object {
	return t.obj("Discriminator object",
		field("propertyName", str).required(),
		field("mapping", mapOf(str)),
		field("defaultMapping", str).since(2),
	)
}

// schema31 returns an OpenAPI 3.1+ schema position: JSON Schema 2020-12,
// where a schema may be a boolean and $ref sits beside other keywords.
func schema31(t table, externalDocs *object) shape {
	s := &object{name: "Schema object", open: true}
	pos := mergedRef(eitherOf(boolean, s))
	t.define(s, with(validationKeywords(), subschemaKeywords2020(pos), []entry{
		field("type", eitherOf(oneOf(jsonTypes...), listOf(oneOf(jsonTypes...)))),
		field("exclusiveMaximum", number),
		field("exclusiveMinimum", number),
		field("items", pos),
		field("prefixItems", listOf(pos)),
		field("$defs", mapOf(pos)),
		field("discriminator", discriminator(t)),
		field("xml", xmlObject(t)),
		field("externalDocs", externalDocs),
	})...)
	return pos
}

// subschemaKeywords2020 are the keywords of JSON Schema drafts 7 and
// 2020-12 that hold subschemas or annotations, typed loosely.
func subschemaKeywords2020(pos shape) []entry {
	return []entry{
		field("$ref", str),
		field("$id", str),
		field("$schema", str),
		field("$comment", str),
		field("const", anyValue),
		field("allOf", listOf(pos)),
		field("oneOf", listOf(pos)),
		field("anyOf", listOf(pos)),
		field("not", pos),
		field("if", pos),
		field("then", pos),
		field("else", pos),
		field("contains", pos),
		field("properties", mapOf(pos)),
		field("patternProperties", mapOf(pos)),
		field("additionalProperties", pos),
		field("propertyNames", pos),
		field("dependentSchemas", mapOf(pos)),
		field("dependentRequired", mapOf(listOf(str))),
		field("unevaluatedItems", pos),
		field("unevaluatedProperties", pos),
		field("contentSchema", pos),
		field("readOnly", boolean),
		field("writeOnly", boolean),
		field("deprecated", boolean),
		field("examples", listOf(anyValue)),
		field("example", anyValue),
	}
}

// schemaAsync returns an AsyncAPI schema position: JSON Schema draft 7
// with discriminator, externalDocs and deprecated. Its $ref follows draft
// 7, where a $ref replaces its siblings.
func schemaAsync(t table, externalDocs shape) shape {
	s := &object{name: "Schema object", open: true}
	pos := ref(eitherOf(boolean, s))
	t.define(s, with(validationKeywords(), subschemaKeywords2020(pos), []entry{
		field("type", eitherOf(oneOf(jsonTypes...), listOf(oneOf(jsonTypes...)))),
		field("exclusiveMaximum", number),
		field("exclusiveMinimum", number),
		field("items", eitherOf(pos, listOf(pos))),
		field("additionalItems", pos),
		field("definitions", mapOf(pos)),
		field("dependencies", mapOf(eitherOf(listOf(str), pos))),
		field("discriminator", str),
		field("externalDocs", externalDocs),
	})...)
	return pos
}
