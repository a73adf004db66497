package spec

import "strings"

// asyncapi builds the AsyncAPI views. Version 2 nests publish/subscribe
// operations in channels keyed by address; version 3 keys channels by id
// (with an address field) and lists operations separately, each naming its
// channel by $ref.
func (b *viewBuilder) asyncapi(root *Node) {
	comps := root.Get("components")
	b.namedSchemas(comps.Get("schemas"), Path{"components", "schemas"})
	b.securitySchemes(comps.Get("securitySchemes"), Path{"components", "securitySchemes"})
	each(comps.Get("messages"), func(name string, m *Node) {
		b.message(name, m, Path{"components", "messages", name})
	})
	each(root.Get("servers"), func(name string, raw *Node) {
		s := b.deref(raw)
		url := s.GetStr("url")
		if url == "" { // 3.x: host and pathname
			url = s.GetStr("host") + s.GetStr("pathname")
			if p := s.GetStr("protocol"); p != "" && url != "" {
				url = p + "://" + url
			}
		}
		b.v.Servers = append(b.v.Servers, &Server{URL: url, Description: s.GetStr("description"), Node: s, Source: Path{"servers", name}})
	})
	channels := map[*Node]*Channel{}
	each(root.Get("channels"), func(key string, raw *Node) {
		n := b.deref(raw)
		src := Path{"channels", key}
		ch := &Channel{ID: key, Address: key, Node: n, Source: src}
		if b.d.Major >= 3 {
			ch.Address = n.GetStr("address")
			each(n.Get("messages"), func(name string, m *Node) {
				ch.Messages = append(ch.Messages, b.message(name, m, src.with("messages", name)))
			})
		} else {
			for _, action := range []string{"publish", "subscribe"} {
				if op := n.Get(action); op != nil {
					b.asyncOp2(ch, action, b.deref(op), src.with(action))
				}
			}
		}
		channels[n] = ch
		b.v.Channels = append(b.v.Channels, ch)
	})
	if b.d.Major >= 3 {
		each(root.Get("operations"), func(id string, raw *Node) {
			b.asyncOp3(id, b.deref(raw), Path{"operations", id}, channels)
		})
		// 3.x moved the document's tag list under info.
		b.tags(root.Get("info").Get("tags"), Path{"info", "tags"})
	}
}

func (b *viewBuilder) asyncOp2(ch *Channel, action string, n *Node, src Path) {
	op := &AsyncOperation{ID: n.GetStr("operationId"), Action: action, Channel: ch.ID,
		Summary: n.GetStr("summary"), Description: n.GetStr("description"), Node: n, Source: src}
	op.Security = b.security(n.Get("security"), src.with("security"))
	if m := n.Get("message"); m != nil {
		md := b.deref(m)
		if alts := md.Get("oneOf"); alts != nil && alts.Kind == Array {
			for i, it := range alts.Items {
				op.Messages = append(op.Messages, b.message("", it, src.with("message", "oneOf", i)))
			}
		} else {
			op.Messages = append(op.Messages, b.message("", m, src.with("message")))
		}
	}
	ch.Messages = append(ch.Messages, op.Messages...)
	b.v.AsyncOperations = append(b.v.AsyncOperations, op)
}

func (b *viewBuilder) asyncOp3(id string, n *Node, src Path, channels map[*Node]*Channel) {
	op := &AsyncOperation{ID: id, Action: n.GetStr("action"), Summary: n.GetStr("summary"),
		Description: n.GetStr("description"), Node: n, Source: src}
	if c := n.Get("channel"); c != nil {
		if ch := channels[b.deref(c)]; ch != nil {
			op.Channel = ch.ID
		} else {
			op.Channel = strings.TrimPrefix(c.Ref(), "#/channels/")
		}
	}
	op.Security = b.schemeList(n.Get("security"), src.with("security"))
	if ms := n.Get("messages"); ms != nil && ms.Kind == Array {
		for i, m := range ms.Items {
			op.Messages = append(op.Messages, b.message("", m, src.with("messages", i)))
		}
	}
	b.v.AsyncOperations = append(b.v.AsyncOperations, op)
}

// schemeList reads a 3.x security list: each item is a Security Scheme
// (usually a $ref to one) and satisfying any one of them is enough, so
// each is an alternative of its own. A scheme is named by its key under
// components.securitySchemes when reached through a $ref, else "", and
// requires the scopes its `scopes` field lists.
func (b *viewBuilder) schemeList(n *Node, src Path) *Security {
	if n == nil || n.Kind != Array {
		return nil
	}
	s := &Security{Source: src, Alternatives: []SecurityAlternative{}}
	for i, it := range n.Items {
		name := ""
		if ref := it.Ref(); ref != "" {
			name = refName(ref)
		}
		scopes := strList(b.deref(it).Get("scopes"))
		s.Alternatives = append(s.Alternatives, SecurityAlternative{Source: src.with(i), Schemes: []SchemeScopes{{Name: name, Scopes: scopes}}})
	}
	return s
}

// refName is the last segment of a $ref, unescaped: the component name of
// "#/components/messages/a~1b" is "a/b".
func refName(ref string) string {
	return pointerUnescaper.Replace(ref[strings.LastIndex(ref, "/")+1:])
}

// message registers a message once (by its dereferenced node) and returns
// it; a message reached again through another $ref keeps its first path.
func (b *viewBuilder) message(name string, raw *Node, src Path) *Message {
	n := b.deref(raw)
	if m := b.seenMessage[n]; m != nil {
		return m
	}
	if name == "" {
		name = n.GetStr("name")
	}
	if name == "" {
		if ref := raw.Ref(); ref != "" {
			name = refName(ref)
		}
	}
	m := &Message{Name: name, Node: n, Source: src}
	if p := n.Get("payload"); p != nil {
		m.PayloadSource = src.with("payload")
		// A 3.x multi-format schema wraps the schema in {schemaFormat, schema}.
		if w := b.deref(p); w.Get("schemaFormat") != nil && w.Get("schema") != nil {
			p, m.PayloadSource = w.Get("schema"), src.with("payload", "schema")
		}
		m.Payload = b.deref(p)
		b.schema(p, m.PayloadSource)
	}
	if h := n.Get("headers"); h != nil {
		b.schema(h, src.with("headers"))
	}
	b.seenMessage[n] = m
	b.v.Messages = append(b.v.Messages, m)
	return m
}
