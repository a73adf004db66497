package insights

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/lazyregexp"
)

// CI is what a submission says of the build that made it: the repository
// the insights service files it under, the branch and commit, the build
// and its attempt, the pull request, and free fields.
type CI struct {
	// Provider is the CI service the values were read from
	// ("github-actions", "gitlab-ci", …), or "" outside a known one.
	Provider string `json:"provider,omitempty"`
	// RepoID identifies the repository to the insights service: given
	// explicitly, else the provider's owner/name.
	RepoID      string `json:"repoId,omitempty"`
	RepoURL     string `json:"repoUrl,omitempty"`
	Branch      string `json:"branch,omitempty"`
	Commit      string `json:"commit,omitempty"`
	BuildID     string `json:"buildId,omitempty"`
	BuildURL    string `json:"buildUrl,omitempty"`
	RunAttempt  int    `json:"runAttempt,omitempty"`
	PullRequest string `json:"pullRequest,omitempty"`
	// Metadata are the free fields of --metadata KEY=VALUE.
	Metadata map[string]string `json:"metadata,omitempty"`
	// Sources names where each field's value came from: a provider's
	// variable, SPECGATE_BUILD_ID, -Dspecgate.build.id, --build-id or git.
	Sources map[string]string `json:"sources,omitempty"`
}

// Field is a CI field and the names it is given by in each source, from
// the lowest precedence to the highest: the CI provider's variables (see
// Providers), an environment variable, a system property (-Dkey=value) and
// a command-line option.
type Field struct {
	Name     string // as in JSON
	Env      string // SPECGATE_…
	Property string // specgate.…
	Option   string // the option without dashes; "" when there is none
	ptr      func(*CI) *string
}

// Fields are the CI fields every source may set. RunAttempt is read as a
// string and checked as a positive whole number.
var Fields = []Field{
	{"repoId", "SPECGATE_REPO_ID", "specgate.repo.id", "repo-id", func(c *CI) *string { return &c.RepoID }},
	{"repoUrl", "SPECGATE_REPO_URL", "specgate.repo.url", "", func(c *CI) *string { return &c.RepoURL }},
	{"branch", "SPECGATE_BRANCH", "specgate.branch", "", func(c *CI) *string { return &c.Branch }},
	{"commit", "SPECGATE_COMMIT", "specgate.commit", "", func(c *CI) *string { return &c.Commit }},
	{"buildId", "SPECGATE_BUILD_ID", "specgate.build.id", "build-id", func(c *CI) *string { return &c.BuildID }},
	{"buildUrl", "SPECGATE_BUILD_URL", "specgate.build.url", "", func(c *CI) *string { return &c.BuildURL }},
	{"runAttempt", "SPECGATE_RUN_ATTEMPT", "specgate.run.attempt", "run-attempt", nil},
	{"pullRequest", "SPECGATE_PULL_REQUEST", "specgate.pull.request", "", func(c *CI) *string { return &c.PullRequest }},
}

// Sources are where Resolve reads the CI metadata from.
type Sources struct {
	// Getenv reads the CI provider's variables and SPECGATE_*; nil reads
	// nothing.
	Getenv func(string) string
	// Properties are the -Dkey=value definitions of the command line.
	Properties map[string]string
	// Options are the values of command-line options, by option name
	// (repo-id, build-id, run-attempt); an empty value is not set.
	Options map[string]string
	// Metadata are the --metadata KEY=VALUE items, in order (a later key
	// wins).
	Metadata []string
	// Git, when set, fills what no other source gave from the repository
	// of the working directory (see GitInfo).
	Git *GitInfo
}

