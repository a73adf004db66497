package validate

import (
	"strings"
	"sync"

	"github.com/specgate/specgate/spec"
)

// asyncAPI2 returns the model of AsyncAPI 2.x, built once. It is the table
// of 2.6, the last 2.x: the fields earlier minors lack are accepted rather
// than tracked minor by minor.
var asyncAPI2 = sync.OnceValue(func() shape { return buildAsyncAPI2(table{}) })

// asyncAPICommon are the objects AsyncAPI 2 and 3 share.
type asyncAPICommon struct {
	externalDocs *object
	tag          *object
	contact      *object
	license      *object
	serverVar    *object
	correlation  *object
	bindings     shape
}

func asyncAPICommonObjects(t table) *asyncAPICommon {
	c := &asyncAPICommon{}
	c.externalDocs = t.obj("External Documentation object",
		field("description", str),
		field("url", urlStr).required(),
	)
	c.tag = t.obj("Tag object",
		field("name", str).required(),
		field("description", str),
		field("externalDocs", ref(c.externalDocs)),
	)
	c.contact = contactObject(t)
	c.license = t.obj("License object",
		field("name", str).required(),
		field("url", urlStr),
	)
	c.serverVar = t.obj("Server Variable object",
		field("enum", listOf(str)),
		field("default", str),
		field("description", str),
		field("examples", listOf(str)),
	)
	c.correlation = t.obj("Correlation ID object",
		field("description", str),
		field("location", str).required(),
	)
	// Bindings are defined per protocol by separate, versioned specifications.
	c.bindings = ref(openObject)
	return c
}

// infoFields are the Info object's fields of AsyncAPI 2, followed by extra
// (the fields AsyncAPI 3 adds).
func (c *asyncAPICommon) infoFields(extra ...entry) []entry {
	return append([]entry{
		field("title", str).required(),
		field("version", str).required(),
		field("description", str),
		field("termsOfService", urlStr),
		field("contact", c.contact),
		field("license", c.license),
	}, extra...)
}

// bindingMaps are the Components object's four maps of reusable bindings;
// named makes a map keyed by component names.
func (c *asyncAPICommon) bindingMaps(named func(shape) *object) []entry {
	return []entry{
		field("serverBindings", named(c.bindings)),
		field("channelBindings", named(c.bindings)),
		field("operationBindings", named(c.bindings)),
		field("messageBindings", named(c.bindings)),
	}
}

var asyncAPISecurityTypes = []string{
	"userPassword", "apiKey", "X509", "symmetricEncryption", "asymmetricEncryption",
	"httpApiKey", "http", "oauth2", "openIdConnect", "plain", "scramSha256", "scramSha512", "gssapi",
}

// asyncAPISecurityScheme lists every field and requires those each type
// needs; scopes is the OAuth flow's scope map (scopes in 2.x,
// availableScopes in 3.x).
func asyncAPISecurityScheme(t table, scopes string, extra ...entry) *object {
	flow := func(name string, urls ...string) *object {
		entries := []entry{field("refreshUrl", urlStr), field(scopes, mapOf(str)).required()}
		for _, u := range urls {
			entries = append(entries, field(u, urlStr).required())
		}
		return t.obj(name, entries...)
	}
	flows := t.obj("OAuth Flows object",
		field("implicit", flow("OAuth Flow object (implicit)", "authorizationUrl")),
		field("password", flow("OAuth Flow object (password)", "tokenUrl")),
		field("clientCredentials", flow("OAuth Flow object (clientCredentials)", "tokenUrl")),
		field("authorizationCode", flow("OAuth Flow object (authorizationCode)", "authorizationUrl", "tokenUrl")),
	)
	return t.obj("Security Scheme object", with([]entry{
		field("type", oneOf(asyncAPISecurityTypes...)).required(),
		field("description", str),
		field("name", str),
		field("in", oneOf("user", "password", "query", "header", "cookie")),
		field("scheme", str),
		field("bearerFormat", str),
		field("flows", flows),
		field("openIdConnectUrl", urlStr),
		check(requiredWhen("type", "apiKey", "in")),
		check(requiredWhen("type", "httpApiKey", "name", "in")),
		check(requiredWhen("type", "http", "scheme")),
		check(requiredWhen("type", "oauth2", "flows")),
		check(requiredWhen("type", "openIdConnect", "openIdConnectUrl")),
	}, extra)...)
}

// jsonSchemaFormat reports whether a message's schemaFormat is the
// AsyncAPI or JSON Schema dialect this package checks; payloads in other
// formats (Avro, RAML, Protobuf) are left alone.
func jsonSchemaFormat(f string) bool {
	return f == "" ||
		strings.HasPrefix(f, "application/vnd.aai.asyncapi") ||
		strings.HasPrefix(f, "application/schema+json") ||
		strings.HasPrefix(f, "application/schema+yaml")
}

