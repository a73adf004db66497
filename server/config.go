package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// generation is one loaded configuration: every profile compiled once. It
// is immutable; a refresh builds a new one and swaps it in, so a request
// finishes on the generation it started with.
type generation struct {
	commit    string
	loadedAt  time.Time
	profiles  map[string]*profile // by name; "" when the configuration has no profiles
	names     []string            // sorted profile names ("" included when there are none)
	def       string              // the profile of requests that name none
	defErr    string              // why requests must name a profile, when def is unusable
	ruleCount int                 // rules the configuration knows: built-in and custom
}

// profile is one profile's compiled rules.
type profile struct {
	name    string
	lint    *linter.Pipeline
	ruleset string // the report's tool.ruleset
}

// lookup finds the profile a request names ("" for the default).
func (g *generation) lookup(name string) (*profile, *Problem) {
	if name == "" {
		if g.defErr != "" {
			p := problems.New(400, kindBadRequest, g.defErr)
			p.Field, p.Allowed = "profile", g.names
			return nil, p
		}
		return g.profiles[g.def], nil
	}
	if p, ok := g.profiles[name]; ok && name != "" {
		return p, nil
	}
	var detail string
	if len(g.names) == 1 && g.names[0] == "" {
		detail = fmt.Sprintf("no profile %q: the configuration defines no profiles; leave profile out", name)
	} else {
		detail = fmt.Sprintf("no profile %q%s (profiles: %s)", name, rulesets.Suggest(name, g.names), strings.Join(g.names, ", "))
	}
	p := problems.New(400, kindBadRequest, detail)
	p.Field, p.Allowed = "profile", g.names
	return nil, p
}

// buildOptions are what compiling a configuration needs besides its files.
type buildOptions struct {
	loader  *spec.Loader // the loader the linters use (SSRF-guarded)
	fetch   rulesets.Fetcher
	timeout time.Duration // rule evaluation per spec
}

// load builds the generation of a version of the repository: its
// configuration file, or the built-in rulesets when there is no repository.
func (c *configSource) load(ctx context.Context, version string) (*generation, error) {
	root := c.repo.root()
	if root == "" {
		gen, err := builtinGeneration(ctx, c.ruleset, c.build)
		if err != nil {
			return nil, err
		}
		gen.commit, gen.loadedAt = version, time.Now().UTC()
		return gen, nil
	}
	return loadGeneration(ctx, root, c.configPath, version, c.build)
}

// builtinGeneration has a profile per built-in ruleset, def being the
// profile of requests that name none.
func builtinGeneration(ctx context.Context, def string, opts buildOptions) (*generation, error) {
	if !rulesets.IsBuiltin(def) {
		return nil, fmt.Errorf("--ruleset %q is not a built-in ruleset (%s)%s", def, strings.Join(rulesets.Names, ", "), rulesets.Suggest(def, rulesets.Names))
	}
	gen := &generation{profiles: map[string]*profile{}, names: slices.Sorted(slices.Values(rulesets.Names)), def: def}
	for _, name := range rulesets.Names {
		p, err := linter.Open(ctx, linter.Config{Rules: rulesets.Options{NoSearch: true, Ruleset: name}, Loader: opts.loader, Timeout: opts.timeout})
		if err != nil {
			return nil, err
		}
		gen.profiles[name] = &profile{name: name, lint: p, ruleset: name}
		gen.ruleCount = max(gen.ruleCount, len(p.Setup.Registry.Rules))
	}
	return gen, nil
}

// loadGeneration loads the configuration file at root/configPath and
// compiles each of its profiles (eagerly, so that a bad configuration is
// found when it is loaded, never on a request). Errors name files relative
// to root.
func loadGeneration(ctx context.Context, root, configPath, commit string, opts buildOptions) (*generation, error) {
	gen, err := buildGeneration(ctx, filepath.Join(root, configPath), opts)
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), root+string(filepath.Separator), ""))
	}
	gen.commit, gen.loadedAt = commit, time.Now().UTC()
	return gen, nil
}

func buildGeneration(ctx context.Context, file string, opts buildOptions) (*generation, error) {
	if st, err := os.Stat(file); err != nil || st.IsDir() {
		return nil, fmt.Errorf("%s: no configuration file at this path of the repository (--config-path)", file)
	}
	names, err := profileNames(file)
	if err != nil {
		return nil, err
	}
	gen := &generation{profiles: map[string]*profile{}, names: names}
	for _, name := range names {
		p, err := linter.Open(ctx, linter.Config{Rules: rulesets.Options{Config: file, NoSearch: true, Profile: name, Fetch: opts.fetch},
			Loader: opts.loader, Timeout: opts.timeout})
		var setupErr *linter.SetupError
		if errors.As(err, &setupErr) {
			return nil, err
		}
		if err != nil {
			if name != "" {
				return nil, fmt.Errorf("profile %q: %w", name, err)
			}
			return nil, err
		}
		ruleset := ""
		if name == "" {
			ruleset = rulesets.Default
		}
		gen.profiles[name] = &profile{name: name, lint: p, ruleset: ruleset}
		gen.ruleCount = max(gen.ruleCount, len(p.Setup.Registry.Rules))
	}
	switch {
	case len(names) == 1:
		gen.def = names[0]
	case slices.Contains(names, "default"):
		gen.def = "default"
	default:
		gen.defErr = fmt.Sprintf("the configuration has several profiles and none named \"default\": name one in profile (%s)", strings.Join(names, ", "))
	}
	return gen, nil
}