// Resolve reads the CI metadata: each field from the highest source that
// has it (options, then system properties, then SPECGATE_* variables, then
// the CI provider, then git). A repository or build id given explicitly
// that differs from the one the provider (or git) inferred drops the
// inferred repoUrl or buildUrl, which would point at another repository or
// build, unless the URL is given explicitly too. A malformed value (a run attempt that is
// not a positive whole number, a --metadata item that is not KEY=VALUE)
// is an error naming its source.
func Resolve(s Sources) (CI, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	ci := CI{Sources: map[string]string{}}
	attempt, attemptFrom := "", ""
	explicit := map[string]bool{} // fields given by SPECGATE_*, -D or an option
	set := func(f Field, v, from string) {
		v = strings.TrimSpace(v)
		if v == "" {
			return
		}
		if f.ptr == nil {
			attempt, attemptFrom = v, from
		} else {
			*f.ptr(&ci) = v
		}
		ci.Sources[f.Name] = from
	}
	// inferred holds what the provider, else git, says of each field.
	inferred := map[string]string{}
	if p := Detect(getenv); p != nil {
		ci.Provider = p.Name
		for name, v := range p.read(getenv) {
			set(fieldNamed(name), v.value, v.from)
			inferred[name] = strings.TrimSpace(v.value)
		}
	}
	var fromGit []struct{ field, value string }
	if g := s.Git; g != nil {
		fromGit = []struct{ field, value string }{{"repoId", Slug(g.Origin)}, {"repoUrl", g.Origin}, {"branch", g.Branch}, {"commit", g.Commit}}
		for _, fv := range fromGit {
			if _, ok := inferred[fv.field]; !ok && fv.value != "" {
				inferred[fv.field] = fv.value
			}
		}
	}
	setExplicit := func(f Field, v, from string) {
		if strings.TrimSpace(v) != "" {
			set(f, v, from)
			explicit[f.Name] = true
		}
	}
	for _, f := range Fields {
		setExplicit(f, getenv(f.Env), f.Env)
	}
	for _, f := range Fields {
		if v, ok := s.Properties[f.Property]; ok {
			setExplicit(f, v, "-D"+f.Property)
		}
	}
	for _, f := range Fields {
		if f.Option != "" {
			setExplicit(f, s.Options[f.Option], "--"+f.Option)
		}
	}
	// An id given explicitly that is not the inferred one names another
	// repository or build: the inferred URL points at the inferred one,
	// so it goes, unless the URL was given explicitly too.
	dropped := map[string]bool{}
	for _, pair := range [][2]string{{"repoId", "repoUrl"}, {"buildId", "buildUrl"}} {
		id, link := fieldNamed(pair[0]), fieldNamed(pair[1])
		if explicit[id.Name] && !explicit[link.Name] && !strings.EqualFold(*id.ptr(&ci), inferred[id.Name]) {
			*link.ptr(&ci) = ""
			delete(ci.Sources, link.Name)
			dropped[link.Name] = true
		}
	}
	for _, fv := range fromGit {
		f := fieldNamed(fv.field)
		if ci.Sources[f.Name] == "" && !dropped[f.Name] {
			set(f, fv.value, "git")
		}
	}
	// A clone URL may carry credentials (GitLab's runners clone with
	// https://gitlab-ci-token:TOKEN@…): they are never sent.
	ci.RepoURL, ci.BuildURL = StripCredentials(ci.RepoURL), StripCredentials(ci.BuildURL)
	if attempt != "" {
		n, err := strconv.Atoi(attempt)
		if err != nil || n < 1 {
			return ci, fmt.Errorf("%s=%q: the run attempt must be a whole number from 1", attemptFrom, attempt)
		}
		ci.RunAttempt = n
	}
	md, err := ParseMetadata(s.Metadata)
	if err != nil {
		return ci, err
	}
	ci.Metadata = md
	return ci, nil
}

func fieldNamed(name string) Field {
	for _, f := range Fields {
		if f.Name == name {
			return f
		}
	}
	panic("insights: unknown CI field " + name)
}

// metadataKey is what a --metadata key may be: a letter or digit, then
// letters, digits, '.', '_' and '-', at most 64 in all. It compiles on
// first use: its counted repetition is a large program that every command
// would build at start-up.
var metadataKey = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ParseMetadata reads --metadata KEY=VALUE items; a later key wins.
func ParseMetadata(items []string) (map[string]string, error) {
	if len(items) == 0 {
		return nil, nil
	}
	md := map[string]string{}
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		if !ok {
			return nil, fmt.Errorf("--metadata %q is not KEY=VALUE", it)
		}
		if !metadataKey().MatchString(k) {
			return nil, fmt.Errorf("--metadata %q: the key %q must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", it, k)
		}
		if len(v) > 1024 {
			return nil, fmt.Errorf("--metadata %s: the value is longer than 1024 bytes", k)
		}
		md[k] = v
	}
	return md, nil
}

