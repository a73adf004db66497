package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
)

// --ci: the commands that run tests, mocks and checks submit their reports
// to an insights service. Each command appends ciFlags to its flags and
// calls submitReports once its reports are written; the Before of
// addCommonOptions checks the options before the command runs.

// ciFlags are the options of --ci.
func ciFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "ci", Usage: "submit the reports, with the CI build's metadata, to the insights service (docs/insights.md)"},
		&cli.StringFlag{Name: "insights-url", Usage: "`URL` of the insights service (default: " + insights.URLEnv + ", else specgate.yaml's specgate.insights.url); its token is read from " + insights.TokenEnv},
		&cli.StringFlag{Name: "repo-id", Usage: "the repository's `ID` at the insights service (default: SPECGATE_REPO_ID, -Dspecgate.repo.id, else the CI provider's owner/name)"},
		&cli.StringFlag{Name: "build-id", Usage: "the build's `ID` (default: SPECGATE_BUILD_ID, -Dspecgate.build.id, else the CI provider's)"},
		&cli.StringFlag{Name: "run-attempt", Usage: "the `N`th run of this build (default: SPECGATE_RUN_ATTEMPT, -Dspecgate.run.attempt, else the CI provider's)"},
		&cli.GenericFlag{Name: "metadata", Value: &repeated{}, Usage: "a free field `KEY=VALUE` sent with the reports (repeatable)"},
		&cli.BoolFlag{Name: "ci-strict", Usage: "a failed submission fails the command: exit 1 where it would exit 0 (send-report always does)"},
		&cli.DurationFlag{Name: "ci-timeout", Value: insights.DefaultTimeout, Usage: "time limit of each call to the insights service, retries included"},
	}
}

// repeated is a flag that keeps each value given, commas and all.
type repeated []string

func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }
func (r *repeated) String() string {
	if r == nil {
		return ""
	}
	return strings.Join(*r, ", ")
}

func repeatedValues(c *cli.Context, name string) []string {
	if r, ok := c.Generic(name).(*repeated); ok && r != nil {
		return *r
	}
	return nil
}

// ciSetup is what --ci resolved to, kept from the Before to the
// submission.
type ciSetup struct {
	client *insights.Client
	ci     insights.CI
	res    *insights.Resolver
}

const ciSetupKey = "ciSetup"

// checkCI resolves the --ci options before the command runs: a malformed
// --metadata or run attempt, or no URL for the service, is a usage error
// reported before any test runs.
func checkCI(c *cli.Context, env Env) error {
	meta := repeatedValues(c, "metadata")
	if !c.Bool("ci") {
		for _, f := range []string{"insights-url", "repo-id", "build-id", "run-attempt", "ci-strict"} {
			if c.IsSet(f) {
				debugf("--%s has no effect without --ci", f)
			}
		}
		if len(meta) > 0 {
			if _, err := insights.ParseMetadata(meta); err != nil {
				return exitf(ExitUsage, "%v", err)
			}
		}
		return nil
	}
	setup, err := resolveCI(c, env)
	if err != nil {
		return err
	}
	if hasFlag(c.Command, "shard") && c.String("shard") != "" && setup.ci.BuildID == "" {
		return exitf(ExitUsage, "%s", errShardWithoutBuild)
	}
	c.App.Metadata[ciSetupKey] = setup
	return nil
}

// errShardWithoutBuild is why a shard's reports cannot be submitted
// without a build id.
var errShardWithoutBuild = errors.New("--shard with --ci needs the build's id, by which the insights service combines the shards of one build: " +
	"--build-id, SPECGATE_BUILD_ID or -Dspecgate.build.id (CI providers give one)")

// resolveCI reads the service's URL and token and the CI metadata.
func resolveCI(c *cli.Context, env Env) (*ciSetup, error) {
	u, from, err := insightsURL(c, env)
	if err != nil {
		return nil, err
	}
	if u == "" {
		return nil, exitf(ExitUsage, "--ci needs the insights service's URL: --insights-url, -Dspecgate.insights.url, %s, or specgate.yaml's specgate.insights.url", insights.URLEnv)
	}
	if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return nil, exitf(ExitUsage, "%s %q is not an http:// or https:// URL", from, u)
	}
	git := &insights.Git{}
	wd, _ := os.Getwd()
	ci, err := insights.Resolve(insights.Sources{
		Getenv:     env.Getenv,
		Properties: systemProperties(c),
		Options:    map[string]string{"repo-id": c.String("repo-id"), "build-id": c.String("build-id"), "run-attempt": c.String("run-attempt")},
		Metadata:   repeatedValues(c, "metadata"),
		Git:        git.Info(c.Context, wd),
	})
	if err != nil {
		return nil, exitf(ExitUsage, "%v", err)
	}
	httpClient, err := httpx.NewClient(httpx.ClientOptions{Timeout: c.Duration("ci-timeout"), Getenv: jvmProxies(systemProperties(c), env.Getenv), MaxConnsPerHost: 2})
	if err != nil {
		return nil, exitf(ExitUsage, "%v", err)
	}
	token := strings.TrimSpace(env.Getenv(insights.TokenEnv))
	client := &insights.Client{URL: u, Token: token, HTTP: httpClient, Timeout: c.Duration("ci-timeout"),
		Logger: slog.Default(), UserAgent: "specgate/" + version()}
	slog.Debug("insights", slog.String("url", u), slog.String("from", from), slog.Bool("token", token != ""),
		slog.String("provider", ci.Provider), slog.Any("sources", ci.Sources))
	return &ciSetup{client: client, ci: ci, res: &insights.Resolver{Git: git}}, nil
}

