package compat

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/proto"
)

// protoRules follow the FILE category of buf breaking, buf's default: the
// changes that break code generated from the entry file as well as those
// that break the wire (binary) or JSON encoding. Fields and enum values
// are paired by number, as on the wire; messages, enums, services and
// RPCs by name. A field or enum value removed with its number and name
// reserved breaks only the code that used it, and is a warning (buf's
// FILE category counts it breaking; its WIRE_JSON category does not).
var protoRules = []*Rule{
	{ID: "proto-package-changed", Level: Breaking,
		Summary: "the file's package changed",
		Why:     "every type and service is renamed: clients call methods under the old names and generated code moves"},
	{ID: "proto-syntax-changed", Level: Breaking,
		Summary: "the file's syntax or edition changed",
		Why:     "field presence, enum openness and defaults may change for every element, in generated code and on the wire"},
	{ID: "proto-file-option-changed", Level: Breaking,
		Summary: "a file option that places generated code changed (go_package, java_package, csharp_namespace, …)",
		Why:     "generated code moves to another package or class: code that imports it no longer compiles"},
	{ID: "proto-message-removed", Level: Breaking,
		Summary: "a message the base has is missing from the revision",
		Why:     "code that uses it no longer compiles, and fields or RPCs that referred to it are gone"},
	{ID: "proto-field-removed", Level: Breaking,
		Summary: "a field was removed without reserving its number and name",
		Why:     "code that uses it no longer compiles, and a later field may reuse the number and misread old data"},
	{ID: "proto-field-removed-reserved", Level: Warning,
		Summary: "a field was removed and its number and name reserved",
		Why:     "the wire and JSON stay compatible, but code that used the field no longer compiles"},
	{ID: "proto-field-number-changed", Level: Breaking,
		Summary: "a field kept its name but changed its number",
		Why:     "old and new peers write and read the value under different numbers: it is lost on the wire"},
	{ID: "proto-field-renamed", Level: Breaking,
		Summary: "the field of a number has another name",
		Why:     "generated accessors and the JSON name change: code and JSON clients break"},
	{ID: "proto-field-json-name-changed", Level: Breaking,
		Summary: "a field's JSON name changed",
		Why:     "JSON clients write and read the value under the old name"},
	{ID: "proto-field-type-changed", Level: Breaking,
		Summary: "a field's type changed",
		Why:     "old peers decode the value as the old type: garbage or a parse error, and generated code changes type"},
	{ID: "proto-field-cardinality-changed", Level: Breaking,
		Summary: "a field's cardinality changed (optional, implicit, required, repeated, map)",
		Why:     "presence, repetition or requiredness changes on the wire and in generated code"},
	{ID: "proto-field-oneof-changed", Level: Breaking,
		Summary: "a field moved into, out of, or between oneofs",
		Why:     "setting one member clears the others: values that coexisted now erase each other, and generated code changes"},
	{ID: "proto-field-default-changed", Level: Breaking,
		Summary: "a field's default value changed",
		Why:     "an unset field reads differently on old and new peers"},
	{ID: "proto-field-option-changed", Level: Breaking,
		Summary: "a field option that changes generated code or encoding changed (jstype, ctype, packed, UTF-8 validation)",
		Why:     "generated code changes type, or peers encode or validate the field differently"},
	{ID: "proto-required-fields-changed", Level: Breaking,
		Summary: "a required field was added or removed",
		Why:     "old peers reject messages that lack a field they require; new ones reject those old peers send"},
	{ID: "proto-oneof-removed", Level: Breaking,
		Summary: "a oneof the base has is missing from the revision",
		Why:     "code that uses its case accessors no longer compiles"},
	{ID: "proto-reserved-removed", Level: Breaking,
		Summary: "a reserved number or name is no longer reserved",
		Why:     "a later field or value may reuse it and misread data written with the old meaning"},
	{ID: "proto-extension-range-removed", Level: Breaking,
		Summary: "an extension range of a message was removed or narrowed",
		Why:     "extensions others declared in it no longer compile"},
	{ID: "proto-message-option-changed", Level: Breaking,
		Summary: "a message option that changes its encoding or generated code changed (message_set_wire_format, no_standard_descriptor_accessor, JSON format)",
		Why:     "peers encode the message differently, or generated accessors disappear"},
	{ID: "proto-enum-removed", Level: Breaking,
		Summary: "an enum the base has is missing from the revision",
		Why:     "code that uses it no longer compiles, and fields that referred to it are gone"},
	{ID: "proto-enum-value-removed", Level: Breaking,
		Summary: "an enum value was removed without reserving its number and name",
		Why:     "code that uses it no longer compiles, old data holds a number the enum no longer names, and a later value may reuse it"},
	{ID: "proto-enum-value-removed-reserved", Level: Warning,
		Summary: "an enum value was removed and its number and name reserved",
		Why:     "the wire and JSON stay compatible, but code that used the value no longer compiles"},
	{ID: "proto-enum-value-renamed", Level: Breaking,
		Summary: "the enum value of a number has another name",
		Why:     "JSON carries enum values by name, and generated constants change"},
	{ID: "proto-enum-type-changed", Level: Breaking,
		Summary: "an enum changed between open and closed",
		Why:     "unknown values are kept by an open enum and moved to unknown fields by a closed one: peers disagree on what a field holds"},
	{ID: "proto-service-removed", Level: Breaking,
		Summary: "a service the base has is missing from the revision",
		Why:     "every call of its RPCs fails with UNIMPLEMENTED"},
	{ID: "proto-rpc-removed", Level: Breaking,
		Summary: "an RPC the base has is missing from the revision",
		Why:     "calls of it fail with UNIMPLEMENTED"},
	{ID: "proto-rpc-request-changed", Level: Breaking,
		Summary: "an RPC's request type changed",
		Why:     "clients send the old message, which the server decodes as the new one"},
	{ID: "proto-rpc-response-changed", Level: Breaking,
		Summary: "an RPC's response type changed",
		Why:     "clients decode the new message as the old one"},
	{ID: "proto-rpc-streaming-changed", Level: Breaking,
		Summary: "an RPC's client or server streaming changed",
		Why:     "the call's shape changes: generated stubs and the gRPC protocol differ between unary and streaming"},
	{ID: "proto-rpc-idempotency-changed", Level: Breaking,
		Summary: "an RPC's idempotency_level changed",
		Why:     "clients choose GET or retries from it: calls are sent or retried as the server no longer expects"},
	{ID: "proto-extension-removed", Level: Breaking,
		Summary: "an extension the base declares is missing from the revision",
		Why:     "code that sets or reads it no longer compiles"},
	{ID: "proto-element-added", Level: Info,
		Summary: "a message, field, enum, enum value, service or RPC was added",
		Why:     "consumers can ignore it; they gain it when they update"},
}

