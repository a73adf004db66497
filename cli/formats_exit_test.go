package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/cli"
	"github.com/specgate/specgate/internal/filetest"
)

// TestFormatExitCodes runs Protocol Buffers, GraphQL and WSDL documents,
// public ones and hostile ones, through validate, lint and
// backward-compatibility-check (issue 38's "done when"): each ends with
// its exit code (0 clean, 1 findings or an invalid document, 2 an input
// that cannot be read or a usage error) and its message at file:line:col,
// within a deadline that turns a hang into a failure.
func TestFormatExitCodes(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, text string) string { return filetest.File(t, tmp, name, text) }
	const wsdlNS = `xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"`
	var clique strings.Builder // 30 interfaces, each implementing all the others
	clique.WriteString("type Query { node: I0 }\n")
	for i := range 30 {
		var others []string
		for j := range 30 {
			if j != i {
				others = append(others, fmt.Sprintf("I%d", j))
			}
		}
		fmt.Fprintf(&clique, "interface I%d implements %s { id: ID! }\n", i, strings.Join(others, " & "))
	}
	var (
		selfImport = write("self/self.proto", "syntax = \"proto3\";\npackage s;\nimport \"self.proto\";\nmessage A {}\n")
		deepProto  = write("deep.proto", "syntax = \"proto3\";\npackage deep;\n"+strings.Repeat("message M { ", 5000)+strings.Repeat("}", 5000)+"\n")
		cycle      = write("clique.graphql", clique.String())
		deepList   = write("deeplist.graphql", "type Query { f: "+strings.Repeat("[", 5000)+"Int"+strings.Repeat("]", 5000)+" }\n")
		deepXML    = write("deep.wsdl", "<wsdl:definitions "+wsdlNS+">\n"+strings.Repeat("<a>", 5000)+strings.Repeat("</a>", 5000)+"</wsdl:definitions>\n")
		importA    = write("imports/a.wsdl", `<wsdl:definitions targetNamespace="urn:a" `+wsdlNS+`><wsdl:import namespace="urn:b" location="b.wsdl"/></wsdl:definitions>`)
		_          = write("imports/b.wsdl", `<wsdl:definitions targetNamespace="urn:b" `+wsdlNS+`><wsdl:import namespace="urn:a" location="a.wsdl"/></wsdl:definitions>`)
	)
	const (
		proto   = "../spec/proto/testdata/"
		graphql = "../spec/graphql/testdata/"
		wsdl    = "../spec/wsdl/testdata/"
		encoded = "../rules/wsdl-literal-use/testdata/bad.wsdl"
	)
	tests := []struct {
		args []string
		code int
		want string // a line of the output starts with it
	}{
		{[]string{"validate", proto + "proto2.proto"}, 0, proto + "proto2.proto: valid Protocol Buffers proto2"},
		{[]string{"validate", graphql + "introspection.json"}, 0, graphql + "introspection.json: valid GraphQL introspection"},
		{[]string{"validate", wsdl + "public/weather.wsdl"}, 0, wsdl + "public/weather.wsdl: valid WSDL 1.1"},
		{[]string{"validate", proto + "bad/syntax.proto"}, 2, proto + "bad/syntax.proto:5:3: syntax error: expecting ';'"},
		{[]string{"validate", proto + "cycle/a.proto"}, 1, proto + `cycle/b.proto:3:8: cycle found in imports: "b.proto" -> "a.proto" -> "b.proto"`},
		{[]string{"validate", selfImport}, 1, selfImport + `:3:8: cycle found in imports: "self.proto" -> "self.proto"`},
		{[]string{"validate", deepProto}, 1, deepProto + ":3:373: message nesting depth must be less than 32"},
		{[]string{"validate", cycle}, 1, cycle + ":2:11: interfaces implement each other in a cycle: I0 → I1 → I0"},
		{[]string{"validate", deepList}, 2, deepList + ":1:1018: exceeded maximum nesting depth of 1000"},
		{[]string{"validate", graphql + "ops.graphql"}, 2, graphql + "ops.graphql:1:1: the file holds GraphQL operations"},
		{[]string{"validate", wsdl + "bomb.wsdl"}, 2, wsdl + "bomb.wsdl:2:1: a DOCTYPE is not allowed"},
		{[]string{"validate", deepXML}, 2, deepXML + ":2:"},
		{[]string{"validate", importA}, 0, importA + ": valid WSDL 1.1"},
		{[]string{"lint", "--no-report", wsdl + "bomb.wsdl"}, 2, wsdl + "bomb.wsdl:2:1 error load-error a DOCTYPE is not allowed"},
		{[]string{"lint", "--no-report", wsdl + "public/weather.wsdl"}, 0, wsdl + "public/weather.wsdl:222:26 warn  wsdl-port-type-documentation "},
		{[]string{"lint", "--no-report", "--ruleset", "recommended", encoded}, 1, encoded + ":24:27 error wsdl-literal-use "},
		{[]string{"backward-compatibility-check", graphql + "defaults.graphql", graphql + "defaults.json"}, 0, "compatible "},
		{[]string{"backward-compatibility-check", wsdl + "bomb.wsdl", wsdl + "orders.wsdl"}, 2, "ERROR " + wsdl + "bomb.wsdl:2:1: a DOCTYPE is not allowed"},
		{[]string{"backward-compatibility-check", wsdl + "orders.wsdl"}, 2, ""},
	}
	for _, tt := range tests {
		code, out := runFormatCLI(t, tt.args...)
		if code != tt.code {
			t.Errorf("specgate %s: exit %d, want %d; output:\n%s", strings.Join(tt.args, " "), code, tt.code, out)
			continue
		}
		found := false
		for l := range strings.SplitSeq(out, "\n") {
			found = found || strings.HasPrefix(l, tt.want)
		}
		if !found {
			t.Errorf("specgate %s: no line starts with %q in:\n%s", strings.Join(tt.args, " "), tt.want, out)
		}
	}
}

// runFormatCLI runs specgate in-process and returns its exit code and what it
// printed on both streams; a run that does not return within a minute
// fails the test.
func runFormatCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- cli.Main(context.Background(), append([]string{"specgate"}, args...), env) }()
	select {
	case code := <-done:
		return code, out.String()
	case <-time.After(time.Minute):
		t.Fatalf("specgate %s did not return within a minute", strings.Join(args, " "))
		return 0, ""
	}
}