// insightsURL is the service's URL and where it was read: the option, a
// system property, the environment, or specgate.yaml (the command's
// --config, or the one found upward).
func insightsURL(c *cli.Context, env Env) (u, from string, err error) {
	if v := c.String("insights-url"); v != "" {
		return v, "--insights-url", nil
	}
	if v := systemProperties(c)["specgate.insights.url"]; v != "" {
		return v, "-Dspecgate.insights.url", nil
	}
	if v := strings.TrimSpace(env.Getenv(insights.URLEnv)); v != "" {
		return v, insights.URLEnv, nil
	}
	path := ""
	if hasFlag(c.Command, "config") {
		path = c.String("config")
	}
	if path == "" {
		found, ok := config.Find(".")
		if !ok {
			return "", "", nil
		}
		path = found
	}
	cfg, err := config.Load(path, config.Options{Getenv: env.Getenv})
	if err != nil {
		return "", "", exitf(ExitUsage, "%v", err)
	}
	return cfg.Insights.URL, path, nil
}

// ciSetupOf is the setup checkCI made, or nil without --ci.
func ciSetupOf(c *cli.Context) *ciSetup {
	s, _ := c.App.Metadata[ciSetupKey].(*ciSetup)
	return s
}

// ciRun is what a command submits: its report files and checks.
type ciRun struct {
	// Command names the command for the service; "" is the command's own
	// name.
	Command string
	// CTRF are CTRF report files: of a test, mock or run-suite run.
	CTRF []string
	// Compat is a compatibility check, with the consumer check of each of
	// its results (see checkConsumers).
	Compat    *compat.Report
	Consumers []insights.ConsumerCheck
	// SpecMetadata is a spec metadata report.
	SpecMetadata *insights.SpecMetadataReport
	// ReportDir is where the local reports are: a failed submission says
	// they stay there.
	ReportDir string
	// Config is the run's specgate.yaml, whose spec ids the reports may
	// name specifications by (run-suite); nil without one.
	Config *config.Config
	// Strict makes a failed submission fail the command, as --ci-strict
	// does: set by send-report, whose only work is submitting.
	Strict bool
}

// submitReports submits a run's reports when --ci is set, and returns the
// command's outcome, by one rule for every command: a failed submission is
// reported on standard error, and runErr, the run's own verdict, is never
// lost; with --ci-strict (or run.Strict), a failed submission of a run
// that succeeded fails it with exit 1, since 2 says the command could not
// start (usage, configuration, input). Without --ci it returns runErr.
func submitReports(ctx context.Context, c *cli.Context, env Env, run ciRun, runErr error) error {
	setup := ciSetupOf(c)
	if setup == nil {
		return runErr
	}
	// A mock is stopped by SIGINT or SIGTERM, which also ends the
	// command's context: the submission has its own time limit instead.
	ctx = context.WithoutCancel(ctx)
	command := run.Command
	if command == "" {
		command = c.Command.Name
	}
	tool := insights.Tool{Name: "specgate", Version: version()}
	if run.Config != nil {
		setup.res.Aliases = map[string]string{}
		for _, t := range run.Config.Tests {
			if t.Spec.Git == nil {
				setup.res.Aliases[t.Spec.ID] = t.Spec.Path
			}
		}
		for _, m := range run.Config.Mocks {
			for _, sp := range m.Specs {
				if sp.Git == nil {
					setup.res.Aliases[sp.ID] = sp.Path
				}
			}
		}
	}
	var subs []*insights.Submission
	var problems []error
	for _, path := range run.CTRF {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			problems = append(problems, fmt.Errorf("no CTRF report at %s to submit (--ci submits the CTRF report: keep ctrf among the report formats)", path))
			continue
		}
		s := insights.NewSubmission(command, "", tool, setup.ci)
		if err := s.AddCTRF(ctx, path, setup.res); err != nil {
			problems = append(problems, err)
			continue
		}
		if s.Shard != nil && s.CI.BuildID == "" {
			problems = append(problems, fmt.Errorf("%s is shard %s of a run: %w", path, s.Shard, errShardWithoutBuild))
			continue
		}
		subs = append(subs, s)
	}
	if run.Compat != nil {
		s := insights.NewSubmission(command, "backward-compatibility", tool, setup.ci)
		if err := s.AddCompat(ctx, run.Compat, run.Consumers, setup.res); err != nil {
			problems = append(problems, err)
		} else {
			subs = append(subs, s)
		}
	}
	if run.SpecMetadata != nil {
		s := insights.NewSubmission(command, insights.SpecMetadataKind, tool, setup.ci)
		s.AddSpecMetadata(run.SpecMetadata)
		subs = append(subs, s)
	}
	if len(subs) == 0 && len(problems) == 0 {
		if runErr != nil {
			return runErr // the run ended before it wrote a report
		}
		problems = append(problems, errors.New("the run wrote no report to submit"))
	}
	for _, s := range subs {
		start := time.Now()
		rec, err := setup.client.Submit(ctx, s)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		note := ""
		if rec.Duplicate {
			note = ", which it had already"
		}
		fmt.Fprintf(env.Stderr, "reports submitted to the insights service at %s (submission %s%s, repository %s, %s, %s)\n",
			setup.client.URL, rec.ID, note, s.CI.RepoID, english.Count(len(s.Results), "specification", "specifications"), time.Since(start).Round(time.Millisecond))
	}
	if len(problems) == 0 {
		return runErr
	}
	later := ""
	if run.ReportDir != "" {
		later = fmt.Sprintf("; the reports stay in %s (submit them later with 'specgate send-report --dir %s')", run.ReportDir, run.ReportDir)
	}
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "specgate: --ci: %v%s\n", p, later)
	}
	switch {
	case runErr != nil:
		return runErr
	case c.Bool("ci-strict"):
		return exitf(ExitFindings, "--ci-strict: the reports were not submitted")
	case run.Strict:
		return exitf(ExitFindings, "%s: the reports were not submitted", run.Command)
	}
	return nil
}