// codeOptions are the file options that place generated code (buf's
// FILE_SAME_*_OPTION rules).
var codeOptions = []string{"go_package", "java_package", "java_multiple_files", "java_outer_classname", "java_generic_services",
	"csharp_namespace", "objc_class_prefix", "php_class_prefix", "php_namespace", "php_metadata_namespace", "ruby_package",
	"swift_prefix", "optimize_for", "cc_enable_arenas", "cc_generic_services", "py_generic_services"}

// optionDefaults are the values of file options left unset (buf compares
// what they mean, so writing a default or removing one is no change).
var optionDefaults = map[string]string{"cc_enable_arenas": "true", "java_multiple_files": "false", "java_generic_services": "false",
	"cc_generic_services": "false", "py_generic_services": "false", "optimize_for": "SPEED"}

func effectiveOption(f *proto.File, opt string) string {
	if v, ok := f.Options[opt]; ok {
		return v
	}
	return optionDefaults[opt]
}

// protoDiff compares the entry files of two Protocol Buffers documents.
type protoDiff struct {
	md        *modelDiff
	bs, rs    *proto.Schema
	bf, rf    *proto.File
	renamed   bool                // the package changed: elements pair by their names within it
	users     map[string][]string // message or enum full name (base) → RPCs that reach it
	revUsers  map[string][]string
	bpkg, rpk string
}

func (md *modelDiff) proto() {
	bs, rs := proto.Of(md.base), proto.Of(md.rev)
	if bs == nil || rs == nil {
		return
	}
	d := &protoDiff{md: md, bs: bs, rs: rs, bf: bs.Entry, rf: rs.Entry, bpkg: bs.Entry.Package, rpk: rs.Entry.Package}
	d.users, d.revUsers = rpcUsers(bs), rpcUsers(rs)
	d.file()
}

