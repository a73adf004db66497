// Package config owns specgate.yaml: reading versions 3 and 2 of the file
// (version 2 is upgraded to version 3 in memory, so that every command reads
// both), ${NAME:default} templates, $refs to blocks under components, the
// checks that make a bad file a list of errors with file:line:col, and the
// resolved, typed view that the runtime commands read: the specs to
// contract-test with their base URL, credentials and settings (Config.Tests),
// the services to mock (Config.Mocks), and the global data and settings.
//
// docs/config.md describes the file key by key; docs/specgate.schema.json is
// its JSON Schema for editors.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/spec"
)

// FileNames are the names Find looks for, in order.
var FileNames = []string{"specgate.yaml", "specgate.yml", "specgate.json"}

// Config is a loaded configuration, resolved: $refs followed, templates
// expanded, paths absolute, defaults applied, global settings merged into
// each test and mock.
type Config struct {
	File    string `json:"-"` // as the caller named it
	Dir     string `json:"-"` // absolute folder of File: relative paths are resolved against it
	Version int    `json:"-"` // as written: 2 or 3

	// StrictMode makes a template naming an unset variable without a
	// default an error; otherwise a value is generated and a warning given.
	StrictMode bool

	// Tests are the specs of the system under test, one entry per spec.
	Tests []*Test
	// Mocks are the mock servers of the dependencies: one per service and
	// address (a service whose specs have their own base URLs is several).
	Mocks []*Mock

	// Data is the global data (specgate.data): example directories and
	// dictionary used by every test and mock, after their own.
	Data Data
	// Settings are the global defaults (specgate.settings) that each test
	// and mock starts from.
	Settings Settings
	Report   Report
	Insights Insights

	// Warnings are the problems that do not stop loading (a variable
	// generated in lenient mode, a missing example directory). The package
	// never prints them.
	Warnings []*spec.Error `json:"-"`
}

// Test is one spec to contract-test.
type Test struct {
	Service string // the service's name under components.services ("" when written inline)
	Spec    *Spec
	// Target is where the system under test answers; its zero value means
	// that none is configured (the command's --testBaseURL or the spec's
	// servers decide).
	Target     Target
	TLS        TLS
	Examples   []string       // absolute directories: the test's own, then the global ones
	Dictionary map[string]any // the global dictionary overlaid with the test's own
	Settings   TestSettings
}

// Mock is one mock server.
type Mock struct {
	Service    string
	Type       MockType
	Specs      []*Spec
	Target     Target // where it listens; host and port are always set
	TLS        TLS
	Examples   []string
	Dictionary map[string]any
	Settings   MockSettings
}

// MockType is the kind of mock: stateless (answers from examples and
// schemas) or stateful (keeps created, updated and deleted resources).
type MockType string

const (
	Stateless MockType = "mock"
	Stateful  MockType = "stateful-mock"
)

// Spec is one specification of a service.
type Spec struct {
	// ID names the spec in run options and reports: the id written for it,
	// else its path as written.
	ID string
	// Path is the spec's file: absolute for a local file; relative to the
	// repository root when Git is set.
	Path string
	// Git is the repository holding the spec, for the caller to clone; nil
	// for a local file.
	Git *Git
	// Security holds the credentials by the name of the spec's security
	// scheme, in the order written.
	Security []*Credential
	// Filter selects the operations to test or serve; its syntax is the
	// test runner's. "" selects all.
	Filter string

	File    string   `json:"-"` // the configuration file declaring the spec
	At      spec.Pos `json:"-"` // where the spec is declared
	Pointer string   `json:"-"`

	writtenPath string // the path as written, which run options may name it by
}

// Git is a git source of specs.
type Git struct {
	URL    string
	Branch string // "" for the default branch
}

// SchemeType is the type of a security scheme's credential.
type SchemeType string

const (
	OAuth2        SchemeType = "oauth2"
	OpenIDConnect SchemeType = "openIdConnect"
	BasicAuth     SchemeType = "basicAuth"
	Bearer        SchemeType = "bearer"
	APIKey        SchemeType = "apiKey"
)

var schemeTypes = []string{string(OAuth2), string(OpenIDConnect), string(BasicAuth), string(Bearer), string(APIKey)}

// Credential is the credential for one security scheme of a spec.
type Credential struct {
	Scheme string // the name under the spec's components.securitySchemes
	Type   SchemeType
	// Token is the raw credential, templates expanded: the token without
	// "Bearer", the API key, or base64 of user:password without "Basic".
	Token string

	At      spec.Pos `json:"-"` // where the scheme's name is written
	Pointer string   `json:"-"`
}

