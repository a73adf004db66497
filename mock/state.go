package mock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
)

// The stateful mock's store: one per served spec, holding its
// collections of resources in memory. A spec's store has one lock, so
// that a request sees a consistent store (a foreign key is checked and
// the resource stored under the same lock) and ids are drawn without
// collisions under parallel creates. The stores are keyed by spec and
// collection name, not by generation, so that what was created survives
// a hot reload.

// resource is one stored resource: its id (as text, the key), the path
// parameters of the collection it was created under (its parents: an
// order's userId), and its value, a JSON object.
type resource struct {
	ID      string            `json:"id"`
	Parents map[string]string `json:"parents,omitempty"`
	Value   map[string]any    `json:"value"`
	seq     uint64            // creation order, for listing
}

// collection is the resources of one collection, by id.
type collection struct {
	byID  map[string]*resource
	seq   uint64 // the last creation sequence number
	next  int64  // the last integer id drawn
	drawn uint64 // how many string ids were drawn
}

func newCollection() *collection { return &collection{byID: map[string]*resource{}} }

// list returns the resources in creation order.
func (c *collection) list() []*resource {
	out := make([]*resource, 0, len(c.byID))
	for _, r := range c.byID {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *resource) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	return out
}

// put stores r, keeping its creation order when it replaces a resource.
func (c *collection) put(r *resource) {
	if old := c.byID[r.ID]; old != nil {
		r.seq = old.seq
	} else {
		c.seq++
		r.seq = c.seq
	}
	c.byID[r.ID] = r
	if n, err := strconv.ParseInt(r.ID, 10, 64); err == nil && n > c.next {
		c.next = n // ids drawn later do not collide with those given
	}
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
	// seeding is what seeding did: the resources seeded and the examples
	// skipped, with why.
	seeding SeedReport
}

func newState(seed uint64, file string) *state {
	return &state{stores: map[string]*store{}, seed: seed, file: file}
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
		fmt.Fprintf(h, "%d\x00%s\x00%s", st.seed, spec, name)
		p := h.Sum64()
		return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", uint32(p>>32), uint16(p>>16), uint16(p)&0xfff, 0x8000|uint16(c.drawn>>48)&0x3fff, c.drawn&0xffffffffffff)
	}
	for {
		c.drawn++
		id := strconv.FormatUint(c.drawn, 10)
		if c.byID[id] == nil {
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

// snapshot writes the state as JSON. Resources are never changed once
// stored (an update stores a new one), so the lists copied under each
// store's lock are encoded after it.
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

// restore replaces the state with one written by snapshot. name names the
// text in errors (the state file).
func (st *state) restore(name string, data []byte) error {
	doc, err := decodeState(name, data)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	stores := map[string]*store{}
	for spec, sd := range doc.Specs {
		s := newStore()
		for cname, cd := range sd.Collections {
			c := s.collection(cname)
			for _, r := range cd.Items {
				if r == nil || r.ID == "" || r.Value == nil {
					return fmt.Errorf("%s: spec %s, collection %s: an item without id or value", name, spec, cname)
				}
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
		delete(stores, spec)
	}
	for spec, s := range stores {
		st.stores[spec] = s
	}
	return nil
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
			line, col := lineCol(data, int(se.Offset)-1)
			return nil, fmt.Errorf("%s:%d:%d: the state file is not valid JSON: %v", name, line, col, se)
		case errors.As(err, &te):
			line, col := lineCol(data, int(te.Offset))
			return nil, fmt.Errorf("%s:%d:%d: the state file has %s where %s belongs (at %s)", name, line, col, te.Value, te.Type, te.Field)
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			line, col := lineCol(data, len(data))
			return nil, fmt.Errorf("%s:%d:%d: the state file ends before its JSON does (truncated?)", name, line, col)
		}
		return nil, fmt.Errorf("%s: the state file cannot be read: %v", name, err)
	}
	if dec.More() {
		off := int(dec.InputOffset())
		line, col := lineCol(data, off)
		return nil, fmt.Errorf("%s:%d:%d: the state file has text after its JSON", name, line, col)
	}
	if doc.Version != stateVersion {
		return nil, fmt.Errorf("%s: the state file is version %d; this specgate reads version %d", name, doc.Version, stateVersion)
	}
	return &doc, nil
}

// lineCol is the 1-based line and column of a byte offset.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// save writes the state to the state file atomically: a reader (or a
// crash) sees the old file or the new one, never half of one.
func (st *state) save() error {
	if st.file == "" {
		return errors.New("no state file: start the mock with --state-file FILE")
	}
	data := st.snapshot(false)
	dir := filepath.Dir(st.file)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(st.file)+".*")
	if err != nil {
		return fmt.Errorf("saving the state: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), st.file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving the state to %s: %w", st.file, err)
	}
	return nil
}

// reset puts the seeded state back.
func (st *state) reset() error {
	return st.restore("the seeded state", st.seeded)
}
