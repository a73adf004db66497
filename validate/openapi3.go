package validate

import (
	"fmt"
	"sync"
)

// openAPI3 returns the model of OpenAPI 3.minor, built once.
func openAPI3(minor int) shape {
	if minor < 0 || minor >= len(openAPI3Models) {
		return nil
	}
	return openAPI3Models[minor]()
}

var openAPI3Models = [...]func() shape{
	sync.OnceValue(func() shape { return buildOpenAPI3(0) }),
	sync.OnceValue(func() shape { return buildOpenAPI3(1) }),
	sync.OnceValue(func() shape { return buildOpenAPI3(2) }),
}

// openAPI3Objects are the objects of OpenAPI 3.x that refer to each other.
type openAPI3Objects struct {
	schema         shape // a schema position
	externalDocs   *object
	server         *object
	pathItem       shape // a path item position
	operation      *object
	parameter      *object
	header         *object
	mediaType      shape // a media type position in a content map
	example        *object
	link           *object
	requestBody    *object
	response       *object
	responses      *object
	callback       *object
	securityReq    *object
	securityScheme shape
}

// buildOpenAPI3 is the table of OpenAPI 3.0, 3.1 and 3.2: an entry marked
// since(1) is new in 3.1, since(2) new in 3.2.
func buildOpenAPI3(minor int) shape {
	t := table{minor: minor}
	m := &openAPI3Objects{}
	m.externalDocs = t.obj("External Documentation object",
		field("description", str),
		field("url", urlStr).required(),
	)
	m.schema = t.pick(1, schema31(t, m.externalDocs), schema30(t, m.externalDocs))
	m.server = openAPI3Server(t)
	m.securityReq = mapOf(listOf(str))
	m.securityReq.rules = []rule{declaredSchemes(minor >= 2, "components", "securitySchemes")}
	m.securityScheme = ref(openAPI3SecurityScheme(t))
	m.example = t.obj("Example object",
		field("summary", str),
		field("description", str),
		field("value", anyValue),
		field("dataValue", anyValue).since(2),
		field("serializedValue", str).since(2),
		field("externalValue", urlStr),
		check(notBoth("value", "externalValue")),
	)
	m.link = t.obj("Link object",
		field("operationRef", str),
		field("operationId", str),
		field("parameters", mapOf(anyValue)),
		field("requestBody", anyValue),
		field("description", str),
		field("server", m.server),
		check(notBoth("operationRef", "operationId")),
	)
	openAPI3Content(t, m)
	openAPI3Operations(t, m)

	tag := t.obj("Tag object",
		field("name", str).required(),
		field("summary", str).since(2),
		field("description", str),
		field("externalDocs", m.externalDocs),
		field("parent", str).since(2),
		field("kind", str).since(2),
	)
	return t.obj("OpenAPI object",
		field("openapi", versionField(fmt.Sprintf(`^3\.%d\.\d+(-.+)?$`, minor), fmt.Sprintf("3.%d.0", minor))).required(),
		field("$self", urlStr).since(2),
		field("info", openAPI3Info(t)).required(),
		field("jsonSchemaDialect", urlStr).since(1),
		field("servers", listOf(m.server)),
		field("paths", openAPI3Paths(t, m)).requiredThrough(0),
		field("webhooks", &object{name: "webhooks map", entries: m.pathItem}).since(1),
		field("components", openAPI3Components(t, m)),
		field("security", listOf(m.securityReq)),
		field("tags", listOf(tag)),
		field("externalDocs", m.externalDocs),
		check(atLeastOne("paths", "components", "webhooks")).since(1),
	)
}

func openAPI3Info(t table) *object {
	return t.obj("Info object",
		field("title", str).required(),
		field("summary", str).since(1),
		field("description", str),
		field("termsOfService", urlStr),
		field("contact", contactObject(t)),
		field("license", t.obj("License object",
			field("name", str).required(),
			field("identifier", str).since(1),
			field("url", urlStr),
			check(notBoth("identifier", "url")).since(1),
		)),
		field("version", str).required(),
	)
}