// Target is an address kept as its parts.
type Target struct {
	Scheme   string // http or https
	Host     string
	Port     int    // 0 when not written (the scheme's default port)
	BasePath string // "", "/" (the root), or a path starting with "/" without a trailing "/"
}

// URL joins the parts, or returns "" when no host is set.
func (t Target) URL() string {
	if t.Host == "" {
		return ""
	}
	host := t.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if t.Port != 0 {
		host += ":" + strconv.Itoa(t.Port)
	}
	return t.Scheme + "://" + host + t.BasePath
}

// TLS holds the certificate details of a test client or a mock server.
type TLS struct {
	// MTLS is runOptions.mtlsEnabled: a test presents CertFile and KeyFile
	// as its client certificate; a mock asks clients for one and verifies it
	// against CAFile.
	MTLS bool
	// CertFile and KeyFile are PEM files (absolute): a mock's server
	// certificate, a test's client certificate.
	CertFile string
	KeyFile  string
	// CAFile is a PEM bundle (absolute): the roots a test trusts for the
	// server, or those a mock verifies client certificates with.
	CAFile string
	// InsecureSkipVerify makes a test accept any server certificate.
	InsecureSkipVerify bool
}

// Data are example directories and a dictionary.
type Data struct {
	Examples []string // absolute directories
	// Dictionary holds values by field name or JSON path (JSON values as
	// encoding/json decodes them with UseNumber); nil when there is none.
	Dictionary map[string]any
	// DictionaryFile is the absolute path the dictionary was read from,
	// when it was given as a file.
	DictionaryFile string
}

// Settings are the test and mock settings.
type Settings struct {
	Test TestSettings
	Mock MockSettings
}

// Resiliency says which generated tests run beside those from examples.
type Resiliency string

const (
	// ResiliencyNone runs the tests from examples (and one generated
	// request per operation that has none).
	ResiliencyNone Resiliency = "none"
	// ResiliencyPositive adds generated valid variations of each request.
	ResiliencyPositive Resiliency = "positiveOnly"
	// ResiliencyAll adds invalid requests too, which must get a 4xx.
	ResiliencyAll Resiliency = "all"
)

// TestSettings tune contract tests.
type TestSettings struct {
	Resiliency Resiliency
	// Timeout bounds each request (default 6 s).
	Timeout time.Duration
	// MaxAttempts is how many times a request answered 429 is sent in all
	// (default 3); MaxRetryDelay caps the wait that Retry-After asks for
	// (default 30 s).
	MaxAttempts   int
	MaxRetryDelay time.Duration
}

// MockSettings tune mock servers.
type MockSettings struct {
	Delay time.Duration // added before every response
	// Generative makes the mock answer with values generated from the
	// schemas rather than from examples.
	Generative bool
	// Lenient (the default) answers a valid request that no example matches
	// with a generated response; otherwise such a request gets a 400 that
	// says what did not match.
	Lenient bool
	// StartTimeout bounds the mock's start (default 20 s).
	StartTimeout time.Duration
}

// Report says where and in which formats reports are written.
type Report struct {
	Dir     string   // absolute; default build/reports/specgate beside the file
	Formats []string // default ctrf and html
}

// ReportFormats are the formats a report may be written in.
var ReportFormats = []string{"ctrf", "html", "junit", "coverage", "stub-usage", "spec-metadata"}

// Insights is where --ci submits reports.
type Insights struct {
	URL string
}

// Defaults.
const (
	DefaultTimeout       = 6 * time.Second
	DefaultMaxAttempts   = 3
	DefaultMaxRetryDelay = 30 * time.Second
	DefaultStartTimeout  = 20 * time.Second
	DefaultMockHost      = "localhost"
	DefaultMockPort      = 9000
)

func defaultSettings() Settings {
	return Settings{
		Test: TestSettings{Resiliency: ResiliencyNone, Timeout: DefaultTimeout, MaxAttempts: DefaultMaxAttempts, MaxRetryDelay: DefaultMaxRetryDelay},
		Mock: MockSettings{Lenient: true, StartTimeout: DefaultStartTimeout},
	}
}

// Options configure loading.
type Options struct {
	// Getenv reads the variables of templates; nil means os.Getenv. An
	// empty value counts as unset.
	Getenv func(string) string
}

// Find looks for a configuration file (FileNames) in dir and its parents.
func Find(dir string) (string, bool) {
	return fsroot.FindUp(dir, FileNames...)
}