// rel is a full name relative to its file's package, the key that pairs
// elements when the package was renamed.
func (d *protoDiff) rel(full string, base bool) string {
	pkg := d.rpk
	if base {
		pkg = d.bpkg
	}
	if pkg != "" && strings.HasPrefix(full, pkg+".") {
		return full[len(pkg)+1:]
	}
	return full
}

// sameType reports whether two type references name the same type: the
// same full name, or the same name within each side's package.
func (d *protoDiff) sameType(b, r string) bool {
	return b == r || (d.renamed && d.rel(b, true) == d.rel(r, false))
}

// rpcUsers maps each message and enum to the RPCs of the schema whose
// request or response reaches it through fields.
func rpcUsers(s *proto.Schema) map[string][]string {
	users := map[string][]string{}
	for _, f := range s.Files {
		for _, svc := range f.Services {
			for _, m := range svc.Methods {
				label := "rpc " + svc.FullName + "/" + m.Name
				seen := map[string]bool{}
				var walk func(name string)
				walk = func(name string) {
					if name == "" || seen[name] {
						return
					}
					seen[name] = true
					users[name] = append(users[name], label)
					if msg := s.Message(name); msg != nil {
						for _, fl := range msg.Fields {
							walk(fl.TypeName)
							if fl.Map != nil {
								walk(fl.Map.ValueName)
							}
						}
					}
				}
				walk(m.Input)
				walk(m.Output)
			}
		}
	}
	return users
}

// ops names what a change to an element affects: the RPCs that reach it,
// else the element itself.
func (d *protoDiff) ops(kind, full string, base bool) []string {
	users := d.revUsers
	if base {
		users = d.users
	}
	if u := users[full]; len(u) > 0 {
		return u
	}
	return []string{kind + " " + full}
}

// report adds a change of the entry files, written at own in the version
// of side and placed at other in the other version.
func (d *protoDiff) report(id string, side Side, own, other spec.Path, ops []string, format string, args ...any) {
	ownFile, otherFile := d.rf.Name, d.bf.Name
	if side == Base {
		ownFile, otherFile = otherFile, ownFile
	}
	d.md.report(id, side, site{ownFile, own}, site{otherFile, other}, ops, format, args...)
}

// orPackage is where the other version places a top-level element it
// lacks: its file's package statement (the file itself without one); a
// nested element is placed by its path, cut back to its parent.
func (d *protoDiff) orPackage(path spec.Path, side Side) spec.Path {
	if len(path) > 2 {
		return path
	}
	if side == Base {
		return d.bf.Source
	}
	return d.rf.Source
}

// optionPath is where a file writes a file option: the option, else its
// other options, else its package statement.
func optionPath(f *proto.File, opt string) spec.Path {
	if _, ok := f.Options[opt]; ok {
		return spec.Path{"options", opt}
	}
	if len(f.Options) > 0 {
		return spec.Path{"options"}
	}
	return f.Source
}

