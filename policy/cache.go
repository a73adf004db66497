package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/version"

	"github.com/specgate/specgate/internal/level"
)

// Cache keeps what start-up would otherwise redo on every run: the rule
// metadata read from the modules' METADATA (so that a registry is built
// without parsing), and compiled rule sets (so that an engine is built
// without the compiler's rewriting and checking stages). Entries are named
// by a digest of everything they depend on (module texts, OPA's version,
// the builtins, this format's version), so a changed rule or upgrade
// simply misses; entries unused for a month are removed.
//
// A nil *Cache caches nothing. The cache is best effort: an entry that
// cannot be read, is corrupt or does not decode is ignored and rewritten.
type Cache struct {
	dir string
}

// cacheFormat changes whenever the codec or the entries change, the
// programs that specgate's own compiler stages (inlining) make included.
const cacheFormat = "specgate-cache-7"

// cacheMaxAge is how long an unused entry is kept.
const cacheMaxAge = 30 * 24 * time.Hour

// OpenCache returns a cache in dir, or nil when dir is empty.
func OpenCache(dir string) *Cache {
	if dir == "" {
		return nil
	}
	return &Cache{dir: dir}
}

// DefaultCacheDir is $SPECGATE_CACHE_DIR (read through getenv), or the
// user's cache directory followed by "specgate"; "" when
// SPECGATE_CACHE_DIR is "off" or no cache directory is known.
func DefaultCacheDir(getenv func(string) string) string {
	switch d := getenv("SPECGATE_CACHE_DIR"); d {
	case "off":
		return ""
	case "":
	default:
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "specgate")
}

