package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/version"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/policy/internal/progcache"
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
	store *progcache.Store
}

// OpenCache returns a cache in dir, or nil when dir is empty.
func OpenCache(dir string) *Cache {
	if dir == "" {
		return nil
	}
	return &Cache{store: progcache.Open(dir)}
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
	write(progcache.Format)
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

// entries is the cache's store; nil for a nil cache.
func (c *Cache) entries() *progcache.Store {
	if c == nil {
		return nil
	}
	return c.store
}

func (c *Cache) has(key string) bool { return c.entries().Has(key) }

// A registry entry lists the libraries' files, then each rule's metadata
// (a Rule without its source), in a compact binary form: every start
// reads it, and decoding it as JSON took a tenth of a small spec's lint.

// loadRegistry builds a registry from an entry, its sources unparsed.
func (c *Cache) loadRegistry(key string, sources []*Source, builtin bool) *Registry {
	data := c.entries().Get(key)
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
	c.store.Put(key, encodeRegistry(libs, reg.Rules))
}

func encodeRegistry(libs []string, rules []*Rule) []byte {
	w := &progcache.RecordWriter{}
	w.Texts(libs)
	w.Uint(uint64(len(rules)))
	for _, r := range rules {
		for _, s := range []string{r.ID, r.Title, r.Description, r.Category, r.Maturity, r.Family, r.HowToFix, r.File} {
			w.Text(s)
		}
		w.Uint(uint64(r.Severity))
		w.Texts(r.Formats) // nil and empty lists stay apart, as metadata has them
		w.Texts(r.Peers)
	}
	return w.Bytes()
}

// decodeRegistry reads what encodeRegistry wrote; false for data it did
// not write.
func decodeRegistry(data []byte) (libs []string, rules []*Rule, ok bool) {
	d := progcache.NewRecordReader(data)
	libs = d.Texts()
	rules = make([]*Rule, d.Count())
	for i := range rules {
		r := &Rule{}
		for _, f := range []*string{&r.ID, &r.Title, &r.Description, &r.Category, &r.Maturity, &r.Family, &r.HowToFix, &r.File} {
			*f = d.Text()
		}
		if r.Severity = level.Severity(d.Uint()); r.Severity > level.Error {
			d.Fail()
		}
		r.Formats, r.Peers = d.Texts(), d.Texts()
		rules[i] = r
	}
	return libs, rules, d.Done()
}

// loadProgram builds a compiler from a compiled rule set's entry; nil
// when there is none or it does not read back.
func (c *Cache) loadProgram(key string) *ast.Compiler {
	return c.entries().LoadProgram(key, func() *ast.Compiler { return newCompiler(Capabilities()) })
}

// storeProgram writes the entry of a rule set whose compiled modules are
// modules (all or some of compiler's).
func (c *Cache) storeProgram(key string, compiler *ast.Compiler, modules map[string]*ast.Module) {
	c.entries().StoreProgram(key, compiler, modules)
}

// membersKind names the entries of input members (see
// Engine.InputMembers); a change to what inputReaders finds in a program
// must change it, or runs would build the members an older analysis found.
const membersKind = "members1"

// loadMembers reads an entry of input members: false when there is none
// or it does not read back.
func (c *Cache) loadMembers(key string) (input.Members, bool) {
	data := c.entries().Get(key)
	if data == nil {
		return nil, false
	}
	r := progcache.NewRecordReader(data)
	var m input.Members
	if r.Uint() == 0 {
		m = input.Members{}
		for _, k := range r.Texts() {
			m[k] = true
		}
	}
	return m, r.Done()
}

// storeMembers writes an entry of input members: 1 for every member (nil),
// else 0 and their names.
func (c *Cache) storeMembers(key string, m input.Members) {
	var w progcache.RecordWriter
	if m == nil {
		w.Uint(1)
	} else {
		w.Uint(0)
		w.Texts(slices.Sorted(maps.Keys(m)))
	}
	c.entries().Put(key, w.Bytes())
}
