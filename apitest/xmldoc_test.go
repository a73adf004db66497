package apitest

import "testing"

// Documents are compared as documents: what differs is named by the
// element's path and what was expected and found there.
func TestCompareXMLDocuments(t *testing.T) {
	const want = `<?xml version="1.0"?>
<!-- the catalogue -->
<c:catalog xmlns:c="urn:c" version="2">
  <book id="1"><title>Dune</title></book>
  <book id="2"><title>Emma</title></book>
</c:catalog>`
	for _, tt := range []struct {
		name, got, diff string
	}{
		{"the same, prefixed and spaced otherwise", `<x:catalog version="2" xmlns:x="urn:c"><book id="1"><title> Dune </title></book><book id="2"><title>Emma</title></book></x:catalog>`, ""},
		{"another root", `<catalog version="2"/>`, `/: expected element catalog (urn:c), found element catalog (no namespace)`},
		{"an attribute missing", `<catalog xmlns="urn:c"><book id="1"><title>Dune</title></book><book id="2"><title>Emma</title></book></catalog>`, `/catalog: attribute version: expected "2", found none`},
		{"an attribute more", `<catalog xmlns="urn:c" version="2" lang="en"><book id="1"><title>Dune</title></book><book id="2"><title>Emma</title></book></catalog>`, `/catalog: unexpected attribute lang="en"`},
		{"other text in the second of two", `<c:catalog xmlns:c="urn:c" version="2"><book id="1"><title>Dune</title></book><book id="2"><title>Persuasion</title></book></c:catalog>`, `/catalog/book[2]/title: text: expected "Emma", found "Persuasion"`},
		{"an element more", `<c:catalog xmlns:c="urn:c" version="2"><book id="1"><title>Dune</title></book><book id="2"><title>Emma</title></book><book id="3"/></c:catalog>`, `/catalog: expected the end of catalog, found element book`},
		{"another element", `<c:catalog xmlns:c="urn:c" version="2"><book id="1"><name>Dune</name></book><book id="2"><title>Emma</title></book></c:catalog>`, `/catalog/book[1]: expected element title, found element name`},
		{"not a document", `Dune, Emma`, `the body is not an XML document: no root element`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, err := parseXMLDocument([]byte(want))
			if err != nil {
				t.Fatal(err)
			}
			if got := compareXMLDocuments(w, []byte(tt.got)); got != tt.diff {
				t.Errorf("got  %q\nwant %q", got, tt.diff)
			}
		})
	}
}
