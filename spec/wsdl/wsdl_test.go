package wsdl_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/formattest"
	"github.com/specgate/specgate/spec/wsdl"
)

func load(t *testing.T, name string) (*spec.Document, *wsdl.Definitions) {
	t.Helper()
	return formattest.Load(t, name, wsdl.Of)
}

// pos is where a model path stands in the file named file, "line:col".
func pos(doc *spec.Document, file string, p spec.Path) string {
	return formattest.Pos(doc, doc.FileNamed(file), p)
}

func TestWSDL11(t *testing.T) {
	doc, d := load(t, "testdata/orders.wsdl")
	if doc.String() != "WSDL 1.1" || strings.Join(doc.FormatTags(), ",") != "wsdl,wsdl1" || len(d.Problems) > 0 {
		t.Fatalf("%s %v %v", doc, doc.FormatTags(), d.Problems)
	}
	if d.TargetNamespace != "http://example.com/orders" || d.Name != "Orders" {
		t.Errorf("definitions: %q %q", d.TargetNamespace, d.Name)
	}
	op := d.PortTypes[0].Operation("GetOrder")
	if op.Pattern != "in-out" || op.Input.Message.Local != "GetOrderRequest" || op.Input.Message.Space != d.TargetNamespace || pos(doc, doc.Root.Name, op.Source) != "43:27" {
		t.Errorf("operation: %+v at %s", op, pos(doc, doc.Root.Name, op.Source))
	}
	want := []struct{ name, version, ct, at string }{
		{"OrdersSoap11", "1.1", "text/xml", "48:23"},
		{"OrdersSoap12", "1.2", "application/soap+xml", "56:23"},
	}
	for i, w := range want {
		b := d.Bindings[i]
		if b.Name.Local != w.name || b.SOAPVersion != w.version || b.ContentType() != w.ct || pos(doc, doc.Root.Name, b.Source) != w.at {
			t.Errorf("binding %d: %s %s %s at %s", i, b.Name.Local, b.SOAPVersion, b.ContentType(), pos(doc, doc.Root.Name, b.Source))
		}
		if b.Operations[0].SOAPAction != "http://example.com/orders/GetOrder" || b.Operations[0].Use != "literal" {
			t.Errorf("binding operation: %+v", b.Operations[0])
		}
	}
	if p := d.Services[0].Ports[1]; p.Address != "http://example.com/orders/soap12" || p.Binding.Local != "OrdersSoap12" {
		t.Errorf("port: %+v", p)
	}
	order := d.Type(wsdl.KindComplexType, xmlName(d.TargetNamespace, "Order"))
	if order == nil || len(order.Fields) != 4 {
		t.Fatalf("Order: %+v", order)
	}
	if f := order.Fields[2]; f.Name != "line" || f.MaxOccurs != -1 || !f.Required() || pos(doc, doc.Root.Name, f.Source) != "24:30" {
		t.Errorf("line: %+v at %s", f, pos(doc, doc.Root.Name, f.Source))
	}
	if f := order.Fields[3]; !f.Attribute || !f.Required() || f.Type.Local != "int" {
		t.Errorf("attribute: %+v", f)
	}
	get := d.Type(wsdl.KindElement, xmlName(d.TargetNamespace, "GetOrder"))
	if f := get.Fields[1]; f.Name != "verbose" || f.Required() {
		t.Errorf("verbose: %+v", f)
	}
	if st := d.Type(wsdl.KindSimpleType, xmlName(d.TargetNamespace, "Status")); strings.Join(st.Enumeration, ",") != "OPEN,SHIPPED" || st.Base.Local != "string" {
		t.Errorf("Status: %+v", st)
	}
}

func TestWSDL20(t *testing.T) {
	doc, d := load(t, "testdata/weather2.wsdl")
	if doc.String() != "WSDL 2.0" || len(d.Problems) > 0 {
		t.Fatalf("%s %v", doc, d.Problems)
	}
	b := d.Bindings[0]
	if b.SOAPVersion != "1.1" || b.ContentType() != "text/xml" || b.Operations[0].Name != "GetForecast" || b.Operations[0].SOAPAction != "urn:GetForecast" {
		t.Errorf("binding: %+v %+v", b, b.Operations[0])
	}
	op := d.PortTypes[0].Operations[0]
	if op.Pattern != "in-out" || op.Input.Element.Local != "forecastRequest" || op.Faults[0].Ref.Local != "InvalidCity" {
		t.Errorf("operation: %+v", op)
	}
	if p := d.Services[0].Ports[0]; p.Address != "http://example.com/weather" || pos(doc, doc.Root.Name, p.Source) != "34:21" {
		t.Errorf("endpoint: %+v at %s", p, pos(doc, doc.Root.Name, p.Source))
	}
}

