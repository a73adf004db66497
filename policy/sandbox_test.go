package policy_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/policy/input"
)

// deniedCalls call each builtin user Rego must not reach, with the right
// arity, so that the only possible compile error is the sandbox's.
var deniedCalls = map[string]string{
	"http.send":              `http.send({"method": "get", "url": "http://127.0.0.1:1"})`,
	"net.lookup_ip_addr":     `net.lookup_ip_addr("example.com")`,
	"opa.runtime":            `opa.runtime().env.HOME`,
	"time.now_ns":            `time.now_ns()`,
	"rand.intn":              `rand.intn("seed", 10)`,
	"uuid.rfc4122":           `uuid.rfc4122("seed")`,
	"json.match_schema":      `json.match_schema({}, {"$ref": "file:///etc/passwd"})`,
	"json.verify_schema":     `json.verify_schema({"$ref": "file:///etc/passwd"})`,
	"io.jwt.decode_verify":   `io.jwt.decode_verify("a.b.c", {"secret": "s"})`,
	"io.jwt.encode_sign":     `io.jwt.encode_sign({"alg": "HS256"}, {}, {"kty": "oct", "k": "AAAA"})`,
	"io.jwt.encode_sign_raw": `io.jwt.encode_sign_raw("{}", "{}", "{}")`,
	"crypto.x509.parse_and_verify_certificates":              `crypto.x509.parse_and_verify_certificates("")`,
	"crypto.x509.parse_and_verify_certificates_with_options": `crypto.x509.parse_and_verify_certificates_with_options("", {})`,
}

// TestSandboxDeniesEveryImpureBuiltin: a rule calling a builtin that
// reaches the network, the clock, randomness, the environment or the file
// system does not compile; the error names the builtin, what it would
// reach, and the file and line of the call.
func TestSandboxDeniesEveryImpureBuiltin(t *testing.T) {
	for name, call := range deniedCalls {
		t.Run(name, func(t *testing.T) {
			src := rule("sneaky", fmt.Sprintf("violations contains {\"path\": [], \"message\": sprintf(\"%%v\", [x])} if {\n\tx := %s\n}", call))
			_, err := compile(t, 0, src)
			var ce *policy.CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("compiling a rule that calls %s: %v", name, err)
			}
			// The call is on line 13 of the module: rule() writes 9 lines of
			// METADATA, the package and a blank line, then the rule head.
			want := fmt.Sprintf("user/a.rego:13:7: undefined function %s: rules run sandboxed and cannot reach ", name)
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q, want it to contain %q", err, want)
			}
		})
	}
}

// TestCapabilitiesArePure: whatever OPA version specgate is built with,
// the capabilities hold no builtin OPA marks nondeterministic, no denied
// builtin, and allow no network host.
func TestCapabilitiesArePure(t *testing.T) {
	caps := policy.Capabilities()
	for _, b := range caps.Builtins {
		if _, denied := deniedCalls[b.Name]; denied || b.Nondeterministic || strings.HasPrefix(b.Name, "net.lookup") {
			t.Errorf("capabilities allow %s (nondeterministic: %v)", b.Name, b.Nondeterministic)
		}
	}
	if caps.AllowNet == nil || len(caps.AllowNet) != 0 {
		t.Errorf("AllowNet = %#v, want an empty list (no host)", caps.AllowNet)
	}
	// The pure builtins rules need are still there.
	have := map[string]bool{}
	for _, b := range caps.Builtins {
		have[b.Name] = true
	}
	for _, name := range []string{"regex.match", "sprintf", "object.get", "json.marshal", "time.parse_rfc3339_ns", "specgate.json_schema", "specgate.object_keys", "specgate.prose_matching"} {
		if !have[name] {
			t.Errorf("capabilities lack %s", name)
		}
	}
}

// TestJSONSchemaBuiltinReadsNoFile: specgate.json_schema, the one schema
// validator rules may use, does not follow a $ref to a local file or a
// URL. The local file holds a schema that 1 fails: had it been read, the
// rule would report. The builtin's error makes the call undefined, as OPA
// does for builtin errors, so the rule reports nothing.
func TestJSONSchemaBuiltinReadsNoFile(t *testing.T) {
	schema := filepath.Join(t.TempDir(), "string.json")
	if err := os.WriteFile(schema, []byte(`{"type": "string"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"file://" + schema, "file:///etc/passwd", "http://127.0.0.1:1/schema.json"} {
		t.Run(ref, func(t *testing.T) {
			e, err := compile(t, 0, rule("schema-ref", fmt.Sprintf(
				`violations contains {"path": [], "message": e.message} if { some e in specgate.json_schema(1, {"$ref": %q}, "auto", true) }`, ref)))
			if err != nil {
				t.Fatal(err)
			}
			vs, err := e.Eval(context.Background(), input.Build(load(t, api)))
			if err != nil || len(vs) != 0 {
				t.Errorf("violations %v, error %v; want none: the $ref must not be followed", vs, err)
			}
			_, err = dsl.ValidateValue(json.Number("1"), fmt.Sprintf(`{"$ref": %q}`, ref), "auto", true)
			if err == nil || !strings.Contains(err.Error(), "schemas of the schema function cannot reference other documents") {
				t.Errorf("ValidateValue: %v, want the $ref refused", err)
			}
		})
	}
}

// TestRecursionIsACompileError: Rego has no loop construct; the only way
// to loop, recursion, is refused when the rule compiles.
func TestRecursionIsACompileError(t *testing.T) {
	_, err := compile(t, 0, rule("forever", "f(x) := f(x + 1)\n\nviolations contains {\"path\": [], \"message\": \"x\"} if f(1)"))
	if err == nil || !strings.Contains(err.Error(), "recursive") {
		t.Errorf("a recursive function compiled: %v", err)
	}
}

// TestExplodingRulesTimeOut: rules whose evaluation explodes (a huge
// range, nested comprehensions, a huge string) are stopped by the time
// limit and reported as ErrTimeout, not left running and not silent.
func TestExplodingRulesTimeOut(t *testing.T) {
	bodies := map[string]string{
		"huge range":             `count(numbers.range(1, 1000000000)) < 0`,
		"nested comprehensions":  `count({[x, y, z] | some x in numbers.range(1, 1000); some y in numbers.range(1, 1000); some z in numbers.range(1, 1000)}) < 0`,
		"huge string":            `count(concat("", [s | some x in numbers.range(1, 100000000); s := sprintf("%0100d", [x])])) < 0`,
		"every operation square": `count([1 | some a in input.operations; some b in numbers.range(1, 100000000)]) < 0`,
	}
	doc := load(t, api)
	for name, cond := range bodies {
		t.Run(name, func(t *testing.T) {
			e, err := compile(t, 100*time.Millisecond, rule("explode", `violations contains {"path": [], "message": "never"} if { `+cond+` }`))
			if err != nil {
				t.Fatal(err)
			}
			vs, err := e.Eval(context.Background(), input.Build(doc))
			if !errors.Is(err, policy.ErrTimeout) {
				t.Fatalf("err = %v, violations = %v; want ErrTimeout", err, vs)
			}
			if !strings.Contains(err.Error(), "(100ms)") {
				t.Errorf("error %q does not name the limit", err)
			}
		})
	}
}
