package validate

import (
	"sync"

	"github.com/specgate/specgate/spec"
)

// openAPI2 returns the model of Swagger (OpenAPI) 2.0, built once.
var openAPI2 = sync.OnceValue(func() shape { return buildOpenAPI2(table{}) })

var openAPI2Methods = []string{"get", "put", "post", "delete", "options", "head", "patch"}

func buildOpenAPI2(t table) shape {
	externalDocs := t.obj("External Documentation object",
		field("description", str),
		field("url", urlStr).required(),
	)
	schema := schema20(t, externalDocs)
	parameter := byField("in", openAPI2Parameters(t, schema), t.obj("Parameter object",
		field("name", str).required(),
		field("in", oneOf("query", "header", "path", "formData", "body")).required(),
	))
	response := openAPI2Response(t, schema)
	responses := &object{
		name:     "Responses object",
		fields:   map[string]shape{"default": ref(response)},
		entries:  ref(response),
		keyCheck: responseKey2,
		rules:    []rule{nonEmptyResponses},
	}
	securityReq := mapOf(listOf(str))
	securityReq.rules = []rule{declaredSchemes(false, "securityDefinitions")}
	mimeTypes := listOf(str)
	schemes := listOf(oneOf("http", "https", "ws", "wss"))
	operation := t.obj("Operation object",
		field("tags", listOf(str)),
		field("summary", str),
		field("description", str),
		field("externalDocs", externalDocs),
		field("operationId", str),
		field("consumes", mimeTypes),
		field("produces", mimeTypes),
		field("parameters", listOf(ref(parameter))),
		field("responses", responses).required(),
		field("schemes", schemes),
		field("deprecated", boolean),
		field("security", listOf(securityReq)),
		check(uniqueOperationID),
	)
	itemEntries := []entry{field("$ref", str), field("parameters", listOf(ref(parameter)))}
	for _, m := range openAPI2Methods {
		itemEntries = append(itemEntries, field(m, operation))
	}
	paths := &object{
		name:     "Paths object",
		entries:  mergedRef(t.obj("Path Item object", itemEntries...)),
		keyCheck: pathKey,
		rules:    []rule{pathTemplates(openAPI2Methods, "")},
	}
	return t.obj("Swagger object",
		field("swagger", versionField(`^2\.0$`, "2.0")).required(),
		field("info", openAPI2Info(t)).required(),
		field("host", &scalar{kind: spec.String, format: hostFormat}),
		field("basePath", &scalar{kind: spec.String, format: basePathFormat}),
		field("schemes", schemes),
		field("consumes", mimeTypes),
		field("produces", mimeTypes),
		field("paths", paths).required(),
		field("definitions", mapOf(schema)),
		field("parameters", mapOf(parameter)),
		field("responses", mapOf(response)),
		field("securityDefinitions", mapOf(openAPI2SecurityScheme(t))),
		field("security", listOf(securityReq)),
		field("tags", listOf(t.obj("Tag object",
			field("name", str).required(),
			field("description", str),
			field("externalDocs", externalDocs),
		))),
		field("externalDocs", externalDocs),
	)
}

func openAPI2Info(t table) *object {
	return t.obj("Info object",
		field("title", str).required(),
		field("description", str),
		// In 2.0 the terms of service are text, not a URL.
		field("termsOfService", str),
		field("contact", contactObject(t)),
		field("license", t.obj("License object",
			field("name", str).required(),
			field("url", urlStr),
		)),
		field("version", str).required(),
	)
}

// primitiveKeywords are the fields of the Swagger objects that describe a
// non-body value (parameters, items, headers) with a subset of JSON Schema.
func primitiveKeywords(items shape, types []string, formats []string) []entry {
	return with(lengthKeywords(), []entry{
		field("type", oneOf(types...)).required(),
		field("format", str),
		field("items", items),
		field("collectionFormat", oneOf(formats...)),
		field("default", anyValue),
		field("maximum", number),
		field("exclusiveMaximum", boolean),
		field("minimum", number),
		field("exclusiveMinimum", boolean),
		field("enum", listOf(anyValue)),
		field("multipleOf", number),
		check(requiredWhen("type", "array", "items")),
	})
}

var (
	primitiveTypes    = []string{"string", "number", "integer", "boolean", "array"}
	collectionFormats = []string{"csv", "ssv", "tsv", "pipes"}
)

func openAPI2Items(t table) *object {
	items := &object{name: "Items object"}
	return t.define(items, primitiveKeywords(items, primitiveTypes, collectionFormats)...)
}

// openAPI2Parameters are the two kinds of Swagger parameters: a body
// parameter has a schema, the others describe a primitive value.
func openAPI2Parameters(t table, schema shape) map[string]*object {
	body := t.obj("body Parameter object",
		field("name", str).required(),
		field("in", str).required(),
		field("description", str),
		field("required", boolean),
		field("schema", schema).required(),
	)
	other := t.obj("Parameter object", with(primitiveKeywords(openAPI2Items(t),
		append(primitiveTypes[:len(primitiveTypes):len(primitiveTypes)], "file"),
		append(collectionFormats[:len(collectionFormats):len(collectionFormats)], "multi")), []entry{
		field("name", str).required(),
		field("in", str).required(),
		field("description", str),
		field("required", boolean),
		field("allowEmptyValue", boolean),
		check(pathParamRequired),
	})...)
	return map[string]*object{"body": body, "query": other, "header": other, "path": other, "formData": other}
}

func openAPI2Response(t table, schema shape) *object {
	header := t.obj("Header object", with(primitiveKeywords(openAPI2Items(t), primitiveTypes, collectionFormats), []entry{
		field("description", str),
	})...)
	return t.obj("Response object",
		field("description", str).required(),
		field("schema", schema),
		field("headers", mapOf(header)),
		field("examples", mapOf(anyValue)),
	)
}

// openAPI2SecurityScheme picks the fields of a security definition by its
// type and, for OAuth2, its flow, as the published schema does.
func openAPI2SecurityScheme(t table) *variant {
	common := []entry{field("type", str).required(), field("description", str)}
	oauth2 := func(flow string, urls ...string) *object {
		entries := with(common, []entry{
			field("flow", str).required(),
			field("scopes", mapOf(str)).required(),
		})
		for _, u := range urls {
			entries = append(entries, field(u, urlStr).required())
		}
		return t.obj("OAuth2 Security Scheme object ("+flow+" flow)", entries...)
	}
	flows := map[string]*object{
		"implicit":    oauth2("implicit", "authorizationUrl"),
		"password":    oauth2("password", "tokenUrl"),
		"application": oauth2("application", "tokenUrl"),
		"accessCode":  oauth2("accessCode", "authorizationUrl", "tokenUrl"),
	}
	otherFlow := t.obj("OAuth2 Security Scheme object", with(common, []entry{
		field("flow", oneOf("implicit", "password", "application", "accessCode")).required(),
	})...)
	otherFlow.open = true
	basic := t.obj("Basic Security Scheme object", common...)
	apiKey := t.obj("API key Security Scheme object", with(common, []entry{
		field("name", str).required(),
		field("in", oneOf("query", "header")).required(),
	})...)
	other := t.obj("Security Scheme object", field("type", oneOf("basic", "apiKey", "oauth2")).required())
	other.open = true
	return &variant{pick: func(n *spec.Node) shape {
		switch n.GetStr("type") {
		case "basic":
			return basic
		case "apiKey":
			return apiKey
		case "oauth2":
			if o := flows[n.GetStr("flow")]; o != nil {
				return o
			}
			return otherFlow
		}
		return other
	}}
}
