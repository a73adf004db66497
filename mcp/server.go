// Package mcp is specgate's MCP server for coding agents (`specgate mcp`).
// It exposes contract tests, mocks, example validation, the
// backward-compatibility check and lint as MCP tools, each a thin call into
// the package that does the work (apitest, mock, examples, compat, linter),
// with typed inputs and outputs whose JSON Schemas are generated from the Go
// types of this package and documented field by field.
//
// What belongs to serving agents is owned here: every path is resolved
// against a root and refused outside it (Root); every call has a time limit
// and honours cancellation; long calls report MCP progress notifications;
// outputs are bounded for a model's context, with the full report written
// to a file whose path the output gives; the mocks an agent starts run in
// the server's own process and stop with it. No tool runs a shell. The
// transports are the SDK's: stdio for editors, streamable HTTP behind an
// Origin check (HTTPHandler).
package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of what a tool answers: beyond them an output is summarised, and
// the full report's path says where the rest is.
const (
	// DefaultTimeout is the time limit of a tool call.
	DefaultTimeout = 5 * time.Minute
	// MaxItems bounds the failed tests, findings, invalid examples or
	// changes listed in one answer.
	MaxItems = 25
	// MaxBody bounds the bytes of a request or response body shown in an
	// answer.
	MaxBody = 512
	// MaxFailures bounds the entries of failed tests in a test run's
	// answer, MaxDetailed those of them that show their exchange and
	// problems, MaxProblems the problems of one, and MaxOthers the titles
	// of the other tests an entry covers: a run of many failures answers
	// in a few KiB (docs/architecture-notes.md), the reports hold them all.
	MaxFailures = 10
	MaxDetailed = 3
	MaxProblems = 5
	MaxOthers   = 3
	// MaxMocks bounds the mocks running at once.
	MaxMocks = 16
	// keptReports is how many report folders of each tool are kept.
	keptReports = 20
)

// Tool names.
const (
	ToolContractTest  = "run_contract_test"
	ToolMock          = "manage_mock_server"
	ToolValidateEx    = "validate_examples"
	ToolCompat        = "backward_compatibility_check"
	ToolLint          = "lint"
	ToolRunSuite      = "run_suite"
	ToolGenerateEx    = "generate_examples"
	ToolFixExamples   = "fix_examples"
	defaultReportPath = "specgate-reports/mcp"
)

// Options configure a Server.
type Options struct {
	// Root is the folder paths are resolved against and confined to; ""
	// is the working directory.
	Root string
	// ReportDir is where full reports are written, one folder per call;
	// "" is specgate-reports/mcp under the root. It must be under the
	// root.
	ReportDir string
	// Timeout is the time limit of each tool call; zero is DefaultTimeout.
	Timeout time.Duration
	// Version is specgate's version, given to clients and reports.
	Version string
	// Logger receives the server's and its mocks' logs; nil discards
	// them. In stdio mode it must not write to standard output.
	Logger *slog.Logger
	// Getenv reads the environment (credentials named after security
	// schemes, the rules' cache folder); nil is os.Getenv.
	Getenv func(string) string
}

// Server is specgate's MCP server. Its mocks live until Close.
type Server struct {
	opts    Options
	root    *Root
	reports string
	sdk     *mcpsdk.Server
	mocks   *mocks
	seq     atomic.Int64

	// life ends when the server is closed: the mocks serve under it.
	life      context.Context
	endLife   context.CancelFunc
	closeOnce sync.Once
}

// New returns a server with every tool registered.
func New(opts Options) (*Server, error) {
	root, err := NewRoot(opts.Root)
	if err != nil {
		return nil, err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	dir := opts.ReportDir
	if dir == "" {
		dir = defaultReportPath
	}
	reports, err := root.Resolve("report folder", dir)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, root: root, reports: reports}
	s.life, s.endLife = context.WithCancel(context.Background())
	s.mocks = newMocks(s)
	s.sdk = mcpsdk.NewServer(&mcpsdk.Implementation{Name: "specgate", Title: "specgate", Version: opts.Version}, &mcpsdk.ServerOptions{
		Instructions: instructions(root.Dir()),
		Logger:       s.sdkLogger(),
		Capabilities: &mcpsdk.ServerCapabilities{},
	})
	s.addTools()
	return s, nil
}

