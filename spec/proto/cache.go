package proto

import (
	"container/list"
	"crypto/sha256"
	"sync"

	"github.com/bufbuild/protocompile/parser"
	"github.com/bufbuild/protocompile/reporter"
)

// parseCacheBudget bounds the source bytes whose parse results the cache
// keeps; a parse result takes about eleven times its source in memory.
const parseCacheBudget = 4 << 20

// parses keeps the parse results of recently read files for the next
// documents: the files of an API import the same few (google/api/*.proto,
// their package's common messages), which each document would otherwise
// parse again. Results are keyed by import path and content, so an edited
// file is parsed anew, and are never modified: protocompile links a copy.
var parses = &parseCache{entries: map[parseKey]*list.Element{}}

type parseKey struct {
	path string
	sum  [sha256.Size]byte
}

// parsed is one parse: its result and the errors its checks reported
// (proto3 rules and the like), which each document that reads the file
// reports again.
type parsed struct {
	key  parseKey
	res  parser.Result
	errs []reporter.ErrorWithPos
	size int
}

type parseCache struct {
	mu      sync.Mutex
	entries map[parseKey]*list.Element
	lru     list.List // of *parsed, most recent first
	size    int
}

func (c *parseCache) get(k parseKey) *parsed {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e == nil {
		return nil
	}
	c.lru.MoveToFront(e)
	return e.Value.(*parsed)
}

func (c *parseCache) put(p *parsed) {
	if p.size > parseCacheBudget/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[p.key]; ok {
		return
	}
	c.entries[p.key] = c.lru.PushFront(p)
	c.size += p.size
	for c.size > parseCacheBudget {
		last := c.lru.Back()
		old := last.Value.(*parsed)
		c.lru.Remove(last)
		delete(c.entries, old.key)
		c.size -= old.size
	}
}
