package spec

import (
	"bytes"
	"runtime"
	"slices"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// Parsing a large YAML file is most of loading it, and it runs on one
// core while the others wait. A spec is a block mapping whose keys start
// lines at column 0, and whose large values (paths, components) are block
// mappings whose keys start lines at one indentation: parseInPieces cuts
// the text before such lines into pieces of about equal size, parses them
// in parallel and joins the trees. Blank lines pad each piece so that its
// nodes keep their lines and columns; a piece cut inside a mapping's value
// starts with that mapping's key again.
//
// A wrong cut cannot go unnoticed: a line that starts a key at column 0 or
// at a mapping's indentation cannot continue a scalar, so a piece cut
// inside anything else (an open flow collection or quoted scalar) does not
// parse. Such a piece, an alias to another piece's anchor, or several
// documents or directives send the whole text to the one-piece parser.

// minPieceBytes is the smallest piece worth a core of its own.
const minPieceBytes = 256 << 10

// maxPieces bounds the pieces a file is cut into.
const maxPieces = 4

// cut is where a piece starts: a byte offset at a line start, that line's
// number, and the keys of the mappings it continues, outermost first, each
// with its indentation (none for a cut at column 0).
type cut struct {
	offset int
	line   int
	keys   []string
	indent []int
}

// maxDepth is how deep in nested mappings a cut may be: in their keys
// (paths' entries, components'), or in their keys' keys (the schemas
// under components).
const maxDepth = 2

// parseInPieces parses data (one YAML document) in up to parts pieces and
// returns the document node; false when data is not cut, or a piece does
// not parse as expected (the caller then parses data whole).
func parseInPieces(data []byte, parts int) (*yaml.Node, bool) {
	parts = min(parts, maxPieces, len(data)/minPieceBytes)
	if parts < 2 {
		return nil, false
	}
	return parseCut(data, chooseCuts(data, parts))
}

// parseCut parses the pieces of data between cuts in parallel and joins
// them; false when there are no cuts or a piece does not parse as
// expected.
func parseCut(data []byte, cuts []cut) (*yaml.Node, bool) {
	if len(cuts) == 0 {
		return nil, false
	}
	docs := make([]yaml.Node, len(cuts)+1)
	errs := make([]error, len(cuts)+1)
	var wg sync.WaitGroup
	for i := range docs {
		wg.Go(func() {
			errs[i] = yaml.Unmarshal(piece(data, cuts, i), &docs[i])
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, false
		}
	}
	root := blockMapping(&docs[0])
	if root == nil {
		return nil, false
	}
	for i, c := range cuts {
		m := blockMapping(&docs[i+1])
		if m == nil || !join(root, m.Content, c.keys) {
			return nil, false
		}
	}
	return &docs[0], true
}

// join appends the pairs of a piece to mapping m. A piece that continues
// keys repeats them: its first pair, of keys[0], continues m's last, and
// so on down.
func join(m *yaml.Node, pairs []*yaml.Node, keys []string) bool {
	if len(keys) == 0 {
		m.Content = append(m.Content, pairs...)
		return true
	}
	if len(m.Content) < 2 || len(pairs) < 2 {
		return false
	}
	prevKey, prev := m.Content[len(m.Content)-2], m.Content[len(m.Content)-1]
	nextKey, next := pairs[0], pairs[1]
	for _, k := range []*yaml.Node{prevKey, nextKey} {
		if k.Kind != yaml.ScalarNode || k.Style != 0 || k.Value != keys[0] {
			return false
		}
	}
	for _, v := range []*yaml.Node{prev, next} {
		if v.Kind != yaml.MappingNode || v.Style != 0 || v.Anchor != "" {
			return false
		}
	}
	if !join(prev, next.Content, keys[1:]) {
		return false
	}
	m.Content = append(m.Content, pairs[2:]...)
	return true
}

// blockMapping is the block mapping a document node holds, or nil.
func blockMapping(doc *yaml.Node) *yaml.Node {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || m.Style != 0 || m.Anchor != "" || m.Tag != "!!map" {
		return nil
	}
	return m
}

// piece is the text of piece i: blank lines up to the lines before its
// cut, the keys it continues, then the text from the cut to the next.
func piece(data []byte, cuts []cut, i int) []byte {
	if i == 0 {
		return data[:cuts[0].offset]
	}
	c := cuts[i-1]
	end := len(data)
	if i < len(cuts) {
		end = cuts[i].offset
	}
	var b bytes.Buffer
	b.Grow(c.line + 64 + end - c.offset)
	b.Write(bytes.Repeat([]byte{'\n'}, c.line-1-len(c.keys)))
	for k, key := range c.keys {
		b.Write(bytes.Repeat([]byte{' '}, c.indent[k]))
		b.WriteString(key)
		b.WriteString(":\n")
	}
	b.Write(data[c.offset:end])
	return b.Bytes()
}

// chooseCuts picks up to parts-1 cuts, each the candidate nearest to an
// equal share of data; none when data is not a plain block mapping (a
// directive, a document marker, a top-level sequence or flow collection)
// or has no candidates.
func chooseCuts(data []byte, parts int) []cut {
	candidates := cutCandidates(data)
	var out []cut
	next := 0
	for k := 1; k < parts; k++ {
		target := len(data) * k / parts
		best := -1
		for i := next; i < len(candidates); i++ {
			if best < 0 || abs(candidates[i].offset-target) < abs(candidates[best].offset-target) {
				best = i
			}
			if candidates[i].offset > target {
				break
			}
		}
		if best < 0 {
			break
		}
		out = append(out, candidates[best])
		next = best + 1
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// cutCandidates lists the lines a piece may start at: every key at column
// 0 but the first, and every key but the first of the block mapping of a
// key that is plain and alone on its line ("paths:"), down to maxDepth.
// nil when the file is not a block mapping at column 0 or uses what ties
// pieces together (directives, document markers).
func cutCandidates(data []byte) []cut {
	// yaml.v3 also breaks lines at NEL, LS and PS, which would shift the
	// lines counted here; lone CRs are LFs by now (loneCRToLF).
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(brk)) {
			return nil
		}
	}
	// The open keys, outermost first: each one's key ("" when its value
	// is not cut), indentation, its mapping's indentation (-1 until
	// seen) and how many keys that mapping showed.
	type open struct {
		key              string
		indent, children int
		seen             int
	}
	var stack []open
	var out []cut
	first := true // no top-level key seen yet
	line := 0
	for offset := 0; offset < len(data); {
		end := bytes.IndexByte(data[offset:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += offset
		}
		text := bytes.TrimRight(data[offset:end], "\r")
		line++
		start := offset
		offset = end + 1
		lead := len(text) - len(bytes.TrimLeft(text, " "))
		if lead == len(text) || text[lead] == '#' {
			continue // blank or a comment
		}
		if first && lead > 0 {
			return nil // the top-level mapping is indented
		}
		if lead == 0 {
			if first && string(text) == "---" {
				continue // the document's start marker
			}
			if bytes.IndexByte(text, ':') <= 0 {
				return nil // not a key: a line of something else
			}
			switch text[0] {
			case '%', '-', '.', '[', '{', '?', '&', '*', '!', '\t', '|', '>':
				// A directive, a document marker, a sequence, a flow
				// collection, a complex key or a node property.
				return nil
			}
			if !first {
				out = append(out, cut{offset: start, line: line})
			}
			first = false
			stack = append(stack[:0], open{key: bareKey(text), children: -1})
			continue
		}
		for len(stack) > 0 && lead <= stack[len(stack)-1].indent {
			stack = stack[:len(stack)-1]
		}
		top := &stack[len(stack)-1]
		if top.children < 0 {
			top.children = lead
		}
		if lead != top.children {
			continue // deeper, or not a key of top's mapping
		}
		switch text[lead] {
		case '-', '?', '&', '*', '!', '[', '{', '\t', '|', '>':
			// A sequence, a complex key or a node property: top's value
			// is not cut.
			top.key = ""
			continue
		}
		if top.seen++; top.seen > 1 {
			c := cut{offset: start, line: line}
			for _, o := range stack {
				c.keys, c.indent = append(c.keys, o.key), append(c.indent, o.indent)
			}
			if !slices.Contains(c.keys, "") {
				out = append(out, c)
			}
		}
		if len(stack) < maxDepth {
			stack = append(stack, open{key: bareKey(text[lead:]), indent: lead, children: -1})
		}
	}
	return out
}

// bareKey is the key of a top-level line that holds a plain key and
// nothing else ("paths:", "components:  # comment"), or "".
func bareKey(text []byte) string {
	colon := bytes.IndexByte(text, ':')
	if colon <= 0 {
		return ""
	}
	key := text[:colon]
	for _, ch := range key {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-' || ch == '.' || ch == '$' || ch == '/') {
			return ""
		}
	}
	rest := bytes.TrimLeft(text[colon+1:], " ")
	if len(rest) > 0 && (rest[0] != '#' || len(rest) == len(text[colon+1:])) {
		return "" // a value on the line (or a '#' that is not a comment)
	}
	return string(key)
}

// yamlPieces is how many pieces parseYAML cuts a large file into.
func yamlPieces() int { return runtime.GOMAXPROCS(0) }
