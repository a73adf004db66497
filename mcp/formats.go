package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/specgate/specgate/spec"
)

// reads says which formats each tool reads, in the words its description,
// the server's instructions and its refusals all use.
var reads = map[string]struct {
	formats []spec.Format
	words   string
}{
	ToolContractTest: {[]spec.Format{spec.OpenAPI, spec.Swagger, spec.Arazzo}, "OpenAPI 2.0 and 3.x descriptions, and Arazzo 1.0 and 1.1 workflows"},
	ToolMock:         {[]spec.Format{spec.OpenAPI, spec.Swagger}, openAPIOnly},
	ToolValidateEx:   {[]spec.Format{spec.OpenAPI, spec.Swagger}, openAPIOnly},
	ToolGenerateEx:   {[]spec.Format{spec.OpenAPI, spec.Swagger}, openAPIOnly},
	ToolFixExamples:  {[]spec.Format{spec.OpenAPI, spec.Swagger}, openAPIOnly},
	ToolCompat: {[]spec.Format{spec.OpenAPI, spec.Swagger, spec.AsyncAPI, spec.Proto, spec.GraphQL, spec.WSDL},
		"OpenAPI 2.0 and 3.x, AsyncAPI 2.x and 3.x, Protocol Buffers (gRPC), GraphQL and WSDL 1.1"},
	ToolLint: {nil, "OpenAPI 2.0 and 3.x, AsyncAPI 2.x and 3.x, Arazzo 1.0 and 1.1, Protocol Buffers (gRPC), GraphQL and WSDL 1.1"},
}

const openAPIOnly = "OpenAPI 2.0 and 3.x descriptions"

// toolError is the tool error of err, a failure of tool on the files at
// paths: when one of them is of a format the tool does not read, the
// refusal says so in the same words for every tool (the packages behind
// the tools word it each their own way); otherwise err, paths shown
// relative to the root.
func (s *Server) toolError(ctx context.Context, tool string, err error, paths ...string) error {
	if r, ok := reads[tool]; ok && r.formats != nil {
		for _, p := range paths {
			doc, oerr := s.loader().Open(ctx, p)
			if oerr != nil || slices.Contains(r.formats, doc.Format) {
				continue
			}
			msg := fmt.Sprintf("%s is %s: %s reads %s", s.root.Show(p), doc, tool, r.words)
			if doc.Format == spec.Arazzo {
				msg += "; run its workflows with " + ToolContractTest + " or " + ToolRunSuite
			}
			return errors.New(msg)
		}
	}
	return fmt.Errorf("%s", s.showErr(err))
}

// cliAdvice are the command line's advice in the messages of the packages
// behind the tools, and what the tools' callers can do instead: they have
// no flags, and the server reads under its root only.
var cliAdvice = strings.NewReplacer(
	"pass --allow-external-refs or --ref-root DIR to allow it", "the server reads files under its root only (start it with another --root to read elsewhere)",
	"pass --ref-root DIR for a wider tree", "the server reads files under its root only",
	"a remote document, not fetched without --allow-remote-refs", "a remote document, which the server does not fetch",
	"a remote file, not fetched without --allow-remote-refs", "a remote file, which the server does not fetch",
	"pass --allow-remote-refs to allow it", "the server does not fetch remote documents",
	"give --testBaseURL, or its address in specgate.yaml", "give baseUrl (testBaseUrl for run_suite), or its address in specgate.yaml",
	"give --testBaseURL, the spec's baseUrl", "give baseUrl (testBaseUrl for run_suite), the spec's baseUrl",
	"(--testBaseURL, or an address for", "(baseUrl, or an address for",
	"give the workflow's inputs with --inputs FILE", "give the workflow's inputs in the input inputs",
	"(name another with --base-branch)", "(name another with git.baseBranch)",
	"choose one with --profile (", "choose one with the input profile (",
)