// contactObject is the Contact object, the same in Swagger 2.0, OpenAPI 3.x
// and AsyncAPI 2 and 3.
func contactObject(t table) *object {
	return t.obj("Contact object",
		field("name", str),
		field("url", urlStr),
		field("email", email),
	)
}

func openAPI3Server(t table) *object {
	variable := t.obj("Server Variable object",
		field("enum", listOf(str)),
		field("default", str).required(),
		field("description", str),
		check(defaultInEnum).since(1),
	)
	return t.obj("Server object",
		field("url", str).required(),
		field("description", str),
		field("name", str).since(2),
		field("variables", mapOf(variable)),
	)
}

var parameterStyles = []string{"matrix", "label", "form", "simple", "spaceDelimited", "pipeDelimited", "deepObject"}

// openAPI3Content builds parameters, headers, media types, request bodies
// and responses.
func openAPI3Content(t table, m *openAPI3Objects) {
	styles := []entry{
		field("style", oneOf(parameterStyles...)).until(1),
		field("style", oneOf(append(parameterStyles, "cookie")...)).since(2),
	}
	m.header = &object{name: "Header object"}
	encoding := &object{name: "Encoding object"}
	t.define(encoding, with(styles, []entry{
		field("contentType", str),
		field("headers", mapOf(ref(m.header))),
		field("explode", boolean),
		field("allowReserved", boolean),
		field("encoding", mapOf(encoding)).since(2),
		field("prefixEncoding", listOf(encoding)).since(2),
		field("itemEncoding", encoding).since(2),
	})...)
	mediaType := t.obj("Media Type object",
		field("schema", m.schema),
		field("itemSchema", m.schema).since(2),
		field("example", anyValue),
		field("examples", mapOf(ref(m.example))),
		field("encoding", mapOf(encoding)),
		field("prefixEncoding", listOf(encoding)).since(2),
		field("itemEncoding", encoding).since(2),
		check(notBoth("example", "examples")),
	)
	m.mediaType = t.pick(2, ref(mediaType), mediaType)
	serialization := with(styles, []entry{
		field("description", str),
		field("required", boolean),
		field("deprecated", boolean),
		field("allowEmptyValue", boolean),
		field("explode", boolean),
		field("allowReserved", boolean),
		field("schema", m.schema),
		field("example", anyValue),
		field("examples", mapOf(ref(m.example))),
		field("content", mapOf(m.mediaType)),
		check(exactlyOne("schema", "content")),
		check(notBoth("example", "examples")),
		check(singleEntry("content")),
	})
	t.define(m.header, serialization...)
	m.parameter = t.obj("Parameter object", with(serialization, []entry{
		field("name", str).required(),
		field("in", oneOf("query", "header", "path", "cookie")).required().until(1),
		field("in", oneOf("query", "querystring", "header", "path", "cookie")).required().since(2),
		check(pathParamRequired),
	})...)
	m.requestBody = t.obj("Request Body object",
		field("description", str),
		field("content", mapOf(m.mediaType)).required(),
		field("required", boolean),
	)
	m.response = t.obj("Response object",
		field("summary", str).since(2),
		field("description", str).requiredThrough(1),
		field("headers", mapOf(ref(m.header))),
		field("content", mapOf(m.mediaType)),
		field("links", mapOf(ref(m.link))),
	)
	m.responses = &object{
		name:     "Responses object",
		fields:   map[string]shape{"default": ref(m.response)},
		entries:  ref(m.response),
		keyCheck: responseKey3,
		rules:    []rule{nonEmptyResponses},
	}
}

var openAPI3Methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// openAPI3Operations builds path items, operations and callbacks.
func openAPI3Operations(t table, m *openAPI3Objects) {
	item := &object{name: "Path Item object"}
	m.pathItem = mergedRef(item)
	m.callback = &object{name: "Callback object", entries: m.pathItem}
	m.operation = t.obj("Operation object",
		field("tags", listOf(str)),
		field("summary", str),
		field("description", str),
		field("externalDocs", m.externalDocs),
		field("operationId", str),
		field("parameters", listOf(ref(m.parameter))),
		field("requestBody", ref(m.requestBody)),
		field("responses", m.responses).requiredThrough(0),
		field("callbacks", mapOf(ref(m.callback))),
		field("deprecated", boolean),
		field("security", listOf(m.securityReq)),
		field("servers", listOf(m.server)),
		check(uniqueOperationID),
	)
	entries := []entry{
		field("$ref", str),
		field("summary", str),
		field("description", str),
		field("query", m.operation).since(2),
		field("additionalOperations", mapOf(m.operation)).since(2),
		field("servers", listOf(m.server)),
		field("parameters", listOf(ref(m.parameter))),
	}
	for _, method := range openAPI3Methods {
		entries = append(entries, field(method, m.operation))
	}
	t.define(item, entries...)
}