func TestProblems(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"testdata/broken.wsdl", []string{
			"broken.wsdl:6:17 part body of message In refers to schema element Missing in namespace urn:broken, which is not defined",
			"broken.wsdl:11:8 operation Do of Port uses message Out, which is not defined",
			"broken.wsdl:14:18 binding Bind binds port type NoPort, which is not defined",
			"broken.wsdl:19:22 binding Bind2 has operation Undeclared, which port type Port does not declare",
			"broken.wsdl:22:17 port P of service S uses binding Nowhere, which is not defined",
		}},
		// An import outside the ref root is refused, as a $ref would be;
		// the schema in the folder is read, and its element resolves.
		{"testdata/imports/main.wsdl", []string{
			"main.wsdl:8:58 cannot read ../../secret.xsd: reads secret.xsd, outside " + filepath.Join("testdata", "imports") + " (the folder tree imports may read); pass --allow-external-refs or --ref-root DIR to allow it",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			doc, d := load(t, tt.file)
			var got []string
			for _, p := range d.Problems {
				got = append(got, fmt.Sprintf("%s:%d:%d %s", filepath.Base(p.File), p.Range.Start.Line, p.Range.Start.Col, p.Message))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			_ = doc
		})
	}
	doc, _ := load(t, "testdata/imports/main.wsdl")
	// types.xsd imports xsd/common.xsd, relative to itself; its type Id
	// resolves the element Ping's type.
	if doc.FileNamed(filepath.Join("testdata", "imports", "types.xsd")) == nil || doc.FileNamed(filepath.Join("testdata", "imports", "xsd", "common.xsd")) == nil || len(doc.Files()) != 3 {
		t.Errorf("the imported schemas are files of the document: %d files", len(doc.Files()))
	}
}