// profileNames lists the profiles of a configuration file, sorted; [""]
// when it defines none.
func profileNames(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	root, err := spec.Parse(file, data, spec.DefaultLimits())
	if err != nil {
		return nil, err
	}
	var names []string
	if profiles := root.Get("profiles"); profiles != nil && profiles.Kind == spec.Object {
		for _, f := range profiles.Fields {
			names = append(names, f.Key)
		}
	}
	if len(names) == 0 {
		return []string{""}, nil
	}
	slices.Sort(names)
	return names, nil
}

// Refresh results.
const (
	refreshLoaded    = "loaded"
	refreshUnchanged = "unchanged"
	refreshFailed    = "failed"
)

// refreshStatus is the outcome of one refresh attempt.
type refreshStatus struct {
	Trigger    string    `json:"trigger"` // startup, interval or request
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt"`
	Commit     string    `json:"commit,omitempty"` // the commit fetched
	Result     string    `json:"result"`
	Error      string    `json:"error,omitempty"`
}

// configSource keeps the configuration repository's clone and the current
// generation, and refreshes both.
type configSource struct {
	repo       configRepo
	ruleset    string // the default profile of the built-in rulesets
	configPath string
	interval   time.Duration
	build      buildOptions
	logger     *slog.Logger

	current atomic.Pointer[generation]
	trigger chan struct{} // a pending refresh request; capacity 1

	mu           sync.Mutex // guards the fields below (refreshes themselves run one at a time, in run)
	last         refreshStatus
	next         time.Time // of the periodic refresh; zero when there is none
	failedCommit string    // the last commit that failed to load
	failedError  string    // and why
	refreshing   bool
}

// start clones the repository and loads its configuration: the server
// does not start without a good one.
func (c *configSource) start(ctx context.Context) error {
	st := refreshStatus{Trigger: "startup", StartedAt: time.Now().UTC()}
	shown, _ := c.repo.describe()
	commit, err := c.repo.clone(ctx)
	if err != nil {
		return fmt.Errorf("cloning %s: %w", shown, err)
	}
	// Compiling every profile takes seconds: the log says what the
	// server is doing before it listens.
	c.logger.Info("compiling the rules of every profile", slog.String("repository", shown), slog.String("commit", short(commit)))
	compileStart := time.Now()
	gen, err := c.load(ctx, commit)
	if err != nil {
		c.repo.remove()
		return fmt.Errorf("loading %s at commit %s of %s: %w", c.configPath, short(commit), shown, err)
	}
	c.current.Store(gen)
	st.Commit, st.Result, st.FinishedAt = commit, refreshLoaded, time.Now().UTC()
	c.last = st
	shown, branch := c.repo.describe()
	c.logger.Info("configuration loaded", slog.String("repository", shown), slog.String("branch", branch),
		slog.String("commit", commit), slog.Any("profiles", gen.names), slog.Int("rules", gen.ruleCount),
		slog.Duration("compiled", st.FinishedAt.Sub(compileStart)), slog.Duration("took", st.FinishedAt.Sub(st.StartedAt)))
	return nil
}

// requestRefresh asks the refresh loop for a refresh as soon as it can;
// requests made while one is pending are one request.
func (c *configSource) requestRefresh() {
	select {
	case c.trigger <- struct{}{}:
	default:
	}
}

// minRequestGap is the least time between two requested refreshes.
const minRequestGap = time.Second

// run refreshes every interval (when positive) and on request, until ctx
// ends.
func (c *configSource) run(ctx context.Context) {
	for {
		var tick <-chan time.Time
		var timer *time.Timer
		if c.interval > 0 {
			timer = time.NewTimer(c.interval)
			tick = timer.C
			c.mu.Lock()
			c.next = time.Now().Add(c.interval).UTC()
			c.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-tick:
			c.refresh(ctx, "interval")
		case <-c.trigger:
			if timer != nil {
				timer.Stop()
			}
			c.refresh(ctx, "request")
			// Requests cannot keep git fetching back to back.
			select {
			case <-ctx.Done():
			case <-time.After(minRequestGap):
			}
		}
	}
}

