// Package progcache keeps compiled rule programs between runs: a folder of
// checksummed entries, written atomically and pruned when unused; a
// compact binary codec for compiled Rego modules; and the reading of a
// stored program back into a compiler that skips the stages it has been
// through. What an entry is named by, and what else it holds, is the
// caller's (package policy).
package progcache

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"
)

// Format names the codec's and the entries' layout; keys include it, and
// it changes whenever they change, the programs that specgate's own
// compiler stages (inlining) make included.
const Format = "specgate-cache-7"

// maxAge is how long an unused entry is kept.
const maxAge = 30 * 24 * time.Hour

// Store is a folder of entries. A nil *Store stores nothing. It is best
// effort: an entry that cannot be read or is damaged reads as missing.
type Store struct {
	dir string
}

// Open returns a store in dir, or nil when dir is empty.
func Open(dir string) *Store {
	if dir == "" {
		return nil
	}
	return &Store{dir: dir}
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// Has tells whether an entry exists, and marks it as used.
func (s *Store) Has(key string) bool {
	if s == nil {
		return false
	}
	now := time.Now()
	return os.Chtimes(filepath.Join(s.dir, key), now, now) == nil
}

// Get returns an entry's data, or nil.
func (s *Store) Get(key string) []byte {
	if s == nil {
		return nil
	}
	p := filepath.Join(s.dir, key)
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

// Put writes an entry atomically (a reader sees the old file or the new
// one, never a part), then removes entries unused for maxAge.
func (s *Store) Put(key string, body []byte) {
	if s == nil {
		return
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(s.dir, ".tmp-"+key+"-*")
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
	if err := os.Rename(f.Name(), filepath.Join(s.dir, key)); err != nil {
		os.Remove(f.Name())
		return
	}
	s.prune()
}

func (s *Store) prune() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err == nil && !e.IsDir() && time.Since(info.ModTime()) > maxAge {
			os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
}