func openAPI3Paths(t table, m *openAPI3Objects) *object {
	methods := openAPI3Methods
	if t.minor >= 2 {
		methods = append(methods[:len(methods):len(methods)], "query")
	}
	return &object{
		name:     "Paths object",
		entries:  m.pathItem,
		keyCheck: pathKey,
		rules:    []rule{pathTemplates(methods, "additionalOperations")},
	}
}

func openAPI3Components(t table, m *openAPI3Objects) *object {
	named := func(s shape) *object { return namedMap(s, componentKey) }
	return t.obj("Components object",
		field("schemas", named(m.schema)),
		field("responses", named(ref(m.response))),
		field("parameters", named(ref(m.parameter))),
		field("examples", named(ref(m.example))),
		field("requestBodies", named(ref(m.requestBody))),
		field("headers", named(ref(m.header))),
		field("securitySchemes", named(m.securityScheme)),
		field("links", named(ref(m.link))),
		field("callbacks", named(ref(m.callback))),
		field("pathItems", named(m.pathItem)).since(1),
		field("mediaTypes", named(m.mediaType)).since(2),
	)
}

// openAPI3SecurityScheme picks the fields of a security scheme by its type,
// as the published schemas do.
func openAPI3SecurityScheme(t table) *variant {
	common := []entry{
		field("type", str).required(),
		field("description", str),
		field("deprecated", boolean).since(2),
	}
	flows := openAPI3Flows(t)
	cases := map[string]*object{
		"apiKey": t.obj("API key Security Scheme object", with(common, []entry{
			field("name", str).required(),
			field("in", oneOf("query", "header", "cookie")).required(),
		})...),
		"http": t.obj("HTTP Security Scheme object", with(common, []entry{
			field("scheme", str).required(),
			field("bearerFormat", str),
		})...),
		"oauth2": t.obj("OAuth2 Security Scheme object", with(common, []entry{
			field("flows", flows).required(),
			field("oauth2MetadataUrl", urlStr).since(2),
		})...),
		"openIdConnect": t.obj("OpenID Connect Security Scheme object", with(common, []entry{
			field("openIdConnectUrl", urlStr).required(),
		})...),
	}
	types := []string{"apiKey", "http", "oauth2", "openIdConnect"}
	if t.minor >= 1 {
		cases["mutualTLS"] = t.obj("Mutual TLS Security Scheme object", common...)
		types = append(types, "mutualTLS")
	}
	other := t.obj("Security Scheme object", field("type", oneOf(types...)).required(), field("description", str))
	other.open = true // its type is wrong: that is the one problem to report
	return byField("type", cases, other)
}

func openAPI3Flows(t table) *object {
	flow := func(name string, urls ...string) *object {
		entries := []entry{
			field("refreshUrl", urlStr),
			field("scopes", mapOf(str)).required(),
		}
		for _, u := range urls {
			entries = append(entries, field(u, urlStr).required())
		}
		return t.obj(name, entries...)
	}
	return t.obj("OAuth Flows object",
		field("implicit", flow("OAuth Flow object (implicit)", "authorizationUrl")),
		field("password", flow("OAuth Flow object (password)", "tokenUrl")),
		field("clientCredentials", flow("OAuth Flow object (clientCredentials)", "tokenUrl")),
		field("authorizationCode", flow("OAuth Flow object (authorizationCode)", "authorizationUrl", "tokenUrl")),
		field("deviceAuthorization", flow("OAuth Flow object (deviceAuthorization)", "deviceAuthorizationUrl", "tokenUrl")).since(2),
	)
}