func (d *protoDiff) file() {
	bf, rf := d.bf, d.rf
	if bf.Package != rf.Package {
		d.renamed = true
		d.report("proto-package-changed", Revision, rf.Source, bf.Source, []string{"package " + bf.Package},
			"package %s became %s", orNone(bf.Package), orNone(rf.Package))
	}
	if bf.Syntax != rf.Syntax || bf.Edition != rf.Edition {
		d.report("proto-syntax-changed", Revision, syntaxPath(rf), syntaxPath(bf), []string{"file " + rf.Path},
			"syntax %s became %s", syntaxName(bf), syntaxName(rf))
	}
	for _, opt := range codeOptions {
		if bv, rv := effectiveOption(bf, opt), effectiveOption(rf, opt); bv != rv {
			path, basePath := optionPath(rf, opt), optionPath(bf, opt)
			d.report("proto-file-option-changed", Revision, path, basePath, []string{"file " + rf.Path},
				"file option %s changed from %s to %s", opt, quoteOrUnset(bv, bf.Options, opt), quoteOrUnset(rv, rf.Options, opt))
		}
	}
	pairTypes(d, bf.AllMessages, rf.AllMessages, "message", "proto-message-removed",
		func(m *proto.Message) (string, spec.Path) { return m.FullName, m.Source }, d.message)
	pairTypes(d, bf.AllEnums, rf.AllEnums, "enum", "proto-enum-removed",
		func(e *proto.Enum) (string, spec.Path) { return e.FullName, e.Source }, d.enum)
	pairByKey(bf.Services, rf.Services, func(s *proto.Service) string { return s.Name }, nil, func(b, r *proto.Service, hasB, hasR bool) {
		switch {
		case !hasR:
			var rpcs []string
			for _, m := range b.Methods {
				rpcs = append(rpcs, "rpc "+b.FullName+"/"+m.Name)
			}
			if len(rpcs) == 0 {
				rpcs = []string{"service " + b.FullName}
			}
			d.report("proto-service-removed", Base, b.Source, d.orPackage(b.Source, Revision), rpcs, "service %s was removed", b.FullName)
		case !hasB:
			d.report("proto-element-added", Revision, r.Source, d.orPackage(r.Source, Base), []string{"service " + r.FullName}, "service %s was added", r.FullName)
		default:
			d.service(b, r)
		}
	})
	pairByKey(bf.Extensions, rf.Extensions, func(f *proto.Field) string { return d.rel(f.Extendee, true) + "/" + strconv.Itoa(int(f.Number)) },
		func(f *proto.Field) string { return d.rel(f.Extendee, false) + "/" + strconv.Itoa(int(f.Number)) }, func(b, r *proto.Field, hasB, hasR bool) {
			if !hasR {
				d.report("proto-extension-removed", Base, b.Source, d.orPackage(b.Source, Revision), []string{"extension " + b.FullName}, "extension %s (%d) of %s was removed", b.FullName, b.Number, b.Extendee)
			}
		})
}

// pairTypes pairs the messages or enums (kind) of two files by name
// relative to their package: one the revision lacks is reported under the
// rule removed, one the base lacks as an element added, and a pair is
// compared by both. at gives an element's full name and place.
func pairTypes[T any](d *protoDiff, base, rev []T, kind, removed string, at func(T) (string, spec.Path), both func(b, r T)) {
	key := func(isBase bool) func(T) string {
		return func(t T) string {
			name, _ := at(t)
			return d.rel(name, isBase)
		}
	}
	pairByKey(base, rev, key(true), key(false), func(b, r T, hasB, hasR bool) {
		switch {
		case !hasR:
			name, src := at(b)
			d.report(removed, Base, src, d.orPackage(src, Revision), d.ops(kind, name, true), "%s %s was removed", kind, name)
		case !hasB:
			name, src := at(r)
			d.report("proto-element-added", Revision, src, d.orPackage(src, Base), []string{kind + " " + name}, "%s %s was added", kind, name)
		default:
			both(b, r)
		}
	})
}