// sdkLogger is the logger given to the SDK: its warnings and errors only,
// since it logs every session's start and end at Info.
func (s *Server) sdkLogger() *slog.Logger {
	return slog.New(atLeast{s.opts.Logger.Handler(), slog.LevelWarn})
}

// atLeast passes on the records of its handler at min and above.
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h atLeast) WithAttrs(attrs []slog.Attr) slog.Handler {
	return atLeast{h.Handler.WithAttrs(attrs), h.min}
}

func (h atLeast) WithGroup(name string) slog.Handler {
	return atLeast{h.Handler.WithGroup(name), h.min}
}

func instructions(root string) string {
	return "specgate checks API specifications (" + reads[ToolLint].words + ") and the services that implement them: " +
		"lint reads them all; backward_compatibility_check " + reads[ToolCompat].words + "; the mock and the example tools " + openAPIOnly +
		"; run_contract_test and run_suite test services against OpenAPI descriptions and run Arazzo workflows. " +
		"Paths are resolved against the root " + root + " and must stay under it; paths in answers are relative to it. " +
		"Answers list at most " + fmt.Sprint(MaxItems) + " findings, changes or examples, and at most " + fmt.Sprint(MaxFailures) + " entries of failed tests (the tests that failed the same way are one entry with their count); " +
		"when more were found, `omitted` counts them and `report` or `reportDir` names the files holding them all. " +
		"Mocks started with manage_mock_server run until stopped or until this server exits."
}

// MCP is the SDK's server, for connecting transports.
func (s *Server) MCP() *mcpsdk.Server { return s.sdk }

// Root is the root paths are resolved against.
func (s *Server) Root() *Root { return s.root }

// Run serves one session on t until the client disconnects or ctx ends.
// It does not stop the mocks: Close does.
func (s *Server) Run(ctx context.Context, t mcpsdk.Transport) error {
	return s.sdk.Run(ctx, t)
}

// Close stops every mock the server started and waits for their listeners
// to close.
func (s *Server) Close() error {
	var err error
	s.closeOnce.Do(func() {
		err = s.mocks.stopAll()
		s.endLife()
	})
	return err
}

// call is one tool call as the tools see it: its progress token and the
// limits it runs under.
type call struct {
	s    *Server
	req  *mcpsdk.CallToolRequest
	tool string

	mu       sync.Mutex
	last     time.Time
	progress float64
}

// notify sends a progress notification when the client asked for them (a
// progress token), at most ten a second except the last.
func (c *call) notify(ctx context.Context, done, total int, msg string) {
	if c.req == nil || c.req.Session == nil || c.req.Params == nil {
		return
	}
	token := c.req.Params.GetProgressToken()
	if token == nil {
		return
	}
	c.mu.Lock()
	now := time.Now()
	final := total > 0 && done >= total
	if !final && now.Sub(c.last) < 100*time.Millisecond {
		c.mu.Unlock()
		return
	}
	c.last = now
	// Progress must increase with every notification.
	p := max(float64(done), c.progress+0.001)
	c.progress = p
	c.mu.Unlock()
	params := &mcpsdk.ProgressNotificationParams{ProgressToken: token, Progress: p, Message: msg}
	if total > 0 {
		params.Total = float64(total)
	}
	_ = c.req.Session.NotifyProgress(ctx, params)
}

