package contract_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/specgate/specgate/contract"
)

func TestReadBody(t *testing.T) {
	cases := []struct {
		body  string
		limit int64
		err   string
	}{
		{"12345", 5, ""},
		{"123456", 5, "request body is larger than 5 bytes"},
		{"", 5, ""},
		{strings.Repeat("x", 10000), 0, ""},
	}
	for _, tc := range cases {
		// One byte at a time: the limit holds however the body arrives.
		b, err := contract.ReadBody(iotest.OneByteReader(strings.NewReader(tc.body)), tc.limit)
		switch {
		case tc.err != "":
			var tl *contract.TooLargeError
			if !errors.As(err, &tl) || err.Error() != tc.err || tl.Status() != http.StatusRequestEntityTooLarge {
				t.Errorf("%d bytes, limit %d: %v, want %q", len(tc.body), tc.limit, err, tc.err)
			}
		case err != nil || string(b) != tc.body:
			t.Errorf("%d bytes, limit %d: %d bytes, %v", len(tc.body), tc.limit, len(b), err)
		}
	}
	if _, err := contract.ReadBody(iotest.ErrReader(io.ErrUnexpectedEOF), 10); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a failing reader: %v", err)
	}
}

// TestNewRequestRefusesEarly refuses a request whose Content-Length is
// over the limit before reading it, and reads the raw path and query.
func TestNewRequestRefusesEarly(t *testing.T) {
	r := httptest.NewRequest("POST", "/a%2Fb/c?x=1%202", strings.NewReader(strings.Repeat("x", 100)))
	if _, err := contract.NewRequest(r, 10); err == nil || err.Error() != "request body is larger than 10 bytes" {
		t.Errorf("err = %v", err)
	}
	r = httptest.NewRequest("POST", "/a%2Fb/c?x=1%202", strings.NewReader("body"))
	r.Header.Set("X-A", "1")
	req, err := contract.NewRequest(r, 10)
	if err != nil || req.Method != "POST" || req.Path != "/a%2Fb/c" || req.RawQuery != "x=1%202" || string(req.Body) != "body" || req.Header.Get("X-A") != "1" {
		t.Errorf("%+v %v", req, err)
	}
}