// Provider is a CI service whose variables give the CI metadata.
type Provider struct {
	Name string
	// Detect tells whether the process runs in this provider's builds.
	Detect func(getenv func(string) string) bool
	// fields maps CI field names to how the provider gives them.
	fields map[string]reader
}

// reader reads one field from the provider's variables, and names the
// variable it came from; "" when the provider does not say.
type reader func(getenv func(string) string) (value, from string)

type sourced struct{ value, from string }

func (p *Provider) read(getenv func(string) string) map[string]sourced {
	out := map[string]sourced{}
	for name, r := range p.fields {
		if v, from := r(getenv); v != "" {
			out[name] = sourced{v, from}
		}
	}
	return out
}

// Detect is the provider the process runs under, or nil; when several
// match (a build that starts another CI's runner), the first of Providers.
func Detect(getenv func(string) string) *Provider {
	for i := range Providers {
		if Providers[i].Detect(getenv) {
			return &Providers[i]
		}
	}
	return nil
}

// ProviderNames lists the known providers, sorted.
func ProviderNames() []string {
	var names []string
	for _, p := range Providers {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names
}

// env reads the first variable of names that is set.
func env(names ...string) reader {
	return func(getenv func(string) string) (string, string) {
		for _, n := range names {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return v, n
			}
		}
		return "", ""
	}
}

// mapped is r's value changed by f; a value f turns to "" is not given.
func mapped(r reader, f func(string) string) reader {
	return func(getenv func(string) string) (string, string) {
		v, from := r(getenv)
		if v == "" {
			return "", ""
		}
		if v = f(v); v == "" {
			return "", ""
		}
		return v, from
	}
}

// is tells whether a variable has one of the values (ignoring case).
func is(name string, values ...string) func(func(string) string) bool {
	return func(getenv func(string) string) bool {
		v := strings.TrimSpace(getenv(name))
		for _, want := range values {
			if strings.EqualFold(v, want) {
				return true
			}
		}
		return false
	}
}

func present(name string) func(func(string) string) bool {
	return func(getenv func(string) string) bool { return strings.TrimSpace(getenv(name)) != "" }
}

// branchName is a ref written as a branch: refs/heads/ and a remote's
// origin/ taken off; a tag or pull request ref is no branch.
func branchName(ref string) string {
	switch {
	case strings.HasPrefix(ref, "refs/heads/"):
		return strings.TrimPrefix(ref, "refs/heads/")
	case strings.HasPrefix(ref, "refs/"):
		return ""
	case strings.HasPrefix(ref, "origin/"):
		return strings.TrimPrefix(ref, "origin/")
	}
	return ref
}

var pullRef = regexp.MustCompile(`^refs/pull/(\d+)/`)
var pullURL = regexp.MustCompile(`/pulls?/(\d+)/?$`)

