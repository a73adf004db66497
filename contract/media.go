package contract

import (
	"strconv"
	"strings"
)

// mediaRange is a parsed media type or media range: type and subtype in
// lower case ("*" for a wildcard), its parameters in lower-case names, and
// the q-value of an Accept entry (1 when absent).
type mediaRange struct {
	typ, sub string
	params   []mediaParam
	q        float64
}

type mediaParam struct{ name, value string }

// parseMediaRange reads "type/subtype; name=value; q=0.5". It does not
// allocate for a media type without parameters written in lower case.
func parseMediaRange(s string) (mediaRange, bool) {
	m := mediaRange{q: 1}
	head, rest, _ := strings.Cut(s, ";")
	head = strings.TrimSpace(head)
	typ, sub, ok := strings.Cut(head, "/")
	typ, sub = strings.TrimSpace(typ), strings.TrimSpace(sub)
	if !ok || !isToken(typ) || !isToken(sub) || (typ == "*" && sub != "*") {
		return m, false
	}
	m.typ, m.sub = lower(typ), lower(sub)
	for rest != "" {
		var p string
		p, rest, _ = cutUnquoted(rest, ';')
		name, value, ok := strings.Cut(p, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = strings.ReplaceAll(value[1:len(value)-1], `\`, "")
		}
		name = lower(name)
		if name == "q" {
			if q, err := strconv.ParseFloat(value, 64); err == nil && q >= 0 && q <= 1 {
				m.q = q
			}
			continue
		}
		m.params = append(m.params, mediaParam{name, value})
	}
	return m, true
}

// cutUnquoted is strings.Cut that skips separators inside double quotes.
func cutUnquoted(s string, sep byte) (before, after string, found bool) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// lower is strings.ToLower without an allocation when s is already lower
// case, as media types nearly always are.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

func (m mediaRange) param(name string) string {
	for _, p := range m.params {
		if p.name == name {
			return p.value
		}
	}
	return ""
}

// essence is "type/subtype" without parameters.
func (m mediaRange) essence() string { return m.typ + "/" + m.sub }

// specificity orders ranges from the most general (*/*) to the most
// precise (a type and subtype with parameters).
func (m mediaRange) specificity() int {
	switch {
	case m.typ == "*":
		return 0
	case m.sub == "*":
		return 1
	case len(m.params) == 0:
		return 2
	}
	return 3
}

// fit ranks how a declared range m fits the media type t it covers: by
// specificity, except that a type and subtype whose parameters t does not
// name all rank below the same type without them (application/json beats
// application/json; charset=utf-8 for a message that names no charset).
func (m mediaRange) fit(t mediaRange) int {
	s := m.specificity()
	if s < 2 {
		return s
	}
	for _, p := range m.params {
		if t.param(p.name) == "" {
			return 2
		}
	}
	return s + 1
}

// covers reports whether the range m includes the media type t (which may
// itself be a range: then the two must overlap). Parameters of m must all
// be present in t with the same value (charset compared without case).
func (m mediaRange) covers(t mediaRange) bool {
	if m.typ != "*" && t.typ != "*" && m.typ != t.typ {
		return false
	}
	if m.sub != "*" && t.sub != "*" && m.sub != t.sub {
		return false
	}
	for _, p := range m.params {
		if v := t.param(p.name); v != "" && !strings.EqualFold(v, p.value) {
			return false
		}
	}
	return true
}

// overlaps reports whether two types or ranges share a media type,
// ignoring parameters.
func (m mediaRange) overlaps(t mediaRange) bool {
	return (m.typ == "*" || t.typ == "*" || m.typ == t.typ) && (m.sub == "*" || t.sub == "*" || m.sub == t.sub)
}

// suffix is the structured syntax suffix of the subtype ("json" for
// application/vnd.api+json), or "".
func (m mediaRange) suffix() string {
	if i := strings.LastIndexByte(m.sub, '+'); i >= 0 {
		return m.sub[i+1:]
	}
	return ""
}

// MatchMediaType returns the entry of declared (media types or ranges as
// a document writes them as keys of content) that applies to contentType,
// the media type a message carries: the most specific one, as the OpenAPI
// specification says ("text/plain" overrides "text/*", which overrides
// "*/*"). Parameters of contentType are ignored unless a declared entry
// names them, which then wins over one that does not; an entry naming
// parameters that contentType lacks loses to one of the same type that
// names none. A type without a parameter that an entry names is that
// entry's type: whether a parameter's absence means another type is for
// the media type's registration to say (RFC 9110, 8.3.1), and
// application/json's defines none (RFC 8259, 11), so a bare
// application/json message is kubernetes' declared
// application/json;stream=watch, while text/plain;charset=latin1 is not
// text/plain;charset=utf-8.
func MatchMediaType(contentType string, declared []string) (string, bool) {
	ct, ok := parseMediaRange(contentType)
	if !ok {
		return "", false
	}
	best, bestSpec := -1, -1
	for i, d := range declared {
		dm, ok := parseMediaRange(d)
		if !ok || !dm.covers(ct) {
			continue
		}
		if s := dm.fit(ct); s > bestSpec {
			best, bestSpec = i, s
		}
	}
	if best < 0 {
		return "", false
	}
	return declared[best], true
}

// Negotiate picks, among offered media types (or ranges, as keys of a
// response's content), the one to answer a request whose Accept header is
// accept, following RFC 9110 section 12.5.1: each offer takes the q-value
// of the most specific Accept range that covers it, offers with q=0 are
// refused, and the highest q wins. Ties go to the offer matched by the
// more specific range (application/json named outright beats */*), then
// to the first offered. An empty or unreadable Accept accepts anything:
// the first offer wins. ok is false when nothing offered is acceptable
// (a server answers 406) or nothing is offered.
func Negotiate(accept string, offered []string) (string, bool) {
	if len(offered) == 0 {
		return "", false
	}
	ranges := parseAccept(accept)
	if len(ranges) == 0 {
		return offered[0], true
	}
	best, bestQ, bestSpec := -1, 0.0, -1
	for i, o := range offered {
		om, ok := parseMediaRange(o)
		if !ok {
			continue
		}
		q, spec := acceptQ(ranges, om)
		if q <= 0 {
			continue
		}
		if q > bestQ || (q == bestQ && spec > bestSpec) {
			best, bestQ, bestSpec = i, q, spec
		}
	}
	if best < 0 {
		return "", false
	}
	return offered[best], true
}

// parseAccept reads the ranges of an Accept header, skipping unreadable
// entries.
func parseAccept(accept string) []mediaRange {
	if strings.TrimSpace(accept) == "" {
		return nil
	}
	var out []mediaRange
	for accept != "" {
		var entry string
		entry, accept, _ = cutUnquoted(accept, ',')
		if m, ok := parseMediaRange(entry); ok {
			out = append(out, m)
		}
	}
	return out
}

// acceptQ is the q-value the Accept ranges give to an offered type: that
// of the most specific range covering it, with how closely it fits. A
// range with parameters covers an offer whose parameters do not say
// otherwise, and fits one that names them all (with the same values)
// better than one that leaves them out: Accept application/json;
// stream=watch picks application/json;stream=watch among the two that
// kubernetes offers, and still takes application/json alone, as
// MatchMediaType reads a message's type against the declared ones (RFC
// 8259 gives application/json no parameter whose absence would mean
// another type). (0, -1) when no range covers the offer.
func acceptQ(ranges []mediaRange, offer mediaRange) (float64, int) {
	q, spec := 0.0, -1
	for _, r := range ranges {
		if !r.overlaps(offer) {
			continue
		}
		if len(r.params) > 0 && !r.covers(offer) {
			continue
		}
		s := acceptFit(r, offer)
		if s > spec {
			q, spec = r.q, s
		}
	}
	return q, spec
}

// acceptFit ranks how an Accept range fits an offer it covers: */* (0),
// type/* (2), type/subtype without parameters (4), with parameters the
// offer leaves out (3: below the same type without them, which speaks of
// the offer as it is), with parameters the offer names alike (6).
func acceptFit(r, offer mediaRange) int {
	s := r.specificity()
	if s < 3 {
		return 2 * s
	}
	for _, p := range r.params {
		if offer.param(p.name) == "" {
			return 3
		}
	}
	return 6
}

// family is the codec family of a media type.
type family uint8

const (
	famOther family = iota
	famJSON
	famForm
	famMultipart
	famText
	famXML
	famBinary
)

// familyOf sorts a media type (or range) into the family of codec that
// reads it.
func familyOf(m mediaRange) family {
	switch {
	case m.sub == "json" || m.suffix() == "json":
		return famJSON
	case m.typ == "application" && m.sub == "x-www-form-urlencoded":
		return famForm
	case m.typ == "multipart":
		return famMultipart
	case m.sub == "xml" || m.suffix() == "xml":
		return famXML
	case m.typ == "text":
		return famText
	case m.typ == "image" || m.typ == "audio" || m.typ == "video" || m.typ == "font",
		m.typ == "application" && (m.sub == "octet-stream" || m.sub == "pdf" || m.sub == "zip" || m.sub == "gzip"):
		return famBinary
	}
	return famOther
}
