package builtins

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
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

// wordsByRegexp is how words split identifiers before it scanned bytes:
// the reference its scan is checked against.
func wordsByRegexp(s string) []string {
	s = regexp.MustCompile(`([a-z0-9])([A-Z])`).ReplaceAllString(s, "${1} ${2}")
	s = regexp.MustCompile(`([A-Z]+)([A-Z][a-z]{2,})`).ReplaceAllString(s, "${1} ${2}")
	var out []string
	for _, w := range regexp.MustCompile(`[^A-Za-z0-9]+`).Split(s, -1) {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// TestWordsAsRegexp: the byte scan splits every identifier as the regular
// expressions did, on random strings over the characters that matter
// (cases, digits, separators, a multi-byte letter, an invalid byte).
func TestWordsAsRegexp(t *testing.T) {
	alphabet := []string{"a", "b", "z", "A", "B", "Z", "0", "9", "_", "-", ".", " ", "Ä", "\xff"}
	for _, s := range randomStrings(alphabet, 12, 1) {
		if got, want := words(s), wordsByRegexp(s); !slices.Equal(got, want) {
			t.Fatalf("words(%q) = %q, want %q", s, got, want)
		}
	}
}

// randomStrings are 20,000 strings of up to max-1 pieces of the alphabet,
// the same for a seed.
func randomStrings(alphabet []string, max int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, seed+1))
	out := make([]string, 20000)
	for i := range out {
		var b strings.Builder
		for range r.IntN(max) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		out[i] = b.String()
	}
	return out
}

// TestTemplatesAsRegexp: specgate.templates lists what the regular
// expression the rules used before it lists, on fixed cases and on random
// strings of braces, letters and a byte that is not UTF-8.
func TestTemplatesAsRegexp(t *testing.T) {
	re := regexp.MustCompile(`\{([^{}]*)\}`)
	byRegexp := func(s string) []string {
		var out []string
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		return out
	}
	for _, c := range []struct {
		s    string
		want []string
	}{
		{"/users/{userId}/posts/{postId}", []string{"userId", "postId"}},
		{"/a/{}/b", []string{""}},
		{"/a/{{id}}", []string{"id"}},
		{"/a/{x{y}", []string{"y"}},
		{"/a/{x}y}", []string{"x"}},
		{"/a/{open", nil},
		{"/plain", nil},
	} {
		if got := templates(c.s); !slices.Equal(got, c.want) {
			t.Errorf("templates(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	for _, s := range randomStrings([]string{"{", "}", "a", "Z", "-", "/", "é", "\xff"}, 14, 3) {
		if got, want := templates(s), byRegexp(s); !slices.Equal(got, want) {
			t.Fatalf("templates(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestParts: namespaced names are judged and respelled part by part, as
// operation-id-casing judged them with regex.split, specgate.case_of and
// one regular expression per convention before the builtins.
func TestParts(t *testing.T) {
	for _, tc := range []struct {
		name, seps, class    string // class "" is undefined
		fits                 map[string]bool
		camel, pascal, snake string
	}{
		{"users.user.ListUser", "/.", "pascal", map[string]bool{"camel": false, "pascal": false}, "users.user.listUser", "Users.User.ListUser", "users.user.list_user"},
		{"repos/get-content", "/.", "kebab", map[string]bool{"kebab": true, "snake": false}, "repos/getContent", "Repos/GetContent", "repos/get_content"},
		{"pets.listPets", "/.", "camel", map[string]bool{"camel": true, "pascal": false}, "pets.listPets", "Pets.ListPets", "pets.list_pets"},
		{"Pets.ListPets", "/.", "pascal", map[string]bool{"pascal": true, "camel": false}, "pets.listPets", "Pets.ListPets", "pets.list_pets"},
		{"users.list", "/.", "", map[string]bool{"camel": true, "snake": true, "kebab": true, "pascal": false}, "users.list", "Users.List", "users.list"},
		{"", "/.", "", map[string]bool{"camel": true, "pascal": true}, "", "", ""},
		{"//..", "/.", "", map[string]bool{"snake": true}, "//..", "//..", "//.."},
		{"a.b_C", "/.", "mixed", map[string]bool{"snake": false}, "a.bC", "A.BC", "a.b_c"},
		{"find pet", "/.", "mixed", map[string]bool{"camel": false}, "findPet", "FindPet", "find_pet"},
		{"list_pets.x-y", "/.", "mixed", map[string]bool{"snake": false, "kebab": false}, "listPets.xY", "ListPets.XY", "list_pets.x_y"},
		{"a.b", "", "mixed", map[string]bool{"camel": false}, "aB", "AB", "a_b"},
		{"Get.Count.users-c5db", "/.", "mixed", map[string]bool{"pascal": false}, "get.count.usersC5db", "Get.Count.UsersC5db", "get.count.users_c5db"},
		{"x/-/y", "/.", "mixed", map[string]bool{"kebab": false}, "x//y", "X//Y", "x//y"},
	} {
		class, ok := partsCase(tc.name, tc.seps)
		if class != tc.class || ok != (tc.class != "") {
			t.Errorf("partsCase(%q, %q) = %q, %v; want %q", tc.name, tc.seps, class, ok, tc.class)
		}
		for conv, want := range tc.fits {
			if got, _ := partsFit(tc.name, conv, tc.seps); got != want {
				t.Errorf("partsFit(%q, %s, %q) = %v, want %v", tc.name, conv, tc.seps, got, want)
			}
		}
		for conv, want := range map[string]string{"camel": tc.camel, "pascal": tc.pascal, "snake": tc.snake} {
			if got, _ := respellParts(tc.name, conv, tc.seps); got != want {
				t.Errorf("respellParts(%q, %s, %q) = %q, want %q", tc.name, conv, tc.seps, got, want)
			}
		}
	}
	for query, want := range map[string]string{
		`x := specgate.parts_case("repos/get-content", "/.")`:             `"kebab"`,
		`x := specgate.parts_case("users.list", "/.")`:                    `undefined`,
		`x := specgate.parts_fit("users.ListUsers", "pascal", "/.")`:      `false`,
		`x := specgate.parts_fit("Users.ListUsers", "pascal", "/.")`:      `true`,
		`x := specgate.respell_parts("repos/get_content", "kebab", "/.")`: `"repos/get-content"`,
	} {
		if got := evalX(t, query); got != want {
			t.Errorf("%s = %s, want %s", query, got, want)
		}
	}
	for _, query := range []string{
		`x := specgate.parts_fit("a", "title", "/.")`,
		`x := specgate.respell_parts("a", "title", "/.")`,
		`x := specgate.parts_case(1, "/.")`,
	} {
		_, err := rego.New(rego.Query(query), rego.StrictBuiltinErrors(true)).Eval(context.Background())
		if err == nil {
			t.Errorf("%s: no error", query)
		}
	}
}
