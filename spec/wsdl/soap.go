package wsdl

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"strings"
)

// SOAP envelope namespaces, which say the version of a message.
const (
	NSEnvelope11 = "http://schemas.xmlsoap.org/soap/envelope/"
	NSEnvelope12 = "http://www.w3.org/2003/05/soap-envelope"
)

// ContentType is the media type of an exchange of a SOAP version: SOAP 1.1
// travels as text/xml, SOAP 1.2 as application/soap+xml (its action a
// parameter of the type, not a SOAPAction header).
func ContentType(version string) string {
	switch version {
	case "1.1":
		return "text/xml"
	case "1.2":
		return "application/soap+xml"
	}
	return ""
}

// VersionOfContentType is the SOAP version a media type stands for, "" for
// one that is neither.
func VersionOfContentType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	}
	switch mt {
	case "text/xml":
		return "1.1"
	case "application/soap+xml":
		return "1.2"
	}
	return ""
}

// EnvelopeVersion reads the SOAP version of a message from the namespace
// of its root Envelope element: "1.1", "1.2", or "" when the body is not a
// SOAP envelope.
func EnvelopeVersion(body []byte) string {
	d := xml.NewDecoder(bytes.NewReader(body))
	for depth := 0; depth < 64; depth++ {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return ""
			}
			return ""
		}
		switch t := tok.(type) {
		case xml.Directive:
			return "" // no DTDs in a message
		case xml.StartElement:
			if t.Name.Local != "Envelope" {
				return ""
			}
			switch t.Name.Space {
			case NSEnvelope11:
				return "1.1"
			case NSEnvelope12:
				return "1.2"
			}
			return ""
		}
	}
	return ""
}

// CheckExchange checks the content type of a SOAP message (an example, a
// mocked or tested request or response) against the SOAP version it must
// have: a binding's, when version is given, else its envelope's. The
// product specification makes a mismatch an error: the content type is
// determined by the SOAP version.
func CheckExchange(version, contentType string, body []byte) error {
	if version == "" {
		version = EnvelopeVersion(body)
	}
	if version == "" {
		return nil
	}
	want := ContentType(version)
	got := VersionOfContentType(contentType)
	if got == version {
		if env := EnvelopeVersion(body); env != "" && env != version {
			return fmt.Errorf("a SOAP %s exchange carries a SOAP %s envelope (%s); its envelope must be in %s", version, env, envelopeNS(env), envelopeNS(version))
		}
		return nil
	}
	mt := strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0])
	if mt == "" {
		return fmt.Errorf("a SOAP %s exchange has no Content-Type; SOAP %s travels as %s", version, version, want)
	}
	return fmt.Errorf("a SOAP %s exchange has Content-Type %s, but SOAP %s travels as %s", version, mt, version, want)
}

func envelopeNS(version string) string {
	if version == "1.2" {
		return NSEnvelope12
	}
	return NSEnvelope11
}

// ContentType is the media type of the binding's exchanges, "" for a
// binding that is not SOAP.
func (b *Binding) ContentType() string { return ContentType(b.SOAPVersion) }
