package mock

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/jsonpos"
	"github.com/specgate/specgate/spec"
)

// The stateful mock's store: one per served spec, holding its
// collections of resources in memory. A spec's store has one lock, so
// that a request sees a consistent store (a foreign key is checked and
// the resource stored under the same lock) and ids are drawn without
// collisions under parallel creates. The stores are keyed by spec and
// collection name, not by generation, so that what was created survives
// a hot reload.

// resource is one stored resource: its id (as text), the path parameters
// of the collection it was created under (its parents: an order's
// userId), which with the id tell it from the others, and its value, a
// JSON object.
type resource struct {
	ID      string            `json:"id"`
	Parents map[string]string `json:"parents,omitempty"`
	Value   map[string]any    `json:"value"`
	seq     uint64            // creation order, for listing
}

// collection is the resources of one collection. Collections are shared
// by the paths that end in the same segment, and the items under
// different parents are different items: /users/1/addresses/home and
// /users/2/addresses/home are two resources of "addresses" with one id.
// byID holds, for each id, its resources under their parents.
type collection struct {
	byID  map[string][]*resource
	seq   uint64 // the last creation sequence number
	next  int64  // the last integer id drawn
	drawn uint64 // how many string ids were drawn
}

func newCollection() *collection { return &collection{byID: map[string][]*resource{}} }

// list returns the resources in creation order.
func (c *collection) list() []*resource {
	var out []*resource
	for _, rs := range c.byID {
		out = append(out, rs...)
	}
	slices.SortFunc(out, func(a, b *resource) int { return cmp.Compare(a.seq, b.seq) })
	return out
}

// find is the resource with an id under the given parents (a request's
// path parameters): the first, in creation order, whose parents hold
// them all. A path that names fewer parents than a resource has (a flat
// /orders/{id} beside /users/{userId}/orders) reaches it too.
func (c *collection) find(id string, parents map[string]string) *resource {
	for _, r := range c.byID[id] {
		if parentsMatch(r, parents) {
			return r
		}
	}
	return nil
}

// taken is the resource that a new one with this id and these parents
// would be: one whose parents agree with them wherever both name a
// parent.
func (c *collection) taken(id string, parents map[string]string) *resource {
	for _, r := range c.byID[id] {
		if parentsAgree(r.Parents, parents) {
			return r
		}
	}
	return nil
}

// has reports whether any resource has the id, under any parents.
func (c *collection) has(id string) bool { return len(c.byID[id]) > 0 }

// put stores r, in place of the resource with its id and parents (keeping
// its creation order) when there is one.
func (c *collection) put(r *resource) {
	rs := c.byID[r.ID]
	for i, old := range rs {
		if maps.Equal(old.Parents, r.Parents) || len(old.Parents) == 0 && len(r.Parents) == 0 {
			r.seq = old.seq
			rs[i] = r
			return
		}
	}
	c.seq++
	r.seq = c.seq
	c.byID[r.ID] = append(rs, r)
	if n, err := strconv.ParseInt(r.ID, 10, 64); err == nil && n > c.next {
		c.next = n // ids drawn later do not collide with those given
	}
}

// remove deletes r.
func (c *collection) remove(r *resource) {
	rs := slices.DeleteFunc(c.byID[r.ID], func(x *resource) bool { return x == r })
	if len(rs) == 0 {
		delete(c.byID, r.ID)
		return
	}
	c.byID[r.ID] = rs
}

// parentsMatch reports whether a resource is under every parent a path
// names.
func parentsMatch(r *resource, parents map[string]string) bool {
	for k, v := range parents {
		if r.Parents[k] != v {
			return false
		}
	}
	return true
}

// parentsAgree reports whether two sets of parents name the same values
// wherever both name a parent.
func parentsAgree(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; ok && w != v {
			return false
		}
	}
	return true
}

// store is the state of one spec.
type store struct {
	mu          sync.RWMutex
	collections map[string]*collection
}

func newStore() *store { return &store{collections: map[string]*collection{}} }

