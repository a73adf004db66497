package builtins

import (
	"context"
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// regoNaming is how the naming library spelled words in Rego before the
// builtins: the builtins must give the same results.
const regoNaming = `package naming

words(s) := [w | some w in regex.split(` + "`[^A-Za-z0-9]+`" + `, _humps(s)); w != ""]

_humps(s) := regex.replace(
	regex.replace(s, ` + "`([a-z0-9])([A-Z])`" + `, "${1} ${2}"),
	` + "`([A-Z]+)([A-Z][a-z]{2,})`" + `, "${1} ${2}",
)

kebab(s) := concat("-", [lower(w) | some w in words(s)])

snake(s) := concat("_", [lower(w) | some w in words(s)])

camel(s) := concat("", [_camel_word(i, w) | some i, w in words(s)])

pascal(s) := concat("", [capitalize(w) | some w in words(s)])

_camel_word(0, w) := lower(w)

_camel_word(i, w) := capitalize(w) if i > 0

capitalize(w) := concat("", [upper(substring(w, 0, 1)), lower(substring(w, 1, -1))])

all(s) := {"words": words(s), "camel": camel(s), "pascal": pascal(s), "snake": snake(s), "kebab": kebab(s)}
`

func TestNamingBuiltinsSpellAsRego(t *testing.T) {
	inputs := []string{
		"", "x", "userAccounts", "user_accounts", "User-Accounts", "HTTPServer", "getHTTPResponseCode",
		"io.k8s.api.core.v1.Pod", "2010-04-01", "__x__", "ÄpfelBaum", "a1B2c3", "ABC", "ABCdef", "ABCDef",
		"already_snake_case", "kebab-case-name", "PascalCase", "camelCase", "X-RateLimit-Limit", "$ref", "@type",
		"v1beta1", "APIKey", "getAPIKeys", "OAuth2Token", "a--b__c  d", "日本語Name", "URLs", "iOS", "x-amz-date",
	}
	q, err := rego.New(rego.Module("naming.rego", regoNaming), rego.Query("x := data.naming.all(input.s)")).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		rs, err := q.Eval(context.Background(), rego.EvalInput(map[string]any{"s": in}))
		if err != nil {
			t.Fatal(err)
		}
		want := rs[0].Bindings["x"].(map[string]any)
		var wantWords []string
		for _, w := range want["words"].([]any) {
			wantWords = append(wantWords, w.(string))
		}
		if got := words(in); !slices.Equal(got, wantWords) {
			t.Errorf("words(%q) = %q, Rego gives %q", in, got, wantWords)
		}
		for _, style := range []string{"camel", "pascal", "snake", "kebab"} {
			if got, _ := respell(in, style); got != want[style] {
				t.Errorf("respell(%q, %s) = %q, Rego gives %q", in, style, got, want[style])
			}
		}
	}
	if _, ok := respell("x", "title"); ok {
		t.Error("an unknown style was accepted")
	}
}

func TestOperationName(t *testing.T) {
	for query, want := range map[string]string{
		`x := specgate.operation_name({"method": "get", "path": "/pets/{id}", "webhook": "", "callback": ""})`:              `"GET /pets/{id}"`,
		`x := specgate.operation_name({"method": "post", "path": "newPet", "webhook": "newPet", "callback": ""})`:           `"POST webhook newPet"`,
		`x := specgate.operation_name({"method": "post", "webhook": "newPet"})`:                                             `"POST webhook newPet"`,
		`x := specgate.operation_name({"method": "post", "path": "{$request.body#/url}", "webhook": "", "callback": "on"})`: `"POST {$request.body#/url} (callback on)"`,
		`x := specgate.operation_name({"method": "delete", "path": "/a"})`:                                                  `"DELETE /a"`,
		`x := specgate.operation_name({"path": "/a"})`:                                                                      `undefined`,
		`x := specgate.operation_name({"method": "get", "path": 1})`:                                                        `undefined`,
		`x := specgate.operation_name("GET /a")`:                                                                            `undefined`,
	} {
		if got := evalX(t, query); got != want {
			t.Errorf("%s = %s, want %s", query, got, want)
		}
	}
}

// regoCaseOf is style.case_of as it was written in Rego.
const regoCaseOf = `package c

case_of(s) := "snake" if {
	contains(s, "_")
	regex.match(` + "`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`" + `, s)
} else := "kebab" if {
	contains(s, "-")
	regex.match(` + "`^[a-z0-9]+(-[a-z0-9]+)*$`" + `, s)
} else := "camel" if {
	regex.match(` + "`^[a-z][a-z0-9]*[A-Z]`" + `, s)
	regex.match(` + "`^[a-z][a-zA-Z0-9]*$`" + `, s)
} else := "pascal" if {
	regex.match(` + "`^[A-Z][a-zA-Z0-9]*$`" + `, s)
} else := "other" if {
	not regex.match(` + "`^[a-z][a-z0-9]*$`" + `, s)
}

all := {s: c | some s in input; c := case_of(s)}
`

func TestCaseOfSpellsAsRego(t *testing.T) {
	ids := []string{
		"", "list", "list2", "listPets", "ListPets", "List", "list_pets", "list-pets", "list_Pets", "2010-04-01",
		"beta_createResponse", "find pet", "a1B2c3", "x", "X", "_x", "x_", "x-", "-x", "HTTPServer", "getHTTP",
		"get.pets", "repos/get-content", "ÄpfelBaum", "listPets2", "list__pets", "list--pets", "a-b_c",
	}
	q, err := rego.New(rego.Module("c.rego", regoCaseOf), rego.Query("x := data.c.all")).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rs, err := q.Eval(context.Background(), rego.EvalInput(ids))
	if err != nil {
		t.Fatal(err)
	}
	want := rs[0].Bindings["x"].(map[string]any)
	for _, id := range ids {
		got, ok := caseOf(id)
		w, wok := want[id]
		if ok != wok || (ok && got != w) {
			t.Errorf("caseOf(%q) = %q, %v; Rego says %v, %v", id, got, ok, w, wok)
		}
	}
	if got := evalX(t, `x := specgate.case_of("listPets")`); got != `"camel"` {
		t.Errorf(`specgate.case_of("listPets") = %s`, got)
	}
	if got := evalX(t, `x := specgate.case_of("list")`); got != "undefined" {
		t.Errorf(`specgate.case_of("list") = %s, want undefined`, got)
	}
}
