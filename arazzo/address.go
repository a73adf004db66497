package arazzo

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
)

// AddressFrom says where a source description's address comes from.
type AddressFrom string

const (
	// FromSource is Options.BaseURLs: the address given for the source.
	FromSource AddressFrom = "source"
	// FromBase is Options.BaseURL: the address of every source.
	FromBase AddressFrom = "base"
	// FromServers is the source's first server URL with a host.
	FromServers AddressFrom = "servers"
	// FromNowhere: there is no address; the steps that call the source
	// fail, saying so.
	FromNowhere AddressFrom = ""
)

// Address is where the requests of a source description go.
type Address struct {
	Source string // the source description's name
	URL    string
	From   AddressFrom
}

// Addresses are where the requests of each source description that a step
// calls go, in the order of the sources.
func (r *Runner) Addresses() []Address {
	called := map[string]bool{}
	for _, w := range r.c.Workflows {
		for _, s := range w.Steps {
			if t, err := resolveTarget(r.c.Description, r.c.Loaded, s); err == nil && t.Operation != nil {
				called[t.Source.Name] = true
			}
		}
	}
	var out []Address
	for _, src := range r.c.Sources {
		ls := r.c.Loaded[src.Name]
		if !called[src.Name] || ls == nil || ls.Doc == nil {
			continue
		}
		a := Address{Source: src.Name}
		switch {
		case r.opts.BaseURLs[src.Name] != "":
			a.URL, a.From = r.opts.BaseURLs[src.Name], FromSource
		case r.opts.BaseURL != "":
			a.URL, a.From = r.opts.BaseURL, FromBase
		default:
			if u := contract.ServerURL(ls.Doc); u != "" {
				a.URL, a.From = u, FromServers
			}
		}
		out = append(out, a)
	}
	return out
}

type base struct{ url, path string }

// baseURL is where a step's request goes: the source's base URL (see
// Options.BaseURL), with the operation's server prefix when it has no
// path; a path, a lone "/" included, replaces the prefix, as in a
// contract test (http://svc/ calls a service mounted at the root).
func (r *Runner) baseURL(t *Target, ct *contract.Contract) (base, error) {
	b := r.opts.BaseURLs[t.Source.Name]
	if b == "" {
		b = r.opts.BaseURL
	}
	if b == "" {
		if s := contract.ServerURL(t.Source.Doc); s != "" {
			u, _ := url.Parse(s)
			return base{url: s, path: u.Path}, nil
		}
		return base{}, fmt.Errorf("no base URL for source description %q: give --testBaseURL, or its address in specgate.yaml", t.Source.Name)
	}
	u, ok := httpx.ParseHTTPURL(b)
	if !ok {
		return base{}, fmt.Errorf("base URL %q of source description %q is not an http(s) URL with a host", b, t.Source.Name)
	}
	b = strings.TrimRight(b, "/")
	if u.Path == "" {
		prefix := strings.TrimRight(ct.Prefix(t.Operation), "/")
		return base{url: b + prefix, path: prefix}, nil
	}
	return base{url: b, path: u.Path}, nil
}
