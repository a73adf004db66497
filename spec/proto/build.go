package proto

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/bufbuild/protocompile/ast"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/srctree"
)

// builder makes the model and the node tree of one file from its parse
// result (descriptors, linked where linking succeeded) and its AST
// (positions and comments).
type builder struct {
	f    *source
	s    *Schema
	file *File
	// elements are the file's elements by the line they start on, for the
	// ignore directives of its comments.
	elements srctree.Elements
}

// entry adds an element (see the function entry) and records it for the
// ignore directives.
func (b *builder) entry(parent *spec.Node, key, name string, nameRange, declRange spec.Range) *spec.Node {
	v := entry(parent, key, name, nameRange, declRange)
	b.elements.Add(declRange.Start.Line, v)
	return v
}

// rng is the source range of an AST node.
func (b *builder) rng(n ast.Node) spec.Range {
	if n == nil {
		return spec.Range{}
	}
	info := b.f.res.AST().NodeInfo(n)
	if !info.IsValid() {
		return spec.Range{}
	}
	start, end := info.Start(), info.End()
	if start.Line <= 0 {
		return spec.Range{}
	}
	endOff := end.Offset
	if endOff < len(b.f.data) && end.Col > 0 {
		endOff++ // End names the last character; a range ends after it
	}
	return b.f.lines.Range(start.Offset, endOff)
}

// text is the source text of an AST node.
func (b *builder) text(n ast.Node) string {
	info := b.f.res.AST().NodeInfo(n)
	if !info.IsValid() {
		return ""
	}
	s, e := info.Start().Offset, info.End().Offset+1
	if s < 0 || e > len(b.f.data) || s >= e {
		return ""
	}
	return string(b.f.data[s:e])
}