// reportDir makes a new folder for the full reports of this call, and
// removes the oldest of the tool's folders beyond keptReports.
func (c *call) reportDir() (string, error) {
	name := fmt.Sprintf("%s-%s-%d", c.tool, time.Now().UTC().Format("20060102T150405"), c.s.seq.Add(1))
	dir := filepath.Join(c.s.reports, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating the report folder: %w", err)
	}
	entries, err := os.ReadDir(c.s.reports)
	if err != nil {
		return dir, nil
	}
	var mine []os.DirEntry
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), c.tool+"-") {
			mine = append(mine, e)
		}
	}
	if len(mine) > keptReports {
		slices.SortFunc(mine, func(a, b os.DirEntry) int { return modTime(a).Compare(modTime(b)) })
		for _, e := range mine[:len(mine)-keptReports] {
			if e.Name() != name {
				os.RemoveAll(filepath.Join(c.s.reports, e.Name()))
			}
		}
	}
	return dir, nil
}

func modTime(e os.DirEntry) time.Time {
	info, err := e.Info()
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}

// handler is a tool's work: a typed input to a typed output, or an error
// that the client receives as a tool error.
type handler[In, Out any] func(ctx context.Context, c *call, in In) (Out, error)

// errTimeout marks a call that reached its time limit.
var errTimeout = errors.New("time limit reached")

// add registers a tool whose input schema is generated from In (with the
// enumerations given by property name) and output schema from Out. The
// call runs under the server's time limit; a panic becomes a tool error
// rather than the end of the server.
func add[In, Out any](s *Server, tool *mcpsdk.Tool, enums map[string][]any, h handler[In, Out]) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %s: %v", tool.Name, err))
	}
	for name, values := range enums {
		prop := schema.Properties[name]
		if prop == nil {
			panic(fmt.Sprintf("mcp: tool %s has no input %q to enumerate", tool.Name, name))
		}
		prop.Enum = values
	}
	notNull(schema)
	tool.InputSchema = schema
	output, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %s: %v", tool.Name, err))
	}
	notNull(output)
	tool.OutputSchema = output
	mcpsdk.AddTool(s.sdk, tool, func(ctx context.Context, req *mcpsdk.CallToolRequest, in In) (_ *mcpsdk.CallToolResult, out Out, err error) {
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				s.opts.Logger.Error("tool panicked", slog.String("tool", tool.Name), slog.Any("panic", p), slog.String("stack", string(debug.Stack())))
				err = fmt.Errorf("%s failed: internal error: %v (please report it)", tool.Name, p)
			}
			s.opts.Logger.Info("tool call", slog.String("tool", tool.Name), slog.Duration("took", time.Since(start)), slog.Bool("error", err != nil))
		}()
		ctx, cancel := context.WithTimeoutCause(ctx, s.opts.Timeout, errTimeout)
		defer cancel()
		c := &call{s: s, req: req, tool: tool.Name}
		out, err = h(ctx, c, in)
		if err != nil && errors.Is(context.Cause(ctx), errTimeout) {
			err = fmt.Errorf("%s took longer than its time limit of %s (--tool-timeout) and was stopped: %w", tool.Name, s.opts.Timeout, err)
		}
		return nil, out, err
	})
}

// notNull makes the lists and objects of a schema plain: an input leaves
// one out rather than send null, and an answer lists nothing as [] (a
// schema of one type per value is what every client's dialect reads).
func notNull(s *jsonschema.Schema) {
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		notNull(p)
	}
	if s.Items != nil {
		notNull(s.Items)
	}
}

// timedOut reports whether ctx ended at the call's time limit (rather than
// by the client's cancellation).
func timedOut(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errTimeout) }

func (s *Server) addTools() {
	s.addLint()
	s.addCompat()
	s.addValidateExamples()
	s.addContractTest()
	s.addMock()
	s.addSuite()
	s.addExampleEdits()
}

// truncate cuts text to at most n bytes on a character boundary, saying
// how much was left out.
func truncate(text string, n int) string {
	if len(text) <= n {
		return text
	}
	cut := n
	for cut > 0 && cut < len(text) && text[cut]&0xC0 == 0x80 {
		cut--
	}
	return text[:cut] + fmt.Sprintf("… (%d more bytes)", len(text)-cut)
}