func (d *protoDiff) message(b, r *proto.Message) {
	ops := d.ops("message", b.FullName, true)
	// Fields pair by number, as on the wire.
	byName := map[string]*proto.Field{}
	for _, f := range r.Fields {
		byName[f.Name] = f
	}
	for _, bfld := range b.Fields {
		rfld := r.Field(bfld.Number)
		if rfld == nil {
			switch moved := byName[bfld.Name]; {
			case moved != nil:
				d.report("proto-field-number-changed", Revision, moved.Source, bfld.Source, ops,
					"field %s of %s changed its number from %d to %d", bfld.Name, r.FullName, bfld.Number, moved.Number)
			case r.Reserved(bfld.Number) && r.ReservedName(bfld.Name):
				d.report("proto-field-removed-reserved", Base, bfld.Source, bfld.Source, ops,
					"field %s (%d) of %s was removed; its number and name are reserved", bfld.Name, bfld.Number, b.FullName)
			default:
				d.report("proto-field-removed", Base, bfld.Source, bfld.Source, ops,
					"field %s (%d) of %s was removed%s", bfld.Name, bfld.Number, b.FullName, reservation(r, bfld))
			}
			if bfld.Cardinality(d.bf.Syntax) == "required" {
				d.report("proto-required-fields-changed", Base, bfld.Source, bfld.Source, ops, "required field %s of %s was removed", bfld.Name, b.FullName)
			}
			continue
		}
		d.field(b, bfld, rfld, ops)
	}
	for _, rfld := range r.Fields {
		if b.Field(rfld.Number) != nil {
			continue
		}
		if old := byNameOf(b, rfld.Name); old != nil && r.Field(old.Number) == nil {
			continue // reported as a changed number
		}
		if rfld.Cardinality(d.rf.Syntax) == "required" {
			d.report("proto-required-fields-changed", Revision, rfld.Source, rfld.Source, ops, "required field %s was added to %s", rfld.Name, r.FullName)
		} else {
			d.report("proto-element-added", Revision, rfld.Source, rfld.Source, d.ops("message", r.FullName, false), "field %s (%d) was added to %s", rfld.Name, rfld.Number, r.FullName)
		}
	}
	pairByKey(b.Oneofs, r.Oneofs, func(o *proto.Oneof) string { return o.Name }, nil, func(bo, ro *proto.Oneof, hasB, hasR bool) {
		if !hasR {
			d.report("proto-oneof-removed", Base, bo.Source, bo.Source, ops, "oneof %s of %s was removed", bo.Name, b.FullName)
		}
	})
	d.reservedRemoved(ops, b.ReservedRanges, b.ReservedNames, b.Source, r.FullName, r.Source, r.Reserved, r.ReservedNames)
	for _, rg := range b.ExtensionRanges {
		covered := false
		for _, rr := range r.ExtensionRanges {
			if rr.Start <= rg.Start && rr.End >= rg.End {
				covered = true
			}
		}
		if !covered {
			d.report("proto-extension-range-removed", Revision, r.Source, b.Source, ops, "%s no longer has the extension range %s", r.FullName, rangeText(rg))
		}
	}
	if (b.Options["message_set_wire_format"] == "true") != (r.Options["message_set_wire_format"] == "true") {
		d.report("proto-message-option-changed", Revision, r.Source, b.Source, ops, "%s %s the MessageSet wire format", r.FullName, startsOrStops(r.Options["message_set_wire_format"] == "true"))
	}
	for _, opt := range []string{"features.message_encoding", "features.json_format"} {
		if b.Options[opt] != r.Options[opt] {
			d.report("proto-message-option-changed", Revision, r.Source, b.Source, ops, "option %s of %s changed from %s to %s", opt, r.FullName, quoteOrUnset(b.Options[opt], b.Options, opt), quoteOrUnset(r.Options[opt], r.Options, opt))
		}
	}
	if b.Options["no_standard_descriptor_accessor"] != "true" && r.Options["no_standard_descriptor_accessor"] == "true" {
		d.report("proto-message-option-changed", Revision, r.Source, b.Source, ops, "%s set no_standard_descriptor_accessor", r.FullName)
	}
}