// comment is the leading comment of a declaration, without its markers.
func (b *builder) comment(n ast.Node) string {
	if n == nil {
		return ""
	}
	info := b.f.res.AST().NodeInfo(n)
	if !info.IsValid() {
		return ""
	}
	cs := info.LeadingComments()
	var lines []string
	for i := range cs.Len() {
		raw := cs.Index(i).RawText()
		switch {
		case strings.HasPrefix(raw, "//"):
			lines = append(lines, strings.TrimSpace(strings.TrimPrefix(raw, "//")))
		case strings.HasPrefix(raw, "/*"):
			body := strings.TrimSuffix(strings.TrimPrefix(raw, "/*"), "*/")
			for _, l := range strings.Split(body, "\n") {
				lines = append(lines, strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "*")))
			}
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// options reads the options of a declaration as written: name → value.
func (b *builder) options(n ast.Node) map[string]string {
	out := map[string]string{}
	add := func(o *ast.OptionNode) bool {
		if o.Name != nil && o.Val != nil {
			out[optionName(o.Name)] = b.optionValue(o.Val)
		}
		return true
	}
	switch d := n.(type) {
	case interface {
		GetOptions() *ast.CompactOptionsNode
	}:
		// Fields and enum values: [compact options], which may be absent
		// (their RangeOptions does not allow for that).
		if opts := d.GetOptions(); opts != nil {
			for _, o := range opts.Options {
				add(o)
			}
		}
	case interface {
		RangeOptions(func(*ast.OptionNode) bool)
	}:
		d.RangeOptions(add)
	}
	return out
}

func optionName(n *ast.OptionNameNode) string {
	parts := make([]string, len(n.Parts))
	for i, p := range n.Parts {
		parts[i] = p.Value()
	}
	return strings.Join(parts, ".")
}

func (b *builder) optionValue(v ast.ValueNode) string {
	switch x := v.Value().(type) {
	case string:
		return x
	case ast.Identifier:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case uint64:
		return strconv.FormatUint(x, 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return b.text(v)
}

// build makes the model and the tree of the file.
func (b *builder) build() (*File, *spec.Node) {
	fd := b.f.res.FileDescriptorProto()
	node := b.f.res.AST()
	file := &File{Name: b.f.name, Path: b.f.path, Package: fd.GetPackage(), Options: b.options(node), Source: spec.Path{}}
	b.file = file
	root := srctree.Object(b.f.lines.Range(0, len(b.f.data)))
	switch {
	case node.Edition != nil:
		b.elements.Add(b.rng(node.Edition).Start.Line, root)
		file.Syntax, file.Edition = "editions", node.Edition.Edition.AsString()
		srctree.Set(root, "edition", b.rng(node.Edition), srctree.String(file.Edition, b.rng(node.Edition.Edition)))
	case node.Syntax != nil:
		b.elements.Add(b.rng(node.Syntax).Start.Line, root)
		file.Syntax = node.Syntax.Syntax.AsString()
		srctree.Set(root, "syntax", b.rng(node.Syntax), srctree.String(file.Syntax, b.rng(node.Syntax.Syntax)))
	default:
		file.Syntax = "proto2"
	}
	imports := srctree.Array(spec.Range{})
	for _, d := range node.Decls {
		switch d := d.(type) {
		case *ast.PackageNode:
			// A directive on the syntax or package statement silences
			// its rules in the whole file: file-level rules report there.
			b.elements.Add(b.rng(d).Start.Line, root)
			srctree.Set(root, "package", b.rng(d), srctree.String(file.Package, b.rng(d.Name)))
			file.Source = spec.Path{"package"}
		case *ast.ImportNode:
			imp := Import{Path: d.Name.AsString(), Public: d.Public != nil, Weak: d.Weak != nil, Source: spec.Path{"imports", len(imports.Items)}}
			file.Imports = append(file.Imports, imp)
			srctree.Append(imports, srctree.String(imp.Path, b.rng(d)))
		}
	}
	if len(imports.Items) > 0 {
		imports.Range = spec.Range{Start: imports.Items[0].Range.Start, End: imports.Items[len(imports.Items)-1].Range.End}
		srctree.Set(root, "imports", imports.Range, imports)
	}
	if len(file.Options) > 0 {
		opts := srctree.Object(spec.Range{})
		node.RangeOptions(func(o *ast.OptionNode) bool {
			if o.Name != nil && o.Val != nil {
				srctree.Set(opts, optionName(o.Name), b.rng(o), srctree.String(b.optionValue(o.Val), b.rng(o.Val)))
			}
			return true
		})
		if len(opts.Fields) > 0 {
			opts.Range = spec.Range{Start: opts.Fields[0].KeyRange.Start, End: opts.Fields[len(opts.Fields)-1].KeyRange.End}
		}
		srctree.Set(root, "options", opts.Range, opts)
	}
	prefix := ""
	if file.Package != "" {
		prefix = file.Package + "."
	}
	for _, md := range fd.GetMessageType() {
		if m := b.message(root, spec.Path{}, md, nil, prefix); m != nil {
			file.Messages = append(file.Messages, m)
		}
	}
	for _, ed := range fd.GetEnumType() {
		file.Enums = append(file.Enums, b.enum(root, spec.Path{}, ed, nil, prefix))
	}
	for _, sd := range fd.GetService() {
		file.Services = append(file.Services, b.service(root, sd, prefix))
	}
	for _, xd := range fd.GetExtension() {
		file.Extensions = append(file.Extensions, b.field(root, spec.Path{}, xd, nil, nil, prefix, "extensions"))
	}
	if bytes.Contains(b.f.data, []byte(srctree.IgnoreDirective)) {
		srctree.Ignore(b.elements, comments(b.f.data))
	}
	return file, root
}

// entry adds an element to the object under key of parent, its key at the
// element's name and its value spanning the declaration.
func entry(parent *spec.Node, key, name string, nameRange, declRange spec.Range) *spec.Node {
	group := srctree.Child(parent, key, declRange)
	if len(group.Fields) == 0 {
		group.Range = declRange
	} else {
		group.Range.End = declRange.End
	}
	v := srctree.Object(declRange)
	srctree.Set(group, name, nameRange, v)
	return v
}

func (b *builder) message(parent *spec.Node, at spec.Path, md *descriptorpb.DescriptorProto, up *Message, prefix string) *Message {
	if md.GetOptions().GetMapEntry() {
		return nil
	}
	decl := b.f.res.MessageNode(md)
	m := &Message{Name: md.GetName(), FullName: prefix + md.GetName(), File: b.file, Parent: up,
		Options: b.options(decl), Comment: b.comment(decl), Source: extend(at, "messages", md.GetName())}
	if _, dup := b.s.messages[m.FullName]; !dup {
		b.s.messages[m.FullName] = m
	}
	b.file.AllMessages = append(b.file.AllMessages, m)
	var nameNode ast.Node
	if decl != nil {
		nameNode = decl.MessageName()
	}
	node := b.entry(parent, "messages", m.Name, b.rng(nameNode), b.rng(decl))
	inner := m.FullName + "."
	for _, r := range md.GetReservedRange() {
		m.ReservedRanges = append(m.ReservedRanges, Range{r.GetStart(), r.GetEnd() - 1})
	}
	m.ReservedNames = md.GetReservedName()
	for _, r := range md.GetExtensionRange() {
		m.ExtensionRanges = append(m.ExtensionRanges, Range{r.GetStart(), r.GetEnd() - 1})
	}
	if len(m.ReservedRanges) > 0 || len(m.ReservedNames) > 0 {
		b.reserved(node, decl)
	}
	oneofs := map[int32]*Oneof{}
	for i, od := range md.GetOneofDecl() {
		synthetic := false
		for _, fd := range md.GetField() {
			if fd.OneofIndex != nil && fd.GetOneofIndex() == int32(i) && fd.GetProto3Optional() {
				synthetic = true
			}
		}
		if synthetic {
			continue
		}
		on := b.f.res.OneofNode(od)
		var nameNode ast.Node
		if on != nil {
			nameNode = on.OneofName()
		}
		o := &Oneof{Name: od.GetName(), Source: extend(m.Source, "oneofs", od.GetName())}
		b.entry(node, "oneofs", o.Name, b.rng(nameNode), b.rng(on))
		oneofs[int32(i)] = o
		m.Oneofs = append(m.Oneofs, o)
	}
	for _, fd := range md.GetField() {
		f := b.field(node, m.Source, fd, m, md, inner, "fields")
		if fd.OneofIndex != nil {
			if o := oneofs[fd.GetOneofIndex()]; o != nil {
				f.Oneof = o.Name
				o.Fields = append(o.Fields, f)
			}
		}
		m.Fields = append(m.Fields, f)
	}
	for _, nd := range md.GetNestedType() {
		if n := b.message(node, m.Source, nd, m, inner); n != nil {
			m.Messages = append(m.Messages, n)
		}
	}
	for _, ed := range md.GetEnumType() {
		m.Enums = append(m.Enums, b.enum(node, m.Source, ed, m, inner))
	}
	for _, xd := range md.GetExtension() {
		b.field(node, m.Source, xd, nil, nil, inner, "extensions")
	}
	return m
}

// reserved puts the reserved statements of a message or enum in its tree,
// as a list of their texts.
func (b *builder) reserved(node *spec.Node, decl ast.Node) {
	var decls []ast.Node
	switch d := decl.(type) {
	case *ast.MessageNode:
		for _, e := range d.Decls {
			if r, ok := e.(*ast.ReservedNode); ok {
				decls = append(decls, r)
			}
		}
	case *ast.EnumNode:
		for _, e := range d.Decls {
			if r, ok := e.(*ast.ReservedNode); ok {
				decls = append(decls, r)
			}
		}
	}
	if len(decls) == 0 {
		return
	}
	list := srctree.Array(spec.Range{Start: b.rng(decls[0]).Start, End: b.rng(decls[len(decls)-1]).End})
	for _, d := range decls {
		srctree.Append(list, srctree.String(b.text(d), b.rng(d)))
	}
	srctree.Set(node, "reserved", list.Range, list)
}

var scalarNames = map[descriptorpb.FieldDescriptorProto_Type]string{
	descriptorpb.FieldDescriptorProto_TYPE_DOUBLE: "double", descriptorpb.FieldDescriptorProto_TYPE_FLOAT: "float",
	descriptorpb.FieldDescriptorProto_TYPE_INT64: "int64", descriptorpb.FieldDescriptorProto_TYPE_UINT64: "uint64",
	descriptorpb.FieldDescriptorProto_TYPE_INT32: "int32", descriptorpb.FieldDescriptorProto_TYPE_FIXED64: "fixed64",
	descriptorpb.FieldDescriptorProto_TYPE_FIXED32: "fixed32", descriptorpb.FieldDescriptorProto_TYPE_BOOL: "bool",
	descriptorpb.FieldDescriptorProto_TYPE_STRING: "string", descriptorpb.FieldDescriptorProto_TYPE_GROUP: "group",
	descriptorpb.FieldDescriptorProto_TYPE_MESSAGE: "message", descriptorpb.FieldDescriptorProto_TYPE_BYTES: "bytes",
	descriptorpb.FieldDescriptorProto_TYPE_UINT32: "uint32", descriptorpb.FieldDescriptorProto_TYPE_ENUM: "enum",
	descriptorpb.FieldDescriptorProto_TYPE_SFIXED32: "sfixed32", descriptorpb.FieldDescriptorProto_TYPE_SFIXED64: "sfixed64",
	descriptorpb.FieldDescriptorProto_TYPE_SINT32: "sint32", descriptorpb.FieldDescriptorProto_TYPE_SINT64: "sint64",
}

var labelNames = map[descriptorpb.FieldDescriptorProto_Label]string{
	descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL: "optional",
	descriptorpb.FieldDescriptorProto_LABEL_REQUIRED: "required",
	descriptorpb.FieldDescriptorProto_LABEL_REPEATED: "repeated",
}

// field builds a field or an extension; md is the message it is in (nil
// for an extension), whose nested map entries describe map fields.
func (b *builder) field(parent *spec.Node, at spec.Path, fd *descriptorpb.FieldDescriptorProto, m *Message, md *descriptorpb.DescriptorProto, prefix, key string) *Field {
	decl := b.f.res.FieldNode(fd)
	name := fd.GetName()
	if key == "extensions" {
		name = prefix + fd.GetName()
	}
	f := &Field{Name: fd.GetName(), FullName: prefix + fd.GetName(), Number: fd.GetNumber(), Message: m,
		Proto3Optional: fd.GetProto3Optional(), Default: fd.GetDefaultValue(), HasDefault: fd.DefaultValue != nil,
		Extendee: strings.TrimPrefix(fd.GetExtendee(), "."), Options: b.options(decl), Comment: b.comment(decl),
		Source: extend(at, key, name)}
	if fd.Type != nil {
		f.Type = scalarNames[fd.GetType()]
	}
	f.TypeName = strings.TrimPrefix(fd.GetTypeName(), ".")
	if v, ok := f.Options["json_name"]; ok {
		f.JSONName, f.JSONNameSet = v, true
	} else {
		f.JSONName = jsonName(f.Name)
	}
	var nameNode, typeNode, tagNode, labelNode ast.Node
	if decl != nil {
		nameNode, typeNode, tagNode, labelNode = decl.FieldName(), decl.FieldType(), decl.FieldTag(), decl.FieldLabel()
	}
	if mf, ok := decl.(*ast.MapFieldNode); ok {
		typeNode = mf.MapType
		f.Map = b.mapType(fd, md)
		f.Type, f.TypeName = "map", ""
	}
	if labelNode != nil || (fd.Label != nil && f.Map == nil && fd.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REPEATED) {
		f.Label = labelNames[fd.GetLabel()]
	}
	if labelNode == nil && f.Label == "optional" {
		f.Label = ""
	}
	node := b.entry(parent, key, name, b.rng(nameNode), b.rng(decl))
	srctree.Set(node, "number", b.rng(tagNode), srctree.Number(strconv.Itoa(int(f.Number)), b.rng(tagNode)))
	srctree.Set(node, "type", b.rng(typeNode), srctree.String(f.TypeString(), b.rng(typeNode)))
	if f.Label != "" {
		srctree.Set(node, "label", b.rng(labelNode), srctree.String(f.Label, b.rng(labelNode)))
	}
	if len(f.Options) > 0 {
		b.compactOptions(node, decl)
	}
	return f
}

// compactOptions puts the [options] of a field in its tree.
func (b *builder) compactOptions(node *spec.Node, decl ast.Node) {
	fd, ok := decl.(ast.FieldDeclNode)
	if !ok || fd.GetOptions() == nil {
		return
	}
	opts := srctree.Object(b.rng(fd.GetOptions()))
	for _, o := range fd.GetOptions().Options {
		if o.Name != nil && o.Val != nil {
			srctree.Set(opts, optionName(o.Name), b.rng(o), srctree.String(b.optionValue(o.Val), b.rng(o.Val)))
		}
	}
	srctree.Set(node, "options", opts.Range, opts)
}

// mapType reads a map field's key and value from its entry message.
func (b *builder) mapType(fd *descriptorpb.FieldDescriptorProto, md *descriptorpb.DescriptorProto) *MapType {
	entryName := fd.GetTypeName()
	if i := strings.LastIndexByte(entryName, '.'); i >= 0 {
		entryName = entryName[i+1:]
	}
	for _, nd := range md.GetNestedType() {
		if nd.GetName() != entryName || !nd.GetOptions().GetMapEntry() {
			continue
		}
		mt := &MapType{}
		for _, ef := range nd.GetField() {
			typ := ""
			if ef.Type != nil {
				typ = scalarNames[ef.GetType()]
			}
			switch ef.GetNumber() {
			case 1:
				mt.Key = typ
			case 2:
				mt.Value, mt.ValueName = typ, strings.TrimPrefix(ef.GetTypeName(), ".")
			}
		}
		return mt
	}
	return &MapType{}
}

// jsonName is protoc's default JSON name: underscores removed and the
// letter after each capitalised.
func jsonName(name string) string {
	var sb strings.Builder
	upper := false
	for _, c := range name {
		if c == '_' {
			upper = true
			continue
		}
		if upper && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		upper = false
		sb.WriteRune(c)
	}
	return sb.String()
}

func (b *builder) enum(parent *spec.Node, at spec.Path, ed *descriptorpb.EnumDescriptorProto, up *Message, prefix string) *Enum {
	decl := b.f.res.EnumNode(ed)
	e := &Enum{Name: ed.GetName(), FullName: prefix + ed.GetName(), File: b.file, Parent: up,
		Options: b.options(decl), Comment: b.comment(decl), Source: extend(at, "enums", ed.GetName())}
	switch {
	case e.Options["features.enum_type"] != "":
		e.Closed = e.Options["features.enum_type"] == "CLOSED"
	case b.file.Options["features.enum_type"] != "":
		e.Closed = b.file.Options["features.enum_type"] == "CLOSED"
	default:
		e.Closed = b.file.Syntax == "proto2"
	}
	if _, dup := b.s.enums[e.FullName]; !dup {
		b.s.enums[e.FullName] = e
	}
	b.file.AllEnums = append(b.file.AllEnums, e)
	var nameNode ast.Node
	if en, ok := decl.(*ast.EnumNode); ok {
		nameNode = en.Name
	}
	node := b.entry(parent, "enums", e.Name, b.rng(nameNode), b.rng(decl))
	for _, r := range ed.GetReservedRange() {
		e.ReservedRanges = append(e.ReservedRanges, Range{r.GetStart(), r.GetEnd()})
	}
	e.ReservedNames = ed.GetReservedName()
	if len(e.ReservedRanges) > 0 || len(e.ReservedNames) > 0 {
		b.reserved(node, decl)
	}
	for _, vd := range ed.GetValue() {
		vn := b.f.res.EnumValueNode(vd)
		v := &EnumValue{Name: vd.GetName(), Number: vd.GetNumber(), Comment: b.comment(vn), Source: extend(e.Source, "values", vd.GetName())}
		var nameNode, numNode ast.Node
		if vn != nil {
			nameNode, numNode = vn.GetName(), vn.GetNumber()
		}
		vnode := b.entry(node, "values", v.Name, b.rng(nameNode), b.rng(vn))
		srctree.Set(vnode, "number", b.rng(numNode), srctree.Number(strconv.Itoa(int(v.Number)), b.rng(numNode)))
		e.Values = append(e.Values, v)
	}
	return e
}

func (b *builder) service(parent *spec.Node, sd *descriptorpb.ServiceDescriptorProto, prefix string) *Service {
	decl := b.f.res.ServiceNode(sd)
	s := &Service{Name: sd.GetName(), FullName: prefix + sd.GetName(), File: b.file, Options: b.options(decl),
		Comment: b.comment(decl), Source: spec.Path{"services", sd.GetName()}}
	var nameNode ast.Node
	if sn, ok := decl.(*ast.ServiceNode); ok {
		nameNode = sn.Name
	}
	node := b.entry(parent, "services", s.Name, b.rng(nameNode), b.rng(decl))
	for _, md := range sd.GetMethod() {
		mn := b.f.res.MethodNode(md)
		m := &Method{Name: md.GetName(), Input: strings.TrimPrefix(md.GetInputType(), "."), Output: strings.TrimPrefix(md.GetOutputType(), "."),
			ClientStreaming: md.GetClientStreaming(), ServerStreaming: md.GetServerStreaming(), Options: b.options(mn),
			Comment: b.comment(mn), Source: extend(s.Source, "rpcs", md.GetName())}
		m.IdempotencyLevel = m.Options["idempotency_level"]
		var nameNode, in, out ast.Node
		if mn != nil {
			nameNode, in, out = mn.GetName(), mn.GetInputType(), mn.GetOutputType()
		}
		rn := b.entry(node, "rpcs", m.Name, b.rng(nameNode), b.rng(mn))
		srctree.Set(rn, "input", b.rng(in), srctree.String(streamed(m.Input, m.ClientStreaming), b.rng(in)))
		srctree.Set(rn, "output", b.rng(out), srctree.String(streamed(m.Output, m.ServerStreaming), b.rng(out)))
		s.Methods = append(s.Methods, m)
	}
	return s
}

func streamed(name string, stream bool) string {
	if stream {
		return "stream " + name
	}
	return name
}

// extend returns a new path: p followed by segs.
func extend(p spec.Path, segs ...any) spec.Path {
	out := make(spec.Path, 0, len(p)+len(segs))
	return append(append(out, p...), segs...)
}

// resolve gives the names that did not link (a file with errors is not
// linked) their full names where the schema's own types have them, by
// the scoping rules of .proto: the innermost scope first.
func (s *Schema) resolve() {
	lookup := func(scope, name string) (string, string) {
		if strings.HasPrefix(name, ".") {
			name = name[1:]
			scope = ""
		}
		for {
			full := name
			if scope != "" {
				full = scope + "." + name
			}
			if s.messages[full] != nil {
				return full, "message"
			}
			if s.enums[full] != nil {
				return full, "enum"
			}
			if scope == "" {
				return "", ""
			}
			if i := strings.LastIndexByte(scope, '.'); i >= 0 {
				scope = scope[:i]
			} else {
				scope = ""
			}
		}
	}
	for _, file := range s.Files {
		for _, m := range file.AllMessages {
			for _, f := range m.Fields {
				if f.Type == "" && f.TypeName != "" {
					if full, kind := lookup(m.FullName, f.TypeName); full != "" {
						f.TypeName, f.Type = full, kind
					}
				}
				if f.Map != nil && f.Map.Value == "" && f.Map.ValueName != "" {
					if full, kind := lookup(m.FullName, f.Map.ValueName); full != "" {
						f.Map.ValueName, f.Map.Value = full, kind
					}
				}
			}
		}
		for _, sv := range file.Services {
			for _, m := range sv.Methods {
				if full, _ := lookup(file.Package, m.Input); full != "" && !strings.Contains(m.Input, ".") {
					m.Input = full
				}
				if full, _ := lookup(file.Package, m.Output); full != "" && !strings.Contains(m.Output, ".") {
					m.Output = full
				}
			}
		}
	}
}
