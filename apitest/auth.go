package apitest

import (
	"encoding/base64"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/spec"
)

// credentials are the raw credentials of a spec's security schemes, by
// scheme name, and where each came from. The product specification's
// sources, the first that has one winning: the example's own header (see
// example.go), specgate.yaml's securitySchemes, an environment variable
// named after the scheme; without any, a placeholder is sent, so that a
// service whose test setup checks only that credentials are present and
// well formed can be tested.
type credentials struct {
	values  map[string]string
	sources map[string]string
}

// Credential sources.
const (
	fromConfig      = "specgate.yaml"
	fromEnvironment = "environment"
	fromPlaceholder = "placeholder"
)

// resolveCredentials reads the credential of every security scheme of a
// spec. A configured scheme the spec does not declare is an error.
func resolveCredentials(sp *specPlan, configured map[string]string, getenv func(string) string) (*credentials, error) {
	c := &credentials{values: map[string]string{}, sources: map[string]string{}}
	var names []string
	for name := range sp.schemes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range slices.Sorted(maps.Keys(configured)) {
		if sp.schemes[name] == nil {
			where := "components.securitySchemes"
			if sp.doc.Format == spec.Swagger {
				where = "securityDefinitions"
			}
			has := "it has none"
			if len(names) > 0 {
				has = "it has " + strings.Join(names, ", ")
			}
			return nil, fmt.Errorf("credentials are configured for security scheme %q, which %s does not declare in %s (%s)", name, sp.name, where, has)
		}
	}
	for _, name := range names {
		s := sp.schemes[name]
		if v, ok := configured[name]; ok {
			c.values[name], c.sources[name] = v, fromConfig
			continue
		}
		if v := getenv(name); v != "" {
			c.values[name], c.sources[name] = v, fromEnvironment
			continue
		}
		if v := examples.PlaceholderCredential(s); v != "" {
			c.values[name], c.sources[name] = v, fromPlaceholder
		}
	}
	return c, nil
}

// placeholders names the schemes of creds (the credentials a request
// carries) whose value is the placeholder: no credential was given.
func (c *credentials) placeholders(creds map[string]string) []string {
	var out []string
	for name, v := range creds {
		if c.sources[name] == fromPlaceholder && c.values[name] == v {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// missing names the schemes that some operation of sp requires and that
// get the placeholder, no credential being configured or in the
// environment.
func (c *credentials) missing(sp *specPlan) []string {
	used := map[string]bool{}
	for _, o := range sp.ops {
		if o.op.Security == nil {
			continue
		}
		for _, alt := range o.op.Security.Alternatives {
			for _, s := range alt.Schemes {
				used[s.Name] = true
			}
		}
	}
	var out []string
	for name := range used {
		if c.sources[name] == fromPlaceholder {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// howToGiveCredentials says where the credentials of schemes come from,
// for a warning and for the failure of a request a placeholder was
// refused for.
func howToGiveCredentials(schemes []string) string {
	vars := make([]string, len(schemes))
	for i, s := range schemes {
		vars[i] = s + "=…"
	}
	return fmt.Sprintf("set the environment variable %s, or give it in specgate.yaml's securitySchemes (docs/test.md, Authentication)", strings.Join(vars, " and "))
}

// forOperation returns the credentials of the schemes op's effective
// security requirement names; nil when it needs none.
func (c *credentials) forOperation(op *spec.Operation) map[string]string {
	if op.Security == nil || len(op.Security.Alternatives) == 0 {
		return nil
	}
	var out map[string]string
	for _, alt := range op.Security.Alternatives {
		for _, s := range alt.Schemes {
			if v, ok := c.values[s.Name]; ok {
				if out == nil {
					out = map[string]string{}
				}
				out[s.Name] = v
			}
		}
	}
	return out
}

// secrets are the values a test must not show in reports: credentials
// and whatever carries them. It is safe for concurrent use.
type secrets struct {
	mu     sync.Mutex
	values map[string]bool
}

// masked replaces a secret in reports.
const masked = "****"

// add notes a secret, with the forms it travels in (percent-encoded in a
// query, base64 of user:password for basic).
func (s *secrets) add(v string) {
	v = strings.TrimSpace(v)
	if len(v) < 3 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values == nil {
		s.values = map[string]bool{}
	}
	s.values[v] = true
	s.values[url.QueryEscape(v)] = true
	s.values[url.PathEscape(v)] = true
	if strings.Contains(v, ":") {
		s.values[base64.StdEncoding.EncodeToString([]byte(v))] = true
	}
	if word, rest, ok := strings.Cut(v, " "); ok && (strings.EqualFold(word, "Bearer") || strings.EqualFold(word, "Basic")) && len(rest) >= 3 {
		s.values[strings.TrimSpace(rest)] = true
	}
}

// addCredentials notes the credentials put on a request.
func (s *secrets) addCredentials(creds map[string]string) {
	for _, v := range creds {
		s.add(v)
	}
}

// mask replaces every secret in text, longest first.
func (s *secrets) mask(text string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.values) == 0 || text == "" {
		return text
	}
	list := make([]string, 0, len(s.values))
	for v := range s.values {
		list = append(list, v)
	}
	sort.Slice(list, func(i, j int) bool {
		return len(list[i]) > len(list[j]) || len(list[i]) == len(list[j]) && list[i] < list[j]
	})
	for _, v := range list {
		text = strings.ReplaceAll(text, v, masked)
	}
	return text
}

// secretHeaders are request headers whose value is always a secret;
// their scheme word (Bearer, Basic) is kept.
var secretHeaders = map[string]bool{"authorization": true, "proxy-authorization": true}

// maskHeader masks one header value.
func (s *secrets) maskHeader(name, value string) string {
	if secretHeaders[strings.ToLower(name)] {
		if word, _, ok := strings.Cut(strings.TrimSpace(value), " "); ok {
			return word + " " + masked
		}
		return masked
	}
	return s.mask(value)
}
