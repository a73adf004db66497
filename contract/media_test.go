package contract_test

import (
	"testing"

	"github.com/specgate/specgate/contract"
)

func TestNegotiate(t *testing.T) {
	cases := []struct {
		accept  string
		offered []string
		want    string // "" when nothing is acceptable
	}{
		{"", []string{"application/json", "application/xml"}, "application/json"},
		{"application/xml", []string{"application/json", "application/xml"}, "application/xml"},
		{"application/*", []string{"text/plain", "application/xml"}, "application/xml"},
		{"*/*", []string{"text/plain", "application/json"}, "text/plain"},
		// q-values: the highest wins; q=0 refuses.
		{"application/json;q=0.5, application/xml", []string{"application/json", "application/xml"}, "application/xml"},
		{"application/json; q=0, */*", []string{"application/json", "text/csv"}, "text/csv"},
		{"application/json;q=0", []string{"application/json"}, ""},
		// The most specific range decides an offer's q.
		{"text/*;q=0.3, text/html;q=0.7, */*;q=0.1", []string{"text/plain", "text/html", "image/png"}, "text/html"},
		{"text/*;q=0.3, text/plain;q=0", []string{"text/plain", "text/csv"}, "text/csv"},
		// A named type beats a wildcard at equal q.
		{"*/*, application/json", []string{"text/html", "application/json"}, "application/json"},
		// Offers may be ranges themselves, as content keys can be.
		{"application/json", []string{"application/*"}, "application/*"},
		{"image/png", []string{"*/*"}, "*/*"},
		// Parameters of Accept ranges must match the offer's.
		{"application/json; version=2", []string{"application/json; version=1", "application/json; version=2"}, "application/json; version=2"},
		{"text/plain; charset=utf-8", []string{"text/plain"}, "text/plain"},
		{"application/problem+json", []string{"application/json"}, ""},
		// An offer naming the parameters an Accept range names wins over
		// the same type without them (kubernetes' watch endpoints offer
		// application/json and application/json;stream=watch); one without
		// them is still acceptable.
		{"application/json;stream=watch", []string{"application/json", "application/json;stream=watch"}, "application/json;stream=watch"},
		{"application/json; stream=watch", []string{"application/json;stream=watch", "application/json"}, "application/json;stream=watch"},
		{"application/json;stream=watch", []string{"application/json"}, "application/json"},
		{"application/json", []string{"application/json", "application/json;stream=watch"}, "application/json"},
		{"text/plain;format=flowed, text/plain;format=fixed;q=0.4", []string{"text/plain;format=fixed", "text/plain;format=flowed"}, "text/plain;format=flowed"},
		// A range without parameters speaks of an offer without them more
		// closely than one whose parameters the offer leaves out.
		{"application/json;stream=watch, application/json;q=0.5, text/csv;q=0.7", []string{"application/json", "text/csv"}, "text/csv"},
		// Case, spaces and junk.
		{"Application/JSON", []string{"application/json"}, "application/json"},
		{"garbage, application/xml", []string{"application/json", "application/xml"}, "application/xml"},
		{"garbage", []string{"application/json"}, "application/json"},
		{"text/html", nil, ""},
	}
	for _, tc := range cases {
		got, ok := contract.Negotiate(tc.accept, tc.offered)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Negotiate(%q, %q) = %q, %v; want %q", tc.accept, tc.offered, got, ok, tc.want)
		}
	}
}

func TestMatchMediaType(t *testing.T) {
	cases := []struct {
		contentType string
		declared    []string
		want        string
	}{
		{"application/json", []string{"application/json"}, "application/json"},
		{"application/json; charset=utf-8", []string{"application/json"}, "application/json"},
		{"APPLICATION/JSON", []string{"application/json"}, "application/json"},
		{"text/plain", []string{"*/*", "text/*", "text/plain"}, "text/plain"},
		{"text/csv", []string{"*/*", "text/*", "text/plain"}, "text/*"},
		{"image/png", []string{"*/*", "text/*"}, "*/*"},
		{"application/xml", []string{"application/json"}, ""},
		{"text/plain; charset=utf-8", []string{"text/plain", "text/plain; charset=utf-8"}, "text/plain; charset=utf-8"},
		// A declared entry names no parameter the message lacks when
		// another fits as written (zuora declares both, with an example
		// under one and a schema under the other).
		{"application/json", []string{"application/json", "application/json; charset=utf-8"}, "application/json"},
		{"application/json", []string{"application/json; charset=utf-8", "application/json"}, "application/json"},
		{"application/json", []string{"application/json; charset=utf-8"}, "application/json; charset=utf-8"},
		{"application/json", []string{"application/json; charset=utf-8", "application/*"}, "application/json; charset=utf-8"},
		{"text/plain; charset=latin1", []string{"text/plain; charset=utf-8"}, ""},
		{"text/plain; charset=latin1", []string{"text/plain; charset=utf-8", "text/*"}, "text/*"},
		{"multipart/form-data; boundary=xyz", []string{"multipart/form-data"}, "multipart/form-data"},
		{"not a media type", []string{"*/*"}, ""},
		{"", []string{"*/*"}, ""},
	}
	for _, tc := range cases {
		got, ok := contract.MatchMediaType(tc.contentType, tc.declared)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("MatchMediaType(%q, %q) = %q, %v; want %q", tc.contentType, tc.declared, got, ok, tc.want)
		}
	}
}
