package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/internal/walk"
)

// Expand turns command-line inputs into the specifications to load:
//   - "-" (standard input) and http(s) URLs are kept as they are;
//   - a file is kept as it is, whatever it holds (loading will say);
//   - a folder is searched recursively for .yaml, .yml and .json files that
//     are specifications by content (a top-level openapi, swagger, asyncapi
//     or arazzo key, or what a registered Reader claims) and for the files
//     of a Reader's extensions (.proto, .graphql, .wsdl), skipping hidden
//     folders and node_modules;
//   - a pattern with *, ?, [ or { is a glob where ** crosses folders; its
//     matches are filtered by content like a folder's files.
//
// Inputs that match nothing are returned as errors, one per input; the
// others are still expanded.
func Expand(args []string) ([]string, []error) {
	var out []string
	var errs []error
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		switch {
		case arg == "-" || isURL(arg):
			add(arg)
		case strings.ContainsAny(arg, "*?[{"):
			matches, err := doublestar.FilepathGlob(arg, doublestar.WithFilesOnly())
			if err != nil {
				errs = append(errs, &Error{File: arg, Msg: "invalid glob pattern: " + err.Error()})
				continue
			}
			n := 0
			for _, m := range matches {
				if isSpecFile(m) {
					add(m)
					n++
				}
			}
			if n == 0 {
				errs = append(errs, &Error{File: arg, Msg: "no specification matches this pattern"})
			}
		default:
			st, err := os.Stat(arg)
			if err != nil {
				errs = append(errs, &Error{File: arg, Msg: "no such file or folder"})
				continue
			}
			if !st.IsDir() {
				add(arg)
				continue
			}
			found, err := walkSpecs(arg)
			if err != nil {
				errs = append(errs, &Error{File: arg, Msg: err.Error(), Err: err})
			}
			if len(found) == 0 && err == nil {
				errs = append(errs, &Error{File: arg, Msg: "the folder holds no OpenAPI, AsyncAPI, Arazzo, Protocol Buffers, GraphQL or WSDL specification"})
			}
			for _, f := range found {
				add(f)
			}
		}
	}
	return out, errs
}

func walkSpecs(dir string) ([]string, error) {
	found, err := walk.Files(dir, isSpecFile)
	sort.Strings(found)
	return found, err
}

// The version keys isSpecFile looks for, compiled on first use: most runs
// name their files and never expand a folder.
var (
	yamlSpecKey = lazyregexp.New(`(?m)^["']?(openapi|swagger|asyncapi|arazzo)["']?\s*:`)
	jsonSpecKey = lazyregexp.New(`"(openapi|swagger|asyncapi|arazzo)"\s*:`)
)

// isSpecFile sniffs a file's content for a specification's version key. It
// is a filter for folders and globs, not a parser: loading decides.
func isSpecFile(p string) bool {
	if ReaderExtension(p) {
		return true
	}
	ext := strings.ToLower(filepath.Ext(p))
	if ext != ".yaml" && ext != ".yml" && ext != ".json" {
		return false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return jsonSpecKey().Match(data) || claim(p, data) != nil
	}
	return yamlSpecKey().Match(data)
}