// Load reads and resolves a configuration file. The error, when there is
// one, is Errors: every problem found, each with the file, line and column.
func Load(path string, opts Options) (*Config, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts)
}

func readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		var pe *os.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return nil, Errors{{File: path, Msg: "cannot read the configuration: " + msg, Err: err}}
	}
	return data, nil
}

// Parse is Load on the file's contents; path names the file in messages and
// relative paths are resolved against its folder.
func Parse(path string, data []byte, opts Options) (*Config, error) {
	cfg, errs := parsePartly(path, data, opts)
	if len(errs) > 0 {
		return nil, errs
	}
	return cfg, nil
}

// parsePartly reads and resolves the file as far as its problems allow:
// the Config is nil only when the file cannot be read as a configuration
// at all (syntax, version, a version 2 file that does not upgrade).
func parsePartly(path string, data []byte, opts Options) (*Config, Errors) {
	root, version, err := parse(path, data)
	if err != nil {
		var es Errors
		if errors.As(err, &es) {
			return nil, es
		}
		return nil, Errors{{File: path, Msg: err.Error(), Err: err}}
	}
	if version == 2 {
		v3, errs := upgradeTree(path, root)
		if len(errs) > 0 {
			return nil, Errors(sorted(errs))
		}
		return resolve(path, v3, 2, opts, true)
	}
	return resolve(path, root, 3, opts, false)
}

// Check is Load, with the credentials of every local spec checked against
// the spec, which load reads (Spec.CheckSecuritySchemes): every problem of
// the configuration at once, a template that strict mode refuses beside a
// security scheme the spec lacks. A spec that load cannot read is a
// problem too. Specs in git repositories are left to the commands that
// clone them. The Config is returned when there is no problem.
func Check(path string, opts Options, load func(s *Spec) (*spec.Document, error)) (*Config, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	cfg, errs := parsePartly(path, data, opts)
	if cfg != nil {
		var specs []*Spec
		for _, t := range cfg.Tests {
			specs = append(specs, t.Spec)
		}
		for _, m := range cfg.Mocks {
			specs = append(specs, m.Specs...)
		}
		for _, s := range specs {
			if s.Git != nil || len(s.Security) == 0 {
				continue
			}
			doc, err := load(s)
			if err != nil {
				var se *spec.Error
				if !errors.As(err, &se) {
					se = &spec.Error{File: s.Path, Msg: err.Error(), Err: err}
				}
				errs = append(errs, se)
				continue
			}
			var bad Errors
			if errors.As(s.CheckSecuritySchemes(doc), &bad) {
				errs = append(errs, bad...)
			}
		}
	}
	if len(errs) > 0 {
		return nil, Errors(sorted(errs))
	}
	return cfg, nil
}

// parse reads the file's tree and its version.
func parse(path string, data []byte) (*spec.Node, int, error) {
	root, err := spec.Parse(path, data, spec.DefaultLimits())
	if err != nil {
		var se *spec.Error
		if errors.As(err, &se) {
			return nil, 0, Errors{se}
		}
		return nil, 0, Errors{{File: path, Msg: err.Error(), Err: err}}
	}
	if root.Kind != spec.Object {
		return nil, 0, Errors{{File: path, Pos: root.Range.Start, Msg: "the configuration must be a mapping, found " + found(root)}}
	}
	f := root.Field("version")
	if f == nil {
		return nil, 0, Errors{{File: path, Pos: root.Range.Start, Msg: "the configuration has no version: write version: 3 (or 2 for the legacy format)"}}
	}
	v := f.Value
	if v.Kind != spec.Number || (v.Value != "2" && v.Value != "3") {
		return nil, 0, Errors{{File: path, Pos: v.Range.Start, Pointer: "/version", Msg: fmt.Sprintf("version must be 2 or 3, found %s", found(v))}}
	}
	return root, int(v.Value[0] - '0'), nil
}

// resolve decodes a version 3 tree: the Config as far as the problems
// allow, and the problems.
func resolve(path string, root *spec.Node, version int, opts Options, fromV2 bool) (*Config, Errors) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, Errors{{File: path, Msg: err.Error(), Err: err}}
	}
	r := &resolver{
		decoder: decoder{file: path, getenv: getenv, noPointers: fromV2},
		root:    root,
		dir:     dir,
	}
	r.index(root)
	cfg := r.config()
	cfg.File, cfg.Dir, cfg.Version = path, dir, version
	cfg.Warnings = sorted(r.warns)
	if len(r.errs) > 0 {
		return cfg, Errors(sorted(r.errs))
	}
	return cfg, nil
}