// TestHostileXML: a DTD (an entity bomb), deep nesting and malformed XML
// are load errors at their position, quickly.
func TestHostileXML(t *testing.T) {
	l := spec.NewLoader(spec.Options{})
	deep := `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/">` + strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300) + `</definitions>`
	tests := []struct{ name, data, want string }{
		{"testdata/bomb.wsdl", "", "testdata/bomb.wsdl:2:1: a DOCTYPE is not allowed: DTDs and their entities are refused, so that an entity expansion (an XML bomb) cannot run"},
		{"deep.wsdl", deep, "deep.wsdl:1:820: elements nested deeper than 256 levels"},
		{"unclosed.wsdl", "<definitions xmlns=\"http://schemas.xmlsoap.org/wsdl/\">\n<message name=\"a\">\n</definitions>\n", "unclosed.wsdl:3:1: XML syntax error: element <message> closed by </definitions>"},
		{"other.wsdl", "<root/>", "other.wsdl:1:1: not a WSDL description: the root element is {}root, expected wsdl:definitions (WSDL 1.1, http://schemas.xmlsoap.org/wsdl/) or wsdl:description (WSDL 2.0, http://www.w3.org/ns/wsdl)"},
		{"entity.wsdl", "<definitions xmlns=\"http://schemas.xmlsoap.org/wsdl/\" name=\"&x;\"/>", "entity.wsdl:1:1: XML syntax error: invalid character entity &x;"},
	}
	for _, tt := range tests {
		var err error
		if tt.data == "" {
			_, err = l.Load(context.Background(), tt.name)
		} else {
			_, err = l.LoadBytes(context.Background(), tt.name, []byte(tt.data))
		}
		if !errors.As(err, new(*spec.Error)) || err.Error() != tt.want {
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

func TestPublicWSDLs(t *testing.T) {
	for _, tt := range []struct {
		file               string
		ports, binds, soap int
	}{
		{"testdata/public/stockquote.wsdl", 3, 4, 2},
		{"testdata/public/weather.wsdl", 3, 4, 2},
	} {
		_, d := load(t, tt.file)
		soap := 0
		for _, b := range d.Bindings {
			if b.SOAPVersion != "" {
				soap++
			}
		}
		if len(d.PortTypes) != tt.ports || len(d.Bindings) != tt.binds || soap != tt.soap || len(d.Problems) > 0 {
			t.Errorf("%s: %d port types, %d bindings (%d SOAP), problems %v", tt.file, len(d.PortTypes), len(d.Bindings), soap, d.Problems)
		}
	}
}

func TestSOAPExchange(t *testing.T) {
	env11 := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>`
	env12 := `<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body/></env:Envelope>`
	tests := []struct {
		version, contentType, body, want string
	}{
		{"1.1", "text/xml; charset=utf-8", env11, ""},
		{"1.2", `application/soap+xml; charset=utf-8; action="urn:x"`, env12, ""},
		{"1.1", "application/soap+xml", env11, "a SOAP 1.1 exchange has Content-Type application/soap+xml, but SOAP 1.1 travels as text/xml"},
		{"1.2", "text/xml", env12, "a SOAP 1.2 exchange has Content-Type text/xml, but SOAP 1.2 travels as application/soap+xml"},
		{"1.2", "", env12, "a SOAP 1.2 exchange has no Content-Type; SOAP 1.2 travels as application/soap+xml"},
		{"1.1", "text/xml", env12, "a SOAP 1.1 exchange carries a SOAP 1.2 envelope (http://www.w3.org/2003/05/soap-envelope); its envelope must be in http://schemas.xmlsoap.org/soap/envelope/"},
		// Without a binding, the envelope says the version.
		{"", "application/soap+xml", env11, "a SOAP 1.1 exchange has Content-Type application/soap+xml, but SOAP 1.1 travels as text/xml"},
		{"", "application/json", `{"a": 1}`, ""},
	}
	for _, tt := range tests {
		err := wsdl.CheckExchange(tt.version, tt.contentType, []byte(tt.body))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.version, tt.contentType, got, tt.want)
		}
	}
}

// TestDocumentationAndIgnores: wsdl:documentation is read with the text of
// its markup; a specgate:ignore comment puts x-lint-ignore on the element
// it stands before or beside, the root for one before the root element.
func TestDocumentationAndIgnores(t *testing.T) {
	doc, d := load(t, "testdata/documented.wsdl")
	pt := d.PortTypes[0]
	if pt.Documentation != "The shop." || pt.Operations[0].Documentation != "" || pt.Operations[1].Documentation != "<!-- specgate:ignore not-a-comment -->" {
		t.Errorf("documentation: %q, %q, %q", pt.Documentation, pt.Operations[0].Documentation, pt.Operations[1].Documentation)
	}
	for _, tt := range []struct {
		path []string
		want string
	}{
		{nil, "file-rule"},
		{[]string{"portTypes", "Shop"}, ""},
		{[]string{"portTypes", "Shop", "operations", "Ping"}, "op-rule"},
		{[]string{"portTypes", "Shop", "operations", "Pong"}, "pong-rule"},
	} {
		if got := formattest.Ignores(doc, tt.path...); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestBindingBodies: the SOAP extension elements of a binding operation's
// input, output and faults are read with their version, use and parts; a
// soap:operation's style overrides its binding's; a port's address knows
// its SOAP version. The lint rules judge bindings by them.
func TestBindingBodies(t *testing.T) {
	_, d := load(t, "testdata/bodies.wsdl")
	if len(d.Problems) > 0 {
		t.Fatal(d.Problems)
	}
	b := d.Bindings[0]
	op := b.Operations[0]
	var got []string
	for _, body := range op.Bodies {
		got = append(got, fmt.Sprintf("%s %s %s %s %v/%v", body.In, body.Element, body.SOAPVersion, body.Use, body.PartsWritten, body.Parts))
	}
	want := []string{
		"input body 1.2 literal true/[symbol]",
		"input header 1.2 literal false/[]",
		"input headerfault 1.2 encoded false/[]",
		"output body 1.2 encoded false/[]",
		"fault fault 1.2 literal false/[]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bodies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(op.SOAPVersions, ",") != "1.1,1.2" || op.Use != "literal" {
		t.Errorf("versions %v, use %q", op.SOAPVersions, op.Use)
	}
	if b.Style != "rpc" || b.EffectiveStyle(op) != "document" || b.EffectiveStyle(&wsdl.BindingOperation{}) != "rpc" ||
		(&wsdl.Binding{}).EffectiveStyle(&wsdl.BindingOperation{}) != "document" {
		t.Errorf("styles: binding %q, operation %q", b.Style, b.EffectiveStyle(op))
	}
	if p := d.Services[0].Ports[0]; p.SOAPVersion != "1.1" {
		t.Errorf("port address version %q", p.SOAPVersion)
	}
}

// TestSameLocalNameInTwoNamespaces: schema elements of one local name in
// two namespaces of one file are both in the tree, the second under its
// qualified name, each at its own line.
func TestSameLocalNameInTwoNamespaces(t *testing.T) {
	doc, d := load(t, "testdata/twonamespaces.wsdl")
	if len(d.Problems) > 0 {
		t.Fatal(d.Problems)
	}
	for _, tt := range []struct {
		path spec.Path
		want string
	}{
		{spec.Path{"elements", "Order"}, "5:26"},
		{spec.Path{"elements", "{urn:b}Order"}, "8:26"},
	} {
		if got := pos(doc, doc.Root.Name, tt.path); got != tt.want {
			t.Errorf("%v at %s, want %s", tt.path, got, tt.want)
		}
	}
}

// TestLoadIsLinear: reading twice the messages allocates about twice the
// bytes; a root element's text gathered by string concatenation was
// quadratic in its children.
func TestLoadIsLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		var b strings.Builder
		b.WriteString(`<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:x">` + "\n")
		for i := range n {
			fmt.Fprintf(&b, "  <wsdl:message name=\"M%d\"/>\n", i)
		}
		b.WriteString("</wsdl:definitions>\n")
		src := b.String()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "many.wsdl", []byte(src))
		runtime.ReadMemStats(&after)
		if err != nil || len(wsdl.Of(doc).Messages) != n {
			t.Fatalf("%d messages: %v", n, err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(10_000), alloc(20_000)
	if ratio := float64(large) / float64(small); ratio > 3 {
		t.Errorf("twice the messages allocate %.1f times the bytes (%d, %d)", ratio, small, large)
	}
}