// refresh fetches the branch and, when it moved, loads and compiles the
// new commit's configuration and swaps it in. A configuration that fails
// to load leaves the current one serving; a periodic refresh does not try
// the same failing commit again (a requested one does).
func (c *configSource) refresh(ctx context.Context, trigger string) {
	c.mu.Lock()
	c.refreshing = true
	c.mu.Unlock()
	st := refreshStatus{Trigger: trigger, StartedAt: time.Now().UTC()}
	commit, gen, err := c.attempt(ctx, trigger)
	st.FinishedAt, st.Commit = time.Now().UTC(), commit
	switch {
	case err != nil:
		st.Result, st.Error = refreshFailed, err.Error()
	case gen == nil:
		st.Result = refreshUnchanged
	default:
		st.Result = refreshLoaded
		c.current.Store(gen)
	}
	c.mu.Lock()
	c.last, c.refreshing = st, false
	if err != nil && commit != "" {
		c.failedCommit, c.failedError = commit, st.Error
	}
	c.mu.Unlock()
	attrs := []slog.Attr{slog.String("trigger", trigger), slog.String("result", st.Result), slog.String("commit", commit),
		slog.Duration("took", st.FinishedAt.Sub(st.StartedAt))}
	switch {
	case errors.As(err, new(stillFailing)):
		c.logger.LogAttrs(ctx, slog.LevelDebug, "configuration unchanged since it failed to load", attrs...)
	case err != nil:
		c.logger.LogAttrs(ctx, slog.LevelWarn, "configuration refresh failed; the last good configuration keeps serving", append(attrs, slog.String("error", st.Error))...)
	case gen != nil:
		c.logger.LogAttrs(ctx, slog.LevelInfo, "configuration refreshed", append(attrs, slog.Any("profiles", gen.names))...)
	default:
		c.logger.LogAttrs(ctx, slog.LevelDebug, "configuration unchanged", attrs...)
	}
}

// stillFailing is the error of a periodic refresh that found the commit
// that failed to load last time: it is not loaded again.
type stillFailing struct{ msg string }

func (e stillFailing) Error() string { return e.msg }

// attempt is one refresh: the commit fetched, and the new generation when
// there is one to swap in.
func (c *configSource) attempt(ctx context.Context, trigger string) (string, *generation, error) {
	commit, err := c.repo.fetch(ctx)
	if err != nil {
		shown, _ := c.repo.describe()
		return "", nil, fmt.Errorf("fetching %s: %w", shown, err)
	}
	c.mu.Lock()
	failedCommit, failedError := c.failedCommit, c.failedError
	c.mu.Unlock()
	switch {
	case commit == c.current.Load().commit:
		return commit, nil, nil
	case commit == failedCommit && trigger != "request":
		return commit, nil, stillFailing{failedError}
	}
	if err := c.repo.checkout(ctx, commit); err != nil {
		return commit, nil, err
	}
	gen, err := c.load(ctx, commit)
	if err != nil {
		return commit, nil, fmt.Errorf("loading %s at commit %s: %w", c.configPath, short(commit), err)
	}
	return commit, gen, nil
}

// ConfigStatus is the document of GET /config/status.
type ConfigStatus struct {
	Repository     string          `json:"repository"`
	Branch         string          `json:"branch"`
	ConfigPath     string          `json:"configPath"`
	Commit         string          `json:"commit"`
	LoadedAt       time.Time       `json:"loadedAt"`
	Profiles       []ProfileStatus `json:"profiles"`
	DefaultProfile *string         `json:"defaultProfile"`
	RuleCount      int             `json:"ruleCount"`
	// RefreshInterval is how often the repository is fetched ("0s": only
	// on request), and NextRefresh when the next periodic refresh is due;
	// both are null for the built-in rulesets, which nothing refreshes.
	RefreshInterval *string       `json:"refreshInterval"`
	NextRefresh     *time.Time    `json:"nextRefresh"`
	Refreshing      bool          `json:"refreshing"`
	LastRefresh     refreshStatus `json:"lastRefresh"`
}

// ProfileStatus is one profile of the configuration that serves.
type ProfileStatus struct {
	Name      string `json:"name"`
	RuleCount int    `json:"ruleCount"` // rules that run
}

func (c *configSource) status() ConfigStatus {
	gen := c.current.Load()
	shown, branch := c.repo.describe()
	s := ConfigStatus{
		Repository: shown, Branch: branch, ConfigPath: c.configPath,
		Commit: gen.commit, LoadedAt: gen.loadedAt, RuleCount: gen.ruleCount, Profiles: []ProfileStatus{},
	}
	if _, builtin := c.repo.(builtinRepo); !builtin {
		interval := max(c.interval, 0).String()
		s.RefreshInterval = &interval
	}
	if gen.defErr == "" {
		s.DefaultProfile = &gen.def
	}
	for _, name := range gen.names {
		s.Profiles = append(s.Profiles, ProfileStatus{Name: name, RuleCount: gen.profiles[name].lint.RuleCount()})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s.LastRefresh, s.Refreshing = c.last, c.refreshing
	if !c.next.IsZero() {
		next := c.next
		s.NextRefresh = &next
	}
	return s
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