// Providers are the CI services whose variables Resolve reads, as their
// documentation describes them.
var Providers = []Provider{
	{
		Name:   "github-actions",
		Detect: is("GITHUB_ACTIONS", "true"),
		fields: map[string]reader{
			"repoId": env("GITHUB_REPOSITORY"),
			"repoUrl": func(getenv func(string) string) (string, string) {
				repo := getenv("GITHUB_REPOSITORY")
				if repo == "" {
					return "", ""
				}
				return githubServer(getenv) + "/" + repo, "GITHUB_REPOSITORY"
			},
			// A pull request's build runs on a merge ref; its head branch
			// is the branch the change is on.
			"branch": func(getenv func(string) string) (string, string) {
				if v := getenv("GITHUB_HEAD_REF"); v != "" {
					return v, "GITHUB_HEAD_REF"
				}
				if v := branchName(getenv("GITHUB_REF")); v != "" {
					return v, "GITHUB_REF"
				}
				return "", ""
			},
			"commit":  env("GITHUB_SHA"),
			"buildId": env("GITHUB_RUN_ID"),
			"buildUrl": func(getenv func(string) string) (string, string) {
				repo, run := getenv("GITHUB_REPOSITORY"), getenv("GITHUB_RUN_ID")
				if repo == "" || run == "" {
					return "", ""
				}
				return githubServer(getenv) + "/" + repo + "/actions/runs/" + run, "GITHUB_RUN_ID"
			},
			"runAttempt": env("GITHUB_RUN_ATTEMPT"),
			"pullRequest": mapped(env("GITHUB_REF"), func(ref string) string {
				if m := pullRef.FindStringSubmatch(ref); m != nil {
					return m[1]
				}
				return ""
			}),
		},
	},
	{
		Name:   "gitlab-ci",
		Detect: is("GITLAB_CI", "true"),
		fields: map[string]reader{
			"repoId":      env("CI_PROJECT_PATH"),
			"repoUrl":     env("CI_PROJECT_URL"),
			"branch":      env("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH"),
			"commit":      env("CI_COMMIT_SHA"),
			"buildId":     env("CI_PIPELINE_ID"),
			"buildUrl":    env("CI_PIPELINE_URL"),
			"pullRequest": env("CI_MERGE_REQUEST_IID"),
		},
	},
	{
		Name:   "jenkins",
		Detect: present("JENKINS_URL"),
		fields: map[string]reader{
			"repoId":  mapped(env("GIT_URL"), Slug),
			"repoUrl": env("GIT_URL"),
			// Multibranch pipelines name the branch (CHANGE_BRANCH for a
			// pull request); the git plugin writes the remote's ref.
			"branch":      mapped(env("CHANGE_BRANCH", "BRANCH_NAME", "GIT_BRANCH"), branchName),
			"commit":      env("GIT_COMMIT"),
			"buildId":     env("BUILD_NUMBER"),
			"buildUrl":    env("BUILD_URL"),
			"pullRequest": env("CHANGE_ID"),
		},
	},
	{
		Name:   "circleci",
		Detect: is("CIRCLECI", "true"),
		fields: map[string]reader{
			"repoId": func(getenv func(string) string) (string, string) {
				user, repo := getenv("CIRCLE_PROJECT_USERNAME"), getenv("CIRCLE_PROJECT_REPONAME")
				if user == "" || repo == "" {
					return "", ""
				}
				return user + "/" + repo, "CIRCLE_PROJECT_REPONAME"
			},
			"repoUrl":  env("CIRCLE_REPOSITORY_URL"),
			"branch":   env("CIRCLE_BRANCH"),
			"commit":   env("CIRCLE_SHA1"),
			"buildId":  env("CIRCLE_BUILD_NUM"),
			"buildUrl": env("CIRCLE_BUILD_URL"),
			"pullRequest": func(getenv func(string) string) (string, string) {
				if v := getenv("CIRCLE_PR_NUMBER"); v != "" {
					return v, "CIRCLE_PR_NUMBER"
				}
				if m := pullURL.FindStringSubmatch(getenv("CIRCLE_PULL_REQUEST")); m != nil {
					return m[1], "CIRCLE_PULL_REQUEST"
				}
				return "", ""
			},
		},
	},
	{
		Name:   "azure-pipelines",
		Detect: is("TF_BUILD", "true"),
		fields: map[string]reader{
			"repoId":  env("BUILD_REPOSITORY_NAME"),
			"repoUrl": env("BUILD_REPOSITORY_URI"),
			// BUILD_SOURCEBRANCHNAME is only the last segment of a branch
			// such as feature/x; the full ref has all of it.
			"branch":  mapped(env("SYSTEM_PULLREQUEST_SOURCEBRANCH", "BUILD_SOURCEBRANCH"), branchName),
			"commit":  env("BUILD_SOURCEVERSION"),
			"buildId": env("BUILD_BUILDID"),
			"buildUrl": func(getenv func(string) string) (string, string) {
				coll, project, id := getenv("SYSTEM_COLLECTIONURI"), getenv("SYSTEM_TEAMPROJECT"), getenv("BUILD_BUILDID")
				if coll == "" || project == "" || id == "" {
					return "", ""
				}
				return strings.TrimSuffix(coll, "/") + "/" + url.PathEscape(project) + "/_build/results?buildId=" + url.QueryEscape(id), "BUILD_BUILDID"
			},
			"runAttempt":  env("SYSTEM_JOBATTEMPT"),
			"pullRequest": env("SYSTEM_PULLREQUEST_PULLREQUESTNUMBER", "SYSTEM_PULLREQUEST_PULLREQUESTID"),
		},
	},
	{
		Name:   "bitbucket-pipelines",
		Detect: present("BITBUCKET_BUILD_NUMBER"),
		fields: map[string]reader{
			"repoId":  env("BITBUCKET_REPO_FULL_NAME"),
			"repoUrl": env("BITBUCKET_GIT_HTTP_ORIGIN"),
			"branch":  env("BITBUCKET_BRANCH"),
			"commit":  env("BITBUCKET_COMMIT"),
			"buildId": env("BITBUCKET_BUILD_NUMBER"),
			"buildUrl": func(getenv func(string) string) (string, string) {
				origin, n := getenv("BITBUCKET_GIT_HTTP_ORIGIN"), getenv("BITBUCKET_BUILD_NUMBER")
				if origin == "" || n == "" {
					return "", ""
				}
				return strings.TrimSuffix(origin, "/") + "/addon/pipelines/home#!/results/" + n, "BITBUCKET_BUILD_NUMBER"
			},
			"pullRequest": env("BITBUCKET_PR_ID"),
		},
	},
	{
		Name:   "buildkite",
		Detect: is("BUILDKITE", "true"),
		fields: map[string]reader{
			"repoId":   mapped(env("BUILDKITE_REPO"), Slug),
			"repoUrl":  env("BUILDKITE_REPO"),
			"branch":   env("BUILDKITE_BRANCH"),
			"commit":   env("BUILDKITE_COMMIT"),
			"buildId":  env("BUILDKITE_BUILD_NUMBER"),
			"buildUrl": env("BUILDKITE_BUILD_URL"),
			// The first run of a job has a retry count of 0.
			"runAttempt": mapped(env("BUILDKITE_RETRY_COUNT"), func(v string) string {
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					return v // Resolve reports it
				}
				return strconv.Itoa(n + 1)
			}),
			"pullRequest": mapped(env("BUILDKITE_PULL_REQUEST"), func(v string) string {
				if v == "false" {
					return ""
				}
				return v
			}),
		},
	},
}

