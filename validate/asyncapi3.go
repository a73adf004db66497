package validate

import (
	"sync"

	"github.com/specgate/specgate/spec"
)

// asyncAPI3 returns the model of AsyncAPI 3.x, built once. It is the table
// of 3.0; the fields of later 3.x minors this package does not know are
// only tolerated where the objects are open.
var asyncAPI3 = sync.OnceValue(func() shape { return buildAsyncAPI3(table{}) })

func buildAsyncAPI3(t table) shape {
	c := asyncAPICommonObjects(t)
	externalDocs := ref(c.externalDocs)
	tags := listOf(ref(c.tag))
	schema := asyncAPI3Schema(t, externalDocs)
	security := listOf(ref(asyncAPISecurityScheme(t, "availableScopes", field("scopes", listOf(str)))))
	described := []entry{
		field("title", str),
		field("summary", str),
		field("description", str),
		field("tags", tags),
		field("externalDocs", externalDocs),
		field("bindings", c.bindings),
	}
	server := ref(t.obj("Server object", with(described, []entry{
		field("host", str).required(),
		field("protocol", str).required(),
		field("protocolVersion", str),
		field("pathname", str),
		field("variables", mapOf(ref(c.serverVar))),
		field("security", security),
	})...))
	messageTrait := ref(t.obj("Message Trait object", asyncAPI3MessageFields(c, schema, described)...))
	message := ref(t.obj("Message object", with(asyncAPI3MessageFields(c, schema, described), []entry{
		field("payload", schema),
		field("traits", listOf(messageTrait)),
	})...))
	parameter := ref(t.obj("Parameter object",
		field("enum", listOf(str)),
		field("default", str),
		field("description", str),
		field("examples", listOf(str)),
		field("location", str),
	))
	channel := ref(t.obj("Channel object", with(described, []entry{
		field("address", eitherOf(str, null)),
		field("messages", mapOf(message)),
		field("servers", listOf(server)),
		field("parameters", mapOf(parameter)),
	})...))
	replyAddress := ref(t.obj("Operation Reply Address object",
		field("description", str),
		field("location", str).required(),
	))
	reply := ref(t.obj("Operation Reply object",
		field("address", replyAddress),
		field("channel", channel),
		field("messages", listOf(message)),
	))
	opTrait := ref(t.obj("Operation Trait object", with(described, []entry{
		field("security", security),
	})...))
	operation := ref(t.obj("Operation object", with(described, []entry{
		field("action", oneOf("send", "receive")).required(),
		field("channel", channel).required(),
		field("security", security),
		field("traits", listOf(opTrait)),
		field("messages", listOf(message)),
		field("reply", reply),
	})...))
	named := func(s shape) *object { return namedMap(s, componentKey) }
	components := t.obj("Components object", with([]entry{
		field("schemas", named(schema)),
		field("servers", named(server)),
		field("channels", named(channel)),
		field("operations", named(operation)),
		field("messages", named(message)),
		field("securitySchemes", named(security.elem)),
		field("serverVariables", named(ref(c.serverVar))),
		field("parameters", named(parameter)),
		field("correlationIds", named(ref(c.correlation))),
		field("replies", named(reply)),
		field("replyAddresses", named(replyAddress)),
		field("externalDocs", named(externalDocs)),
		field("tags", named(ref(c.tag))),
		field("operationTraits", named(opTrait)),
		field("messageTraits", named(messageTrait)),
	}, c.bindingMaps(named))...)
	return t.obj("AsyncAPI object",
		field("asyncapi", versionField(`^3\.\d+\.\d+(-.+)?$`, "3.0.0")).required(),
		field("id", urlStr),
		field("info", t.obj("Info object", c.infoFields(
			field("tags", tags),
			field("externalDocs", externalDocs),
		)...)).required(),
		field("servers", &object{name: "Servers object", entries: server}),
		field("defaultContentType", str),
		field("channels", &object{name: "Channels object", entries: channel}),
		field("operations", &object{name: "Operations object", entries: operation}),
		field("components", components),
	)
}

// asyncAPI3Schema is the position of a payload, headers or component
// schema: a Schema Object, a Multi Format Schema Object or a reference.
func asyncAPI3Schema(t table, externalDocs shape) shape {
	plain := schemaAsync(t, externalDocs).(*refOr)
	checked := t.obj("Multi Format Schema object",
		field("schemaFormat", str).required(),
		field("schema", plain).required(),
	)
	opaque := t.obj("Multi Format Schema object",
		field("schemaFormat", str).required(),
		field("schema", anyValue).required(),
	)
	return ref(&variant{pick: func(n *spec.Node) shape {
		switch {
		case n.Kind != spec.Object || n.Field("schemaFormat") == nil:
			return plain.target
		case jsonSchemaFormat(n.GetStr("schemaFormat")):
			return checked
		}
		return opaque
	}})
}

func asyncAPI3MessageFields(c *asyncAPICommon, schema shape, described []entry) []entry {
	return with(described, []entry{
		field("headers", schema),
		field("correlationId", ref(c.correlation)),
		field("contentType", str),
		field("name", str),
		field("examples", listOf(&object{name: "Message Example object", fields: map[string]shape{
			"headers": mapOf(anyValue),
			"payload": anyValue,
			"name":    str,
			"summary": str,
		}})),
	})
}
