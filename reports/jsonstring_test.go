package reports

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendJSONString: strings are quoted exactly as encoding/json quotes
// them with HTML escaping off.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
		"caf\u00e9 \u65e5\u672c \U0001F600", "line\u2028para\u2029end", "bad \xff\xfe utf8 \xe2\x82", "\xed\xa0\x80 surrogate",
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(appendJSONString(nil, s)); got != string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("appendJSONString(%q) = %s, encoding/json gives %s", s, got, want.Bytes())
		}
	}
}