func (s *store) collection(name string) *collection {
	c := s.collections[name]
	if c == nil {
		c = newCollection()
		s.collections[name] = c
	}
	return c
}

// state is the stores of every served spec, and the seeded state that
// DELETE /_specgate/state goes back to.
type state struct {
	mu     sync.Mutex // guards stores and seeded
	stores map[string]*store
	seeded []byte // the seeded state, as the state file writes it
	seed   uint64
	file   string // --state-file, "" for none
	// others is the state of specs that the state file holds and this
	// mock does not serve, written back as it was read.
	others map[string]specDoc
	// seeding is what seeding did: the resources seeded and the examples
	// skipped, with why.
	seeding SeedReport
}

func newState(seed uint64, file string) *state {
	return &state{stores: map[string]*store{}, seed: seed, file: file, others: map[string]specDoc{}}
}

// of returns the store of a spec.
func (st *state) of(spec string) *store {
	st.mu.Lock()
	defer st.mu.Unlock()
	s := st.stores[spec]
	if s == nil {
		s = newStore()
		st.stores[spec] = s
	}
	return s
}

// stateKey names a spec's state: its absolute path with symbolic links
// resolved, so that shop.yaml, ./shop.yaml and $PWD/shop.yaml are one
// spec; a URL as it is.
func stateKey(spec string) string {
	if strings.Contains(spec, "://") {
		return spec
	}
	abs, err := filepath.Abs(spec)
	if err != nil {
		return filepath.Clean(spec)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// drawID draws a new id for a collection whose id field is typed so:
// the next integer of its sequence, a UUID made from the collection and
// a counter (unique by construction, the same for the same seed), or the
// counter as text.
func (st *state) drawID(spec, name string, c *collection, kind idKind) any {
	switch kind {
	case idInteger:
		c.next++
		return json.Number(strconv.FormatInt(c.next, 10))
	case idUUID:
		c.drawn++
		h := fnv.New64a()
		// The spec's file name, not its path: the same seed draws the same
		// ids wherever the spec is.
		fmt.Fprintf(h, "%d\x00%s\x00%s", st.seed, path.Base(filepath.ToSlash(spec)), name)
		p := h.Sum64()
		return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", uint32(p>>32), uint16(p>>16), uint16(p)&0xfff, 0x8000|uint16(c.drawn>>48)&0x3fff, c.drawn&0xffffffffffff)
	}
	for {
		c.drawn++
		id := strconv.FormatUint(c.drawn, 10)
		if !c.has(id) {
			return id
		}
	}
}

// idKind is how a collection's ids are drawn, from the id field's schema.
type idKind uint8

const (
	idString idKind = iota
	idInteger
	idUUID
)

// The state file and GET /_specgate/state: every spec's collections and
// their resources, in creation order.
type (
	stateDoc struct {
		Version int                `json:"version"`
		Specs   map[string]specDoc `json:"specs"`
		Seeding *SeedReport        `json:"seeding,omitempty"`
	}
	specDoc struct {
		Collections map[string]collectionDoc `json:"collections"`
	}
	collectionDoc struct {
		Count int         `json:"count"`
		Items []*resource `json:"items"`
		// NextID is the last integer id drawn, so that a restart goes on
		// from it.
		NextID int64  `json:"lastId,omitempty"`
		Drawn  uint64 `json:"drawn,omitempty"`
	}
)

const stateVersion = 1

// snapshot writes the state as JSON: with what seeding did for GET
// /_specgate/state, else as the state file holds it (with the state of
// the specs it holds and this mock does not serve). Resources are never
// changed once stored (an update stores a new one), so the lists copied
// under each store's lock are encoded after it.
func (st *state) snapshot(withSeeding bool) []byte {
	st.mu.Lock()
	names := make([]string, 0, len(st.stores))
	for n := range st.stores {
		names = append(names, n)
	}
	sort.Strings(names)
	stores := make([]*store, len(names))
	for i, n := range names {
		stores[i] = st.stores[n]
	}
	doc := stateDoc{Version: stateVersion, Specs: map[string]specDoc{}}
	if withSeeding {
		rep := st.seeding
		doc.Seeding = &rep
	} else {
		maps.Copy(doc.Specs, st.others)
	}
	st.mu.Unlock()
	for i, s := range stores {
		s.mu.RLock()
		sd := specDoc{Collections: map[string]collectionDoc{}}
		for name, c := range s.collections {
			items := c.list()
			sd.Collections[name] = collectionDoc{Count: len(items), Items: items, NextID: c.next, Drawn: c.drawn}
		}
		s.mu.RUnlock()
		doc.Specs[names[i]] = sd
	}
	b, _ := encodeState(doc)
	return b
}

func encodeState(doc stateDoc) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	err := enc.Encode(doc)
	return buf.Bytes(), err
}

// readFile reads the state file at start, into the stores of the served
// specs. Its specs are named by absolute path; a name written otherwise
// (by an older specgate, which kept the path as typed) is read relative
// to the working directory cwd, then to the state file's folder. The
// state of specs not served is kept aside and written back as it is.
// warnings say what was read otherwise than as written.
func (st *state) readFile(data []byte, cwd string) (warnings []string, err error) {
	doc, err := decodeState(st.file, data)
	if err != nil {
		return nil, err
	}
	if err := checkItems(st.file, doc.Specs); err != nil {
		return nil, err
	}
	specs, warnings := st.canonical(doc.Specs, cwd)
	served := map[string]specDoc{}
	var others []string
	st.mu.Lock()
	for k, sd := range specs {
		if st.stores[k] != nil {
			served[k] = sd
		} else {
			st.others[k] = sd
			others = append(others, k)
		}
	}
	st.mu.Unlock()
	if len(others) > 0 {
		slices.Sort(others)
		warnings = append(warnings, fmt.Sprintf("the state file holds the state of specs this mock does not serve: %s; it is kept in the file as it is", strings.Join(others, ", ")))
	}
	st.apply(served)
	return warnings, nil
}

// canonical names each spec of a state file by its state key, merging
// the entries that name one spec several ways: the collections of the
// entry written with the key first, then those of the others in the
// order of their names.
func (st *state) canonical(specs map[string]specDoc, cwd string) (map[string]specDoc, []string) {
	names := slices.Sorted(maps.Keys(specs))
	byKey := map[string][]string{}
	for _, n := range names {
		k := st.keyOf(n, cwd)
		byKey[k] = append(byKey[k], n)
	}
	out := make(map[string]specDoc, len(byKey))
	var warnings []string
	for k, written := range byKey {
		slices.SortStableFunc(written, func(a, b string) int {
			switch {
			case a == k:
				return -1
			case b == k:
				return 1
			}
			return 0
		})
		merged := specDoc{Collections: map[string]collectionDoc{}}
		for _, n := range written {
			for cname, cd := range specs[n].Collections {
				if _, ok := merged.Collections[cname]; !ok {
					merged.Collections[cname] = cd
				}
			}
		}
		out[k] = merged
		switch {
		case len(written) > 1:
			warnings = append(warnings, fmt.Sprintf("the state file holds the state of %s under %d names (%s): read as one, each collection from the first name that has it", k, len(written), strings.Join(written, ", ")))
		case written[0] != k:
			warnings = append(warnings, fmt.Sprintf("the state file names %s as %s: read as the state of %s, and written so from now on", k, written[0], k))
		}
	}
	return out, warnings
}

// keyOf is the state key of a spec as a state file names it: itself when
// it is absolute or a URL; else the served spec it names relative to cwd
// or to the state file's folder, else its path relative to cwd.
func (st *state) keyOf(name, cwd string) string {
	if strings.Contains(name, "://") || filepath.IsAbs(name) {
		return stateKey(name)
	}
	first := stateKey(filepath.Join(cwd, name))
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, k := range []string{first, stateKey(filepath.Join(filepath.Dir(st.file), name))} {
		if st.stores[k] != nil {
			return k
		}
	}
	return first
}

// checkItems refuses a state whose items lack an id or a value. name
// names the text in errors.
func checkItems(name string, specs map[string]specDoc) error {
	for _, spec := range slices.Sorted(maps.Keys(specs)) {
		for cname, cd := range specs[spec].Collections {
			for _, r := range cd.Items {
				if r == nil || r.ID == "" || r.Value == nil {
					return fmt.Errorf("%s: spec %s, collection %s: an item without id or value", name, spec, cname)
				}
			}
		}
	}
	return nil
}

// apply replaces the state of the served specs with specs (a spec it does
// not name is emptied); checkItems has checked them.
func (st *state) apply(specs map[string]specDoc) {
	st.mu.Lock()
	defer st.mu.Unlock()
	stores := map[string]*store{}
	for spec, sd := range specs {
		s := newStore()
		for cname, cd := range sd.Collections {
			c := s.collection(cname)
			for _, r := range cd.Items {
				c.put(r)
			}
			c.next = max(c.next, cd.NextID)
			c.drawn = max(c.drawn, cd.Drawn)
		}
		stores[spec] = s
	}
	// Replace the stores' contents in place: operations hold the stores.
	for spec, s := range st.stores {
		fresh := stores[spec]
		s.mu.Lock()
		if fresh == nil {
			s.collections = map[string]*collection{}
		} else {
			s.collections = fresh.collections
		}
		s.mu.Unlock()
	}
}

// decodeState reads a state file, its errors located by line and column.
func decodeState(name string, data []byte) (*stateDoc, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc stateDoc
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read, the offending one included.
			at := spec.PosAt(data, int(se.Offset)-1)
			return nil, fmt.Errorf("%s:%d:%d: the state file is not valid JSON: %v", name, at.Line, at.Col, se)
		case errors.As(err, &te):
			at := spec.PosAt(data, int(jsonpos.ValueStart(data, te.Offset)))
			return nil, fmt.Errorf("%s:%d:%d: the state file has %s where %s belongs (at %s)", name, at.Line, at.Col, te.Value, te.Type, te.Field)
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			at := spec.PosAt(data, len(data))
			return nil, fmt.Errorf("%s:%d:%d: the state file ends before its JSON does (truncated?)", name, at.Line, at.Col)
		}
		return nil, fmt.Errorf("%s: the state file cannot be read: %v", name, err)
	}
	if dec.More() {
		at := spec.PosAt(data, int(dec.InputOffset()))
		return nil, fmt.Errorf("%s:%d:%d: the state file has text after its JSON", name, at.Line, at.Col)
	}
	if doc.Version != stateVersion {
		return nil, fmt.Errorf("%s: the state file is version %d; this specgate reads version %d", name, doc.Version, stateVersion)
	}
	return &doc, nil
}

// checkWritable makes sure the state can be saved where the state file
// is, before the mock starts: a probe file is created in its folder and
// removed (a save writes a new file there and renames it over the old).
func (st *state) checkWritable() error {
	if fi, err := os.Stat(st.file); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: the state file is a folder", st.file)
	}
	probe, err := os.CreateTemp(filepath.Dir(st.file), "."+filepath.Base(st.file)+".probe*")
	if err != nil {
		return fmt.Errorf("%s: the state could not be saved there: %w", st.file, err)
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// save writes the state to the state file atomically: a reader (or a
// crash) sees the old file or the new one, never half of one.
func (st *state) save() error {
	if st.file == "" {
		return errors.New("no state file: start the mock with --state-file FILE")
	}
	if err := atomicfile.Write(st.file, st.snapshot(false)); err != nil {
		return fmt.Errorf("saving the state to %s: %w", st.file, err)
	}
	return nil
}

// reset puts the seeded state back.
func (st *state) reset() error {
	doc, err := decodeState("the seeded state", st.seeded)
	if err != nil {
		return err
	}
	st.apply(doc.Specs)
	return nil
}