func githubServer(getenv func(string) string) string {
	if s := strings.TrimSuffix(getenv("GITHUB_SERVER_URL"), "/"); s != "" {
		return s
	}
	return "https://github.com"
}

// Slug is the owner/name path of a repository URL, in any of git's
// spellings (https://host/owner/name.git, git@host:owner/name.git,
// ssh://git@host:22/owner/name); "" when u has no path.
func Slug(u string) string {
	_, path := splitRepoURL(u)
	return path
}

// RepoKey is a repository URL written the same whatever the spelling:
// host and path, without scheme, user, port or .git ("github.com/acme/api").
func RepoKey(u string) string {
	host, path := splitRepoURL(u)
	if host == "" {
		return path
	}
	if path == "" {
		return host
	}
	return host + "/" + path
}

func splitRepoURL(u string) (host, path string) {
	u = strings.TrimSpace(u)
	if u == "" {
		return "", ""
	}
	if i := strings.Index(u, "://"); i >= 0 {
		if p, err := url.Parse(u); err == nil {
			host, path = p.Hostname(), p.Path
		} else {
			rest := u[i+3:]
			host, path, _ = strings.Cut(rest, "/")
		}
	} else if at, colon := strings.Index(u, "@"), strings.Index(u, ":"); colon > 0 && (at < 0 || at < colon) && !strings.HasPrefix(u, "/") {
		// scp-like: [user@]host:path
		host, path = u[at+1:colon], u[colon+1:]
	} else {
		path = u
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	return strings.ToLower(host), path
}

// StripCredentials is a URL without the user and password it may carry.
func StripCredentials(u string) string {
	if !strings.Contains(u, "://") || !strings.Contains(u, "@") {
		return u
	}
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	p.User = nil
	return p.String()
}
