package validate

import "sync"

// arazzo returns the model of Arazzo: only the top level is checked, since
// specgate reads Arazzo documents but does not govern workflows yet.
var arazzo = sync.OnceValue(func() shape {
	t := table{}
	return t.obj("Arazzo object",
		field("arazzo", versionField(`^1\.\d+\.\d+(-.+)?$`, "1.0.1")).required(),
		field("info", openObject).required(),
		field("sourceDescriptions", listOf(openObject)).required(),
		field("workflows", listOf(openObject)).required(),
		field("components", openObject),
	)
})