func buildAsyncAPI2(t table) shape {
	c := asyncAPICommonObjects(t)
	schema := schemaAsync(t, c.externalDocs)
	securityReq := mapOf(listOf(str))
	securityReq.rules = []rule{declaredSchemes(false, "components", "securitySchemes")}
	tags := listOf(c.tag)
	traits := []entry{
		field("summary", str),
		field("description", str),
		field("tags", tags),
		field("externalDocs", c.externalDocs),
		field("bindings", c.bindings),
	}
	opTrait := t.obj("Operation Trait object", with(traits, []entry{
		field("operationId", str),
		field("security", listOf(securityReq)),
	})...)
	message := asyncAPI2Message(t, c, schema, traits)
	operation := t.obj("Operation object", with(traits, []entry{
		field("operationId", str),
		field("security", listOf(securityReq)),
		field("traits", listOf(ref(opTrait))),
		field("message", message),
		check(uniqueOperationID),
	})...)
	parameter := ref(t.obj("Parameter object",
		field("description", str),
		field("schema", schema),
		field("location", str),
	))
	channel := mergedRef(t.obj("Channel Item object",
		field("$ref", str),
		field("description", str),
		field("servers", listOf(str)),
		field("subscribe", operation),
		field("publish", operation),
		field("parameters", mapOf(parameter)),
		field("bindings", c.bindings),
	))
	server := ref(t.obj("Server object",
		field("url", str).required(),
		field("protocol", str).required(),
		field("protocolVersion", str),
		field("description", str),
		field("variables", mapOf(ref(c.serverVar))),
		field("security", listOf(securityReq)),
		field("tags", tags),
		field("bindings", c.bindings),
	))
	named := func(s shape) *object { return namedMap(s, componentKey) }
	components := t.obj("Components object", with([]entry{
		field("schemas", named(schema)),
		field("servers", named(server)),
		field("serverVariables", named(ref(c.serverVar))),
		field("channels", named(channel)),
		field("messages", named(message)),
		field("securitySchemes", named(ref(asyncAPISecurityScheme(t, "scopes")))),
		field("parameters", named(parameter)),
		field("correlationIds", named(ref(c.correlation))),
		field("operationTraits", named(ref(opTrait))),
		field("messageTraits", named(asyncAPI2MessageTrait(t, c, schema, traits))),
	}, c.bindingMaps(named))...)
	return t.obj("AsyncAPI object",
		field("asyncapi", versionField(`^2\.\d+\.\d+(-.+)?$`, "2.6.0")).required(),
		field("id", urlStr),
		field("info", t.obj("Info object", c.infoFields()...)).required(),
		field("servers", &object{name: "Servers object", entries: server}),
		field("defaultContentType", str),
		field("channels", &object{name: "Channels object", entries: channel}).required(),
		field("components", components),
		field("tags", tags),
		field("externalDocs", c.externalDocs),
	)
}

// messageFields are the fields a Message and a Message Trait share.
func messageFields(c *asyncAPICommon, schema shape, traits []entry) []entry {
	return with(traits, []entry{
		field("messageId", str),
		field("headers", schema),
		field("correlationId", ref(c.correlation)),
		field("schemaFormat", str),
		field("contentType", str),
		field("name", str),
		field("title", str),
		field("examples", listOf(&object{name: "Message Example object", fields: map[string]shape{
			"headers": mapOf(anyValue),
			"payload": anyValue,
			"name":    str,
			"summary": str,
		}})),
	})
}

func asyncAPI2MessageTrait(t table, c *asyncAPICommon, schema shape, traits []entry) shape {
	return ref(t.obj("Message Trait object", messageFields(c, schema, traits)...))
}

// asyncAPI2Message is a message position: a Message, a reference, or
// {oneOf: [...]} of those. The payload is checked as a schema only in the
// JSON Schema formats.
func asyncAPI2Message(t table, c *asyncAPICommon, schema shape, traits []entry) shape {
	fields := with(messageFields(c, schema, traits), []entry{
		field("traits", listOf(asyncAPI2MessageTrait(t, c, schema, traits))),
	})
	checked := t.obj("Message object", with(fields, []entry{field("payload", schema)})...)
	opaque := t.obj("Message object", with(fields, []entry{field("payload", anyValue)})...)
	oneOfMessages := &object{name: "Message object", fields: map[string]shape{}}
	pos := ref(&variant{pick: func(n *spec.Node) shape {
		switch {
		case n.Field("oneOf") != nil:
			return oneOfMessages
		case jsonSchemaFormat(n.GetStr("schemaFormat")):
			return checked
		}
		return opaque
	}})
	oneOfMessages.fields["oneOf"] = listOf(pos)
	return pos
}