func byNameOf(m *proto.Message, name string) *proto.Field {
	for _, f := range m.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func reservation(r *proto.Message, f *proto.Field) string {
	switch {
	case r.Reserved(f.Number):
		return fmt.Sprintf(" (its number is reserved, its name %q is not)", f.Name)
	case r.ReservedName(f.Name):
		return fmt.Sprintf(" (its name is reserved, its number %d is not)", f.Number)
	}
	return " without reserving its number and name"
}

func (d *protoDiff) field(m *proto.Message, b, r *proto.Field, ops []string) {
	full := m.FullName + "." + r.Name
	if b.Name != r.Name {
		d.report("proto-field-renamed", Revision, r.Source, b.Source, ops, "field %d of %s was renamed from %s to %s", r.Number, m.FullName, b.Name, r.Name)
	}
	if b.JSONName != r.JSONName && (b.JSONNameSet || r.JSONNameSet) {
		d.report("proto-field-json-name-changed", Revision, r.Source, b.Source, ops, "the JSON name of %s changed from %q to %q", full, b.JSONName, r.JSONName)
	}
	bt, rt := b.TypeString(), r.TypeString()
	sameType := d.sameType(bt, rt)
	if b.Map != nil && r.Map != nil {
		sameType = b.Map.Key == r.Map.Key && b.Map.Value == r.Map.Value && d.sameType(b.Map.ValueName, r.Map.ValueName)
	}
	if !sameType {
		d.report("proto-field-type-changed", Revision, r.Source.With("type"), b.Source.With("type"), ops, "the type of %s changed from %s to %s", full, bt, rt)
	}
	if bc, rc := b.Cardinality(d.bf.Syntax), r.Cardinality(d.rf.Syntax); bc != rc && sameType {
		d.report("proto-field-cardinality-changed", Revision, r.Source, b.Source, ops, "the cardinality of %s changed from %s to %s", full, bc, rc)
		if bc == "required" || rc == "required" {
			d.report("proto-required-fields-changed", Revision, r.Source, b.Source, ops, "%s is %s required", full, map[bool]string{true: "now", false: "no longer"}[rc == "required"])
		}
	}
	if b.Oneof != r.Oneof {
		d.report("proto-field-oneof-changed", Revision, r.Source, b.Source, ops, "%s moved from %s to %s", full, oneofName(b.Oneof), oneofName(r.Oneof))
	}
	if b.HasDefault != r.HasDefault || b.Default != r.Default {
		d.report("proto-field-default-changed", Revision, r.Source, b.Source, ops, "the default of %s changed from %s to %s", full, defaultText(b), defaultText(r))
	}
	for _, opt := range []string{"jstype", "ctype", "features.utf8_validation", "features.(pb.cpp).string_type", "features.(pb.java).utf8_validation"} {
		if b.Options[opt] != r.Options[opt] {
			d.report("proto-field-option-changed", Revision, r.Source, b.Source, ops, "option %s of %s changed from %s to %s", opt, full, quoteOrUnset(b.Options[opt], b.Options, opt), quoteOrUnset(r.Options[opt], r.Options, opt))
		}
	}
}

func (d *protoDiff) enum(b, r *proto.Enum) {
	ops := d.ops("enum", b.FullName, true)
	names := func(e *proto.Enum, n int32) []string {
		var out []string
		for _, v := range e.Values {
			if v.Number == n {
				out = append(out, v.Name)
			}
		}
		return out
	}
	byName := map[string]*proto.EnumValue{}
	for _, v := range r.Values {
		byName[v.Name] = v
	}
	for _, bv := range b.Values {
		rv := r.Value(bv.Number)
		switch {
		case rv == nil && byName[bv.Name] != nil:
			d.report("proto-field-number-changed", Revision, byName[bv.Name].Source, bv.Source, ops, "enum value %s of %s changed its number from %d to %d", bv.Name, r.FullName, bv.Number, byName[bv.Name].Number)
		case rv == nil && r.Reserved(bv.Number) && slices.Contains(r.ReservedNames, bv.Name):
			d.report("proto-enum-value-removed-reserved", Base, bv.Source, bv.Source, ops, "enum value %s (%d) of %s was removed; its number and name are reserved", bv.Name, bv.Number, b.FullName)
		case rv == nil:
			d.report("proto-enum-value-removed", Base, bv.Source, bv.Source, ops, "enum value %s (%d) of %s was removed", bv.Name, bv.Number, b.FullName)
		case !slices.Contains(names(r, bv.Number), bv.Name):
			d.report("proto-enum-value-renamed", Revision, rv.Source, bv.Source, ops, "enum value %d of %s was renamed from %s to %s", bv.Number, r.FullName, bv.Name, strings.Join(names(r, bv.Number), ", "))
		}
	}
	baseNames := map[string]bool{}
	for _, bv := range b.Values {
		baseNames[bv.Name] = true
	}
	for _, rv := range r.Values {
		if b.Value(rv.Number) == nil && !baseNames[rv.Name] {
			d.report("proto-element-added", Revision, rv.Source, rv.Source, d.ops("enum", r.FullName, false), "enum value %s (%d) was added to %s", rv.Name, rv.Number, r.FullName)
		}
	}
	if b.Closed != r.Closed {
		d.report("proto-enum-type-changed", Revision, r.Source, b.Source, ops, "enum %s changed from %s to %s", r.FullName, openness(b.Closed), openness(r.Closed))
	}
	d.reservedRemoved(ops, b.ReservedRanges, b.ReservedNames, b.Source, r.FullName, r.Source, r.Reserved, r.ReservedNames)
}

// reservedRemoved reports each number range and name a message or enum of
// the base reserves (bRanges, bNames, at bSrc) that its revision (full, at
// rSrc, whose numbers rReserved tells and names rNames lists) no longer does.
func (d *protoDiff) reservedRemoved(ops []string, bRanges []proto.Range, bNames []string, bSrc spec.Path,
	full string, rSrc spec.Path, rReserved func(int32) bool, rNames []string) {
	for _, rg := range bRanges {
		for n := rg.Start; n <= rg.End && n-rg.Start < 1<<16; n++ {
			if !rReserved(n) {
				d.report("proto-reserved-removed", Revision, rSrc, bSrc.With("reserved"), ops, "%s no longer reserves %s", full, rangeText(rg))
				break
			}
		}
	}
	for _, name := range bNames {
		if !slices.Contains(rNames, name) {
			d.report("proto-reserved-removed", Revision, rSrc, bSrc.With("reserved"), ops, "%s no longer reserves the name %q", full, name)
		}
	}
}

func (d *protoDiff) service(b, r *proto.Service) {
	pairByKey(b.Methods, r.Methods, func(m *proto.Method) string { return m.Name }, nil, func(bm, rm *proto.Method, hasB, hasR bool) {
		switch {
		case !hasR:
			d.report("proto-rpc-removed", Base, bm.Source, bm.Source, []string{"rpc " + b.FullName + "/" + bm.Name}, "rpc %s of %s was removed", bm.Name, b.FullName)
			return
		case !hasB:
			d.report("proto-element-added", Revision, rm.Source, rm.Source, []string{"rpc " + r.FullName + "/" + rm.Name}, "rpc %s was added to %s", rm.Name, r.FullName)
			return
		}
		ops := []string{"rpc " + r.FullName + "/" + rm.Name}
		if !d.sameType(bm.Input, rm.Input) {
			d.report("proto-rpc-request-changed", Revision, rm.Source.With("input"), bm.Source.With("input"), ops, "the request of %s changed from %s to %s", rm.Name, bm.Input, rm.Input)
		}
		if !d.sameType(bm.Output, rm.Output) {
			d.report("proto-rpc-response-changed", Revision, rm.Source.With("output"), bm.Source.With("output"), ops, "the response of %s changed from %s to %s", rm.Name, bm.Output, rm.Output)
		}
		if bm.ClientStreaming != rm.ClientStreaming {
			d.report("proto-rpc-streaming-changed", Revision, rm.Source.With("input"), bm.Source.With("input"), ops, "%s %s client streaming", rm.Name, startsOrStops(rm.ClientStreaming))
		}
		if bm.ServerStreaming != rm.ServerStreaming {
			d.report("proto-rpc-streaming-changed", Revision, rm.Source.With("output"), bm.Source.With("output"), ops, "%s %s server streaming", rm.Name, startsOrStops(rm.ServerStreaming))
		}
		if bm.IdempotencyLevel != rm.IdempotencyLevel {
			d.report("proto-rpc-idempotency-changed", Revision, rm.Source, bm.Source, ops, "the idempotency_level of %s changed from %s to %s", rm.Name, orUnknown(bm.IdempotencyLevel), orUnknown(rm.IdempotencyLevel))
		}
	})
}

// syntaxPath is where a file declares its syntax or edition.
func syntaxPath(f *proto.File) spec.Path {
	if f.Syntax == "editions" {
		return spec.Path{"edition"}
	}
	return spec.Path{"syntax"}
}

func syntaxName(f *proto.File) string {
	if f.Syntax == "editions" {
		return "edition " + f.Edition
	}
	return f.Syntax
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func orUnknown(s string) string {
	if s == "" {
		return "IDEMPOTENCY_UNKNOWN"
	}
	return s
}

func quoteOrUnset(v string, opts map[string]string, key string) string {
	if _, ok := opts[key]; !ok {
		return "unset"
	}
	return strconv.Quote(v)
}

func oneofName(s string) string {
	if s == "" {
		return "no oneof"
	}
	return "oneof " + s
}

func openness(closed bool) string {
	if closed {
		return "closed"
	}
	return "open"
}

func startsOrStops(on bool) string {
	if on {
		return "now uses"
	}
	return "no longer uses"
}

func rangeText(r proto.Range) string {
	if r.Start == r.End {
		return strconv.Itoa(int(r.Start))
	}
	return fmt.Sprintf("%d to %d", r.Start, r.End)
}

func defaultText(f *proto.Field) string {
	switch {
	case !f.HasDefault:
		return "no default"
	case f.Type == "string" || f.Type == "bytes":
		return strconv.Quote(f.Default)
	}
	return f.Default
}
