package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestCheckSecuritySchemes checks configured credentials against real specs
// of the corpus and small fixtures: names the spec declares pass, others are
// errors naming the configuration's place, the spec file and what it has.
func TestCheckSecuritySchemes(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	cred := func(name string, typ SchemeType, line int32) *Credential {
		return &Credential{Scheme: name, Type: typ, Token: "t", At: spec.Pos{Line: line, Col: 9}, Pointer: "/p/" + name}
	}
	for _, tc := range []struct {
		file  string
		creds []*Credential
		want  []string // one message each, in order; none when nil
	}{
		{file: filepath.Join(corpus, "discord.json"), creds: []*Credential{cred("BotToken", APIKey, 3), cred("OAuth2", OAuth2, 4)}},
		{file: filepath.Join(corpus, "discord.json"), creds: []*Credential{cred("Bottoken", APIKey, 3), cred("OAuth2", Bearer, 4)}, want: []string{
			`specgate.yaml:3:9: security scheme "Bottoken" of spec "api" is not in components.securitySchemes of ` + filepath.Join(corpus, "discord.json") + `; did you mean "BotToken"?`,
			`specgate.yaml:4:9: security scheme "OAuth2" of spec "api" is configured as bearer, but components.securitySchemes of ` + filepath.Join(corpus, "discord.json") + ` declares it as type oauth2 (write type: oauth2)`,
		}},
		{file: filepath.Join(corpus, "twilio-api-v2010.json"), creds: []*Credential{cred("accountSid_authToken", BasicAuth, 5)}},
		{file: filepath.Join(corpus, "twilio-api-v2010.json"), creds: []*Credential{cred("accountSid_authToken", Bearer, 5)}, want: []string{
			`declares it as type http, scheme basic (write type: basicAuth)`,
		}},
		{file: filepath.Join(corpus, "kubernetes.json"), creds: []*Credential{cred("BearerToken", APIKey, 2)}},
		{file: "testdata/specs/legacy.json", creds: []*Credential{cred("basicAuth", BasicAuth, 2)}},
		{file: "testdata/specs/legacy.json", creds: []*Credential{cred("token", Bearer, 2)}, want: []string{
			`security scheme "token" of spec "api" is not in securityDefinitions of testdata/specs/legacy.json (it has: basicAuth)`,
		}},
		{file: "testdata/specs/payments.yaml", creds: []*Credential{cred("oauth", OpenIDConnect, 2)}, want: []string{
			`is configured as openIdConnect, but components.securitySchemes of testdata/specs/payments.yaml declares it as type oauth2 (write type: oauth2)`,
		}},
		{file: filepath.Join(corpus, "petstore-expanded.yaml"), creds: []*Credential{cred("bearerAuth", Bearer, 2)}, want: []string{
			`(it has no components.securitySchemes)`,
		}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			if _, err := os.Stat(tc.file); err != nil {
				t.Skipf("%s is not here: %v", tc.file, err)
			}
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			s := &Spec{ID: "api", Path: tc.file, File: "specgate.yaml", Security: tc.creds}
			err = s.CheckSecuritySchemes(doc)
			var errs Errors
			if tc.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if !errors.As(err, &errs) || len(errs) != len(tc.want) {
				t.Fatalf("error %v, want %d problems", err, len(tc.want))
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.want[i]) {
					t.Errorf("problem %d = %q, want it to contain %q", i, e.Error(), tc.want[i])
				}
				if e.Pointer == "" || e.Pos.Line == 0 {
					t.Errorf("problem %d has no place in the configuration: %+v", i, e)
				}
			}
		})
	}
}

// Check reports every problem of a configuration at once: a template that
// strict mode refuses does not hide a security scheme the spec lacks.
func TestCheckReportsEveryProblem(t *testing.T) {
	file := filepath.Join("testdata", "check", "strict_schemes.yaml")
	loader := spec.NewLoader(spec.Options{})
	load := func(s *Spec) (*spec.Document, error) { return loader.Load(context.Background(), s.Path) }
	cfg, err := Check(file, Options{Getenv: testEnv}, load)
	var errs Errors
	if cfg != nil || !errors.As(err, &errs) {
		t.Fatalf("Check = %v, %v; want Errors", cfg, err)
	}
	checkProblems(t, file, errs)
	if _, err := Load(file, Options{Getenv: testEnv}); err == nil || strings.Contains(err.Error(), "bearerAuth") {
		t.Errorf("Load checks no spec: %v", err)
	}
	cfg, err = Check(filepath.Join("testdata", "v3", "full.yaml"), Options{Getenv: func(name string) string { return map[string]string{"API_KEY": "key-1"}[name] }}, load)
	if err != nil || cfg == nil {
		t.Errorf("a good configuration: %v", err)
	}
	_, err = Check(file, Options{Getenv: func(string) string { return "k" }}, func(*Spec) (*spec.Document, error) { return nil, errors.New("gone") })
	if err == nil || !strings.HasSuffix(err.Error(), "orders.yaml: gone") {
		t.Errorf("a spec that cannot be read: %v", err)
	}
}
