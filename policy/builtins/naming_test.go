package builtins

import (
	"slices"
	"testing"
)

// TestWordsAndRespell: identifiers are split and respelled as the naming
// library did in Rego (two regex.replace and a regex.split) before the
// builtins replaced it.
func TestWordsAndRespell(t *testing.T) {
	for _, tc := range []struct {
		in                          string
		words                       []string
		camel, pascal, snake, kebab string
	}{
		{"", []string{}, "", "", "", ""},
		{"x", []string{"x"}, "x", "X", "x", "x"},
		{"userAccounts", []string{"user", "Accounts"}, "userAccounts", "UserAccounts", "user_accounts", "user-accounts"},
		{"user_accounts", []string{"user", "accounts"}, "userAccounts", "UserAccounts", "user_accounts", "user-accounts"},
		{"User-Accounts", []string{"User", "Accounts"}, "userAccounts", "UserAccounts", "user_accounts", "user-accounts"},
		{"HTTPServer", []string{"HTTP", "Server"}, "httpServer", "HttpServer", "http_server", "http-server"},
		{"getHTTPResponseCode", []string{"get", "HTTP", "Response", "Code"}, "getHttpResponseCode", "GetHttpResponseCode", "get_http_response_code", "get-http-response-code"},
		{"io.k8s.api.core.v1.Pod", []string{"io", "k8s", "api", "core", "v1", "Pod"}, "ioK8sApiCoreV1Pod", "IoK8sApiCoreV1Pod", "io_k8s_api_core_v1_pod", "io-k8s-api-core-v1-pod"},
		{"2010-04-01", []string{"2010", "04", "01"}, "20100401", "20100401", "2010_04_01", "2010-04-01"},
		{"__x__", []string{"x"}, "x", "X", "x", "x"},
		{"ÄpfelBaum", []string{"pfel", "Baum"}, "pfelBaum", "PfelBaum", "pfel_baum", "pfel-baum"},
		{"a1B2c3", []string{"a1", "B2c3"}, "a1B2c3", "A1B2c3", "a1_b2c3", "a1-b2c3"},
		{"ABC", []string{"ABC"}, "abc", "Abc", "abc", "abc"},
		{"ABCdef", []string{"AB", "Cdef"}, "abCdef", "AbCdef", "ab_cdef", "ab-cdef"},
		{"ABCDef", []string{"ABC", "Def"}, "abcDef", "AbcDef", "abc_def", "abc-def"},
		{"already_snake_case", []string{"already", "snake", "case"}, "alreadySnakeCase", "AlreadySnakeCase", "already_snake_case", "already-snake-case"},
		{"kebab-case-name", []string{"kebab", "case", "name"}, "kebabCaseName", "KebabCaseName", "kebab_case_name", "kebab-case-name"},
		{"PascalCase", []string{"Pascal", "Case"}, "pascalCase", "PascalCase", "pascal_case", "pascal-case"},
		{"camelCase", []string{"camel", "Case"}, "camelCase", "CamelCase", "camel_case", "camel-case"},
		{"X-RateLimit-Limit", []string{"X", "Rate", "Limit", "Limit"}, "xRateLimitLimit", "XRateLimitLimit", "x_rate_limit_limit", "x-rate-limit-limit"},
		{"$ref", []string{"ref"}, "ref", "Ref", "ref", "ref"},
		{"@type", []string{"type"}, "type", "Type", "type", "type"},
		{"v1beta1", []string{"v1beta1"}, "v1beta1", "V1beta1", "v1beta1", "v1beta1"},
		{"APIKey", []string{"API", "Key"}, "apiKey", "ApiKey", "api_key", "api-key"},
		{"getAPIKeys", []string{"get", "API", "Keys"}, "getApiKeys", "GetApiKeys", "get_api_keys", "get-api-keys"},
		{"OAuth2Token", []string{"O", "Auth2", "Token"}, "oAuth2Token", "OAuth2Token", "o_auth2_token", "o-auth2-token"},
		{"a--b__c  d", []string{"a", "b", "c", "d"}, "aBCD", "ABCD", "a_b_c_d", "a-b-c-d"},
		{"日本語Name", []string{"Name"}, "name", "Name", "name", "name"},
		{"URLs", []string{"URLs"}, "urls", "Urls", "urls", "urls"},
		{"iOS", []string{"i", "OS"}, "iOs", "IOs", "i_os", "i-os"},
		{"x-amz-date", []string{"x", "amz", "date"}, "xAmzDate", "XAmzDate", "x_amz_date", "x-amz-date"},
	} {
		if got := words(tc.in); !slices.Equal(got, tc.words) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.words)
		}
		for style, want := range map[string]string{"camel": tc.camel, "pascal": tc.pascal, "snake": tc.snake, "kebab": tc.kebab} {
			if got, _ := respell(tc.in, style); got != want {
				t.Errorf("respell(%q, %s) = %q, want %q", tc.in, style, got, want)
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

// TestCaseOf: identifiers are judged as style.case_of judged them when it
// was written in Rego (an else-chain of regex.match); "" is undefined.
func TestCaseOf(t *testing.T) {
	for id, want := range map[string]string{
		"": "other", "list": "", "list2": "", "listPets": "camel", "ListPets": "pascal", "List": "pascal",
		"list_pets": "snake", "list-pets": "kebab", "list_Pets": "other", "2010-04-01": "kebab",
		"beta_createResponse": "other", "find pet": "other", "a1B2c3": "camel", "x": "", "X": "pascal",
		"_x": "other", "x_": "other", "x-": "other", "-x": "other", "HTTPServer": "pascal", "getHTTP": "camel",
		"get.pets": "other", "repos/get-content": "other", "ÄpfelBaum": "other", "listPets2": "camel",
		"list__pets": "other", "list--pets": "other", "a-b_c": "other",
	} {
		if got, ok := caseOf(id); got != want || ok != (want != "") {
			t.Errorf("caseOf(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
	if got := evalX(t, `x := specgate.case_of("listPets")`); got != `"camel"` {
		t.Errorf(`specgate.case_of("listPets") = %s`, got)
	}
	if got := evalX(t, `x := specgate.case_of("list")`); got != "undefined" {
		t.Errorf(`specgate.case_of("list") = %s, want undefined`, got)
	}
}
