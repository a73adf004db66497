package compat

import (
	"github.com/specgate/specgate/spec"
)

// asyncapi pairs AsyncAPI channels (by address), operations and their
// messages, and diffs message payloads and headers. AsyncAPI 2 and 3 pair
// with each other: 2.x publish (consumers publish, the API receives) is
// 3.x receive, and subscribe is send.
func (d *differ) asyncapi() {
	bv, rv := d.base.Views(), d.rev.Views()
	chans := func(v *spec.Views) []keyed[spec.Channel] {
		out := make([]keyed[spec.Channel], len(v.Channels))
		for i, ch := range v.Channels {
			out[i] = keyed[spec.Channel]{channelName(ch), ch}
		}
		return out
	}
	top := scope{at: [2]spec.Path{Revision: {"channels"}, Base: {"channels"}}}
	pair(chans(bv), chans(rv), func(b, r *spec.Channel) {
		sc := top.within(sources(b, r, func(c *spec.Channel) spec.Path { return c.Source }))
		sc.ops = []string{"channel " + channelName(either(b, r))}
		d.run(sc, func(r *Rule) bool { return r.Channel != nil }, func(c *Check) { c.rule.Channel(c, b, r) })
	})
	byID := d.base.Major >= 3 && d.rev.Major >= 3
	ops := func(v *spec.Views) []keyed[spec.AsyncOperation] {
		address := map[string]string{}
		for _, ch := range v.Channels {
			address[ch.ID] = channelName(ch)
		}
		out := make([]keyed[spec.AsyncOperation], len(v.AsyncOperations))
		for i, op := range v.AsyncOperations {
			key := op.ID
			if !byID {
				key = apiAction(op.Action) + " " + address[op.Channel]
			}
			out[i] = keyed[spec.AsyncOperation]{key, op}
		}
		return out
	}
	pair(ops(bv), ops(rv), func(b, r *spec.AsyncOperation) {
		dir := Request
		if apiAction(either(b, r).Action) == "send" {
			dir = Response
		}
		sc := scope{ops: []string{asyncLabel(either(b, r))}, dir: dir, at: [2]spec.Path{Revision: opsAt(d.rev), Base: opsAt(d.base)}}
		sc = sc.within(sources(b, r, func(o *spec.AsyncOperation) spec.Path { return o.Source }))
		d.run(sc, func(r *Rule) bool { return r.AsyncOperation != nil }, func(c *Check) { c.rule.AsyncOperation(c, b, r) })
		if b != nil && r != nil && apiAction(b.Action) == apiAction(r.Action) {
			d.messages(sc.under(b.Source, b.Node, r.Source, r.Node, "messages", "message"), opMessages(d.base, b), opMessages(d.rev, r))
		}
	})
}

// opsAt is where a document lists its operations: AsyncAPI 3 under
// operations, 2.x within the channels.
func opsAt(doc *spec.Document) spec.Path {
	if doc.Major >= 3 {
		return spec.Path{"operations"}
	}
	return spec.Path{"channels"}
}

// apiAction names what the API does in an operation: 2.x publish means
// consumers publish and the API receives.
func apiAction(action string) string {
	switch action {
	case "publish", "receive":
		return "receive"
	case "subscribe", "send":
		return "send"
	}
	return action
}

// messages pairs the messages of two operations by name; two operations
// with one message each pair those, whatever their names.
func (d *differ) messages(sc scope, base, rev []*spec.Message) {
	key := func(ms []*spec.Message) []keyed[spec.Message] {
		out := make([]keyed[spec.Message], len(ms))
		for i, m := range ms {
			out[i] = keyed[spec.Message]{m.Name, m}
			if len(base) == 1 && len(rev) == 1 {
				out[i].key = ""
			}
		}
		return out
	}
	pair(key(base), key(rev), func(b, r *spec.Message) {
		sc := sc.within(sources(b, r, func(m *spec.Message) spec.Path { return m.Source }))
		d.run(sc, func(r *Rule) bool { return r.Message != nil }, func(c *Check) { c.rule.Message(c, b, r) })
		if b == nil || r == nil {
			return
		}
		if b.Payload != nil && r.Payload != nil {
			d.schemas.compare(sc, b.Payload, b.PayloadSource, r.Payload, r.PayloadSource, false)
		}
		if bh, rh := b.Node.Get("headers"), r.Node.Get("headers"); bh != nil && rh != nil {
			d.schemas.compare(sc, bh, join(b.Source, spec.Path{"headers"}), rh, join(r.Source, spec.Path{"headers"}), false)
		}
	})
}

// opMessages returns the messages of an operation located where the
// operation lists them (a message's own Source is where it was first met,
// often under components), so that a message removed from one operation is
// shown there.
//
// An AsyncAPI 3 operation that lists no messages carries every message of
// its channel.
func opMessages(doc *spec.Document, op *spec.AsyncOperation) []*spec.Message {
	if doc.Major >= 3 && op.Node.Get("messages") == nil {
		for _, ch := range doc.Views().Channels {
			if ch.ID == op.Channel {
				return ch.Messages
			}
		}
	}
	at := func(i int) spec.Path {
		if list := op.Node.Get("messages"); list != nil && list.Kind == spec.Array {
			return join(op.Source, spec.Path{"messages", i})
		}
		if alts := doc.Deref(op.Node.Get("message")).Get("oneOf"); alts != nil && alts.Kind == spec.Array {
			return join(op.Source, spec.Path{"message", "oneOf", i})
		}
		return join(op.Source, spec.Path{"message"})
	}
	out := make([]*spec.Message, len(op.Messages))
	for i, m := range op.Messages {
		local := *m
		local.Source = at(i)
		out[i] = &local
	}
	return out
}