// key names an entry of a kind by the sources it depends on, in order:
// by their files' names and their texts' digests.
func (c *Cache) key(kind string, sources []*Source) string {
	h := sha256.New()
	write := func(s string) {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	write(cacheFormat)
	write(kind)
	write(version.Version)
	write(builtinsFingerprint())
	for _, s := range sources {
		write(s.File)
		digest := s.textDigest()
		h.Write(digest[:])
	}
	return kind + "-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// builtinsFingerprint names the builtins rules are compiled with and their
// arities, which decide how calls are rewritten. It is computed on first
// use: specgate's own builtins register in an init function, after
// package variables are initialized.
var builtinsFingerprint = sync.OnceValue(func() string {
	var b bytes.Buffer
	for _, bi := range Capabilities().Builtins {
		b.WriteString(bi.Name)
		if bi.Decl != nil {
			b.WriteString("/" + strconv.Itoa(len(bi.Decl.FuncArgs().Args)))
		}
		b.WriteByte(';')
	}
	return b.String()
})

// has tells whether an entry exists, and marks it as used.
func (c *Cache) has(key string) bool {
	if c == nil {
		return false
	}
	now := time.Now()
	return os.Chtimes(filepath.Join(c.dir, key), now, now) == nil
}

// get returns an entry's data, or nil.
func (c *Cache) get(key string) []byte {
	if c == nil {
		return nil
	}
	p := filepath.Join(c.dir, key)
	data, err := os.ReadFile(p)
	if err != nil || len(data) < 4 {
		return nil
	}
	body := data[4:]
	if binary.LittleEndian.Uint32(data) != crc32.Checksum(body, crcTable) {
		return nil
	}
	// Mark the entry as used, so that pruning keeps it.
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return body
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// put writes an entry atomically (a reader sees the old file or the new
// one, never a part), then removes entries unused for cacheMaxAge.
func (c *Cache) put(key string, body []byte) {
	if c == nil {
		return
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(c.dir, ".tmp-"+key+"-*")
	if err != nil {
		return
	}
	sum := binary.LittleEndian.AppendUint32(nil, crc32.Checksum(body, crcTable))
	_, err1 := f.Write(sum)
	_, err2 := f.Write(body)
	if err := f.Close(); err != nil || err1 != nil || err2 != nil {
		os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), filepath.Join(c.dir, key)); err != nil {
		os.Remove(f.Name())
		return
	}
	c.prune()
}

func (c *Cache) prune() {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err == nil && !e.IsDir() && time.Since(info.ModTime()) > cacheMaxAge {
			os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
}

// A registry entry lists the libraries' files, then each rule's metadata
// (a Rule without its source), in a compact binary form: every start
// reads it, and decoding it as JSON took a tenth of a small spec's lint.

// loadRegistry builds a registry from an entry, its sources unparsed.
func (c *Cache) loadRegistry(key string, sources []*Source, builtin bool) *Registry {
	data := c.get(key)
	if data == nil {
		return nil
	}
	libs, rules, ok := decodeRegistry(data)
	if !ok {
		return nil
	}
	byFile := map[string]*Source{}
	for _, s := range sources {
		byFile[s.File] = s
	}
	reg := &Registry{byID: map[string]*Rule{}}
	for _, f := range libs {
		s := byFile[f]
		if s == nil {
			return nil
		}
		reg.Libs = append(reg.Libs, s)
	}
	for _, r := range rules {
		if r.Source = byFile[r.File]; r.Source == nil {
			return nil
		}
		r.Builtin, r.validated = builtin, true
		if reg.add(r) != nil {
			return nil
		}
	}
	if len(reg.Libs)+len(reg.Rules) != len(sources) {
		return nil
	}
	return reg
}

// storeRegistry writes a validated registry's entry.
func (c *Cache) storeRegistry(key string, reg *Registry) {
	if c == nil {
		return
	}
	libs := make([]string, len(reg.Libs))
	for i, l := range reg.Libs {
		libs[i] = l.File
	}
	c.put(key, encodeRegistry(libs, reg.Rules))
}

func encodeRegistry(libs []string, rules []*Rule) []byte {
	e := &encoder{}
	e.texts(libs)
	e.uvarint(uint64(len(rules)))
	for _, r := range rules {
		for _, s := range []string{r.ID, r.Title, r.Description, r.Category, r.Maturity, r.Family, r.HowToFix, r.File} {
			e.text(s)
		}
		e.uvarint(uint64(r.Severity))
		e.texts(r.Formats) // nil and empty lists stay apart, as metadata has them
		e.texts(r.Peers)
	}
	return e.buf
}

// decodeRegistry reads what encodeRegistry wrote; false for data it did
// not write.
func decodeRegistry(data []byte) (libs []string, rules []*Rule, ok bool) {
	d := &decoder{buf: data}
	libs = d.texts()
	rules = make([]*Rule, d.count())
	for i := range rules {
		r := &Rule{}
		for _, f := range []*string{&r.ID, &r.Title, &r.Description, &r.Category, &r.Maturity, &r.Family, &r.HowToFix, &r.File} {
			*f = d.text()
		}
		if r.Severity = level.Severity(d.uvarint()); r.Severity > level.Error {
			d.fail()
		}
		r.Formats, r.Peers = d.texts(), d.texts()
		rules[i] = r
	}
	return libs, rules, d.err == nil && len(d.buf) == 0
}

// loadProgram builds a compiler from a compiled rule set's entry. The
// modules were compiled, checked and rewritten before they were stored, so
// only the stages that build the structures evaluation looks things up in
// run again; the comprehension indices only when the rule set has
// comprehensions OPA indexes (building them walks every rule body, a
// tenth of start-up).
func (c *Cache) loadProgram(key string, caps *ast.Capabilities) (compiler *ast.Compiler) {
	// The checksum catches damaged entries; an entry written by hand
	// could still hold a tree the compiler does not expect.
	defer func() {
		if recover() != nil {
			compiler = nil
		}
	}()
	data := c.get(key)
	if len(data) == 0 || data[0] > 1 {
		return nil
	}
	indexed := data[0] == 1
	modules, err := decodeModules(data[1:])
	if err != nil {
		return nil
	}
	skipped := skippedWhenCached
	if !indexed {
		skipped = append(slices.Clip(skipped), ast.StageBuildComprehensionIndices)
	}
	compiler = newCompiler(caps).WithSkipStages(skipped...)
	compiler.Compile(modules)
	if compiler.Failed() {
		return nil
	}
	return compiler
}

// storeProgram writes the entry of a rule set whose compiled modules are
// modules (all or some of compiler's): whether they have indexed
// comprehensions, then the modules.
func (c *Cache) storeProgram(key string, compiler *ast.Compiler, modules map[string]*ast.Module) {
	if c == nil {
		return
	}
	data, err := encodeModules(modules)
	if err == nil {
		flag := byte(0)
		if hasComprehensionIndices(compiler, modules) {
			flag = 1
		}
		c.put(key, append([]byte{flag}, data...))
	}
}

// hasComprehensionIndices tells whether the compiler indexed any
// comprehension of modules.
func hasComprehensionIndices(compiler *ast.Compiler, modules map[string]*ast.Module) bool {
	found := false
	for _, m := range modules {
		ast.WalkTerms(m, func(t *ast.Term) bool {
			found = found || (ast.IsComprehension(t.Value) && compiler.ComprehensionIndex(t) != nil)
			return found
		})
		if found {
			return true
		}
	}
	return false
}

// skippedWhenCached are the compiler stages a compiled rule set has been
// through already: every stage but those that build the module and rule
// trees and the rule and comprehension indices.
var skippedWhenCached = func() []ast.StageID {
	kept := []ast.StageID{ast.StageSetModuleTree, ast.StageSetRuleTree, ast.StageBuildRuleIndices, ast.StageBuildComprehensionIndices}
	var out []ast.StageID
	for _, s := range ast.AllStages() {
		if !slices.Contains(kept, s) {
			out = append(out, s)
		}
	}
	return out
}()