// checkConsumers asks the insights service, with --ci, which consumers use
// the operations a compatibility check's failing changes affect, and adds
// the answer to the verdicts' messages; nil without --ci.
func checkConsumers(ctx context.Context, c *cli.Context, rep *compat.Report) []insights.ConsumerCheck {
	setup := ciSetupOf(c)
	if setup == nil {
		return nil
	}
	return insights.CheckConsumers(ctx, setup.client, rep, setup.res)
}

// ciReportDir is dir, or with --ci and no dir, def: a mock run with --ci
// writes its stub-usage report so that it can be submitted.
func ciReportDir(c *cli.Context, dir, def string) string {
	if dir == "" && c.Bool("ci") {
		return filepath.Clean(def)
	}
	return dir
}

// mockCIRun is what a mock run submits: the stub-usage reports it wrote,
// unless it never served (a spec that did not load, a port taken), when
// the folder may hold an earlier run's.
func mockCIRun(reportDir string, err error) ciRun {
	var ec cli.ExitCoder
	if errors.As(err, &ec) && ec.ExitCode() == ExitUsage {
		return ciRun{}
	}
	return ciRun{CTRF: mockUsageReports(reportDir), ReportDir: reportDir}
}

// jvmProxies reads the proxy variables as getenv does, except where the
// command line defines Java's proxy properties (-Dhttp.proxyHost,
// -Dhttp.proxyPort, -Dhttps.proxyHost, -Dhttps.proxyPort,
// -Dhttp.nonProxyHosts), which win: they were given for this run.
func jvmProxies(props map[string]string, getenv func(string) string) func(string) string {
	proxy := func(scheme string) string {
		host := strings.TrimSpace(props[scheme+".proxyHost"])
		if host == "" {
			return ""
		}
		port := strings.TrimSpace(props[scheme+".proxyPort"])
		if port == "" {
			port = map[string]string{"http": "80", "https": "443"}[scheme]
		}
		return "http://" + net.JoinHostPort(host, port)
	}
	overrides := map[string]string{}
	if p := proxy("http"); p != "" {
		overrides["HTTP_PROXY"], overrides["http_proxy"] = p, p
	}
	if p := proxy("https"); p != "" {
		overrides["HTTPS_PROXY"], overrides["https_proxy"] = p, p
	}
	if hosts, ok := props["http.nonProxyHosts"]; ok {
		// Java writes "localhost|*.example.com"; NO_PROXY "localhost,.example.com".
		var list []string
		for _, h := range strings.Split(hosts, "|") {
			if h = strings.TrimSpace(h); h != "" {
				list = append(list, strings.TrimPrefix(h, "*"))
			}
		}
		no := strings.Join(list, ",")
		overrides["NO_PROXY"], overrides["no_proxy"] = no, no
	}
	if len(overrides) == 0 {
		return getenv
	}
	return func(k string) string {
		if v, ok := overrides[k]; ok {
			return v
		}
		return getenv(k)
	}
}
