package insightsd

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/lazyregexp"
)

// Store keeps submissions in a folder of plain files:
//
//	submissions/YYYY-MM-DD/ID.json   each submission as received
//	index.jsonl                      one line per submission: what queries read
//
// A submission's file is written whole (a temporary file, synced, then
// renamed) before its index line is appended and synced, so that a crash
// leaves at most a submission without its line; Open indexes such files
// again and drops a torn last line. Queries read the index, held in
// memory.
type Store struct {
	dir string

	writeMu sync.Mutex // one writer of files at a time
	index   *os.File

	mu      sync.RWMutex
	records []*record // in the order received
	byID    map[string]*record
	groups  map[shardKey]*shardGroup // sharded builds (shards.go)
}

// record is one submission as the index holds it.
type record struct {
	ID         string                `json:"id"`
	ReceivedAt time.Time             `json:"receivedAt"`
	Command    string                `json:"command"`
	Kind       string                `json:"kind"`
	CI         insights.CI           `json:"ci"`
	Results    []insights.SpecResult `json:"results"`
	Shard      *insights.Shard       `json:"shard,omitempty"`
	File       string                `json:"file"` // the submission's file, relative to the store
	// Digest is the SHA-256 of the stored JSON, which tells a replay from
	// a conflict; "" in lines written before it was kept (the file is
	// read then).
	Digest string `json:"digest,omitempty"`
}

// ErrConflict is the error of Add when a submission of the same id, with
// other content, is stored already.
var ErrConflict = errors.New("a submission of this id with other content is stored already")

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// validID is what a submission id may be: it names a file.
var validID = lazyregexp.New(`^[A-Za-z0-9_-]{8,64}$`)

const indexFile = "index.jsonl"

// Open opens the store in dir, creating it when it does not exist, and
// reads its index.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "submissions"), 0o755); err != nil {
		return nil, err
	}
	s := &Store{dir: dir, byID: map[string]*record{}, groups: map[shardKey]*shardGroup{}}
	path := filepath.Join(dir, indexFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	good, err := s.readIndex(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// A line torn by a crash is dropped; its submission's file is indexed
	// again below.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	s.index = f
	if err := s.recover(); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// readIndex reads the index's lines and returns the length of its good
// part: every line but a last one without its newline or that does not
// decode.
func (s *Store) readIndex(f *os.File) (int64, error) {
	r := bufio.NewReaderSize(f, 64<<10)
	var good int64
	for lineNo := 1; ; lineNo++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return good, nil // a last line without its newline is torn
		}
		if err != nil {
			return good, err
		}
		var rec record
		if jerr := json.Unmarshal(line, &rec); jerr != nil || !validID().MatchString(rec.ID) {
			if _, perr := r.Peek(1); errors.Is(perr, io.EOF) {
				return good, nil // the last line: torn
			}
			return good, fmt.Errorf("line %d is not an index record: %v", lineNo, jerr)
		}
		good += int64(len(line))
		s.add(&rec)
	}
}

// recover indexes the submissions whose index line was lost.
func (s *Store) recover() error {
	root := filepath.Join(s.dir, "submissions")
	var found []*record
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		id := strings.TrimSuffix(d.Name(), ".json")
		if !validID().MatchString(id) || s.byID[id] != nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var sub insights.Submission
		if json.Unmarshal(data, &sub) != nil || sub.ID != id {
			return nil // not a submission this store wrote
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(s.dir, p)
		found = append(found, newRecord(&sub, info.ModTime().UTC(), filepath.ToSlash(rel), digest(data)))
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(found, func(i, j int) bool { return found[i].ReceivedAt.Before(found[j].ReceivedAt) })
	for _, rec := range found {
		if err := s.appendIndex(rec); err != nil {
			return err
		}
		s.add(rec)
	}
	if len(found) > 0 {
		s.sortRecords()
	}
	return nil
}

func newRecord(sub *insights.Submission, at time.Time, file, digest string) *record {
	ci := sub.CI
	ci.Sources = nil
	return &record{ID: sub.ID, ReceivedAt: at, Command: sub.Command, Kind: sub.Kind, CI: ci, Results: sub.Results, Shard: sub.Shard, File: file, Digest: digest}
}

func (s *Store) add(rec *record) {
	s.records = append(s.records, rec)
	s.byID[rec.ID] = rec
	if rec.Shard != nil {
		s.addShard(rec)
	}
}

func (s *Store) sortRecords() {
	sort.SliceStable(s.records, func(i, j int) bool { return s.records[i].ReceivedAt.Before(s.records[j].ReceivedAt) })
}

// Close closes the index.
func (s *Store) Close() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.index.Close()
}

// Check tells whether the store can take submissions: its folder and its
// index are there.
func (s *Store) Check() error {
	if _, err := os.Stat(filepath.Join(s.dir, "submissions")); err != nil {
		return err
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.index.Stat(); err != nil {
		return fmt.Errorf("the index: %w", err)
	}
	return nil
}

// Count is the number of submissions stored.
func (s *Store) Count() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.records)
}

// Add stores a submission (raw is its JSON as stored) and returns when it
// was received. A submission of the same id and the same raw JSON stored
// already is a replay: it is left as it was, and duplicate is set. One of
// the same id with other content is ErrConflict.
func (s *Store) Add(sub *insights.Submission, raw []byte, now time.Time) (receivedAt time.Time, duplicate bool, err error) {
	if !validID().MatchString(sub.ID) {
		return time.Time{}, false, fmt.Errorf("invalid submission id %q", sub.ID)
	}
	sum := digest(raw)
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.RLock()
	old := s.byID[sub.ID]
	s.mu.RUnlock()
	if old != nil {
		was := old.Digest
		if was == "" {
			data, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(old.File)))
			if err != nil {
				return time.Time{}, false, err
			}
			was = digest(data)
		}
		if was != sum {
			return old.ReceivedAt, false, ErrConflict
		}
		return old.ReceivedAt, true, nil
	}
	now = now.UTC()
	rel := filepath.ToSlash(filepath.Join("submissions", now.Format("2006-01-02"), sub.ID+".json"))
	if err := writeFile(filepath.Join(s.dir, filepath.FromSlash(rel)), raw); err != nil {
		return time.Time{}, false, err
	}
	rec := newRecord(sub, now, rel, sum)
	if err := s.appendIndex(rec); err != nil {
		return time.Time{}, false, err
	}
	s.mu.Lock()
	s.add(rec)
	s.mu.Unlock()
	return now, false, nil
}

// appendIndex writes rec's line and syncs it.
func (s *Store) appendIndex(rec *record) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if _, err := s.index.Write(append(line, '\n')); err != nil {
		return err
	}
	return s.index.Sync()
}

// writeFile writes data to path whole (atomicfile.Write), making its
// folder first.
func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, data)
}

// Submission is the JSON of a stored submission, or nil when there is
// none of that id.
func (s *Store) Submission(id string) ([]byte, error) {
	s.mu.RLock()
	rec := s.byID[id]
	s.mu.RUnlock()
	if rec == nil {
		return nil, nil
	}
	return os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(rec.File)))
}

// Filter narrows a query of results; empty fields match anything.
type Filter struct {
	RepoID, Spec, Kind, Branch string
}

func (f Filter) matches(rec *record, r *insights.SpecResult) bool {
	return (f.RepoID == "" || rec.CI.RepoID == f.RepoID) &&
		(f.Spec == "" || r.Spec.ID == f.Spec) &&
		(f.Kind == "" || rec.Kind == f.Kind) &&
		(f.Branch == "" || rec.CI.Branch == f.Branch)
}

func result(rec *record, r *insights.SpecResult) insights.Result {
	return insights.Result{SubmissionID: rec.ID, ReceivedAt: rec.ReceivedAt, Command: rec.Command, Kind: rec.Kind, CI: rec.CI, SpecResult: *r}
}

// Latest is the latest result of each repository, specification and kind
// the filter matches, sorted by repository, specification and kind; that
// of a sharded build combines its shards (see shards.go).
func (s *Store) Latest(f Filter) []insights.Result {
	s.mu.RLock()
	defer s.mu.RUnlock()
	type key struct{ repo, spec, kind string }
	seen := map[key]bool{}
	out := []insights.Result{}
	for i := len(s.records) - 1; i >= 0; i-- {
		rec := s.records[i]
		for j := range rec.Results {
			r := &rec.Results[j]
			k := key{rec.CI.RepoID, r.Spec.ID, rec.Kind}
			if seen[k] || !f.matches(rec, r) {
				continue
			}
			seen[k] = true
			out = append(out, s.resultOf(rec, r))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.CI.RepoID != b.CI.RepoID {
			return a.CI.RepoID < b.CI.RepoID
		}
		if a.Spec.ID != b.Spec.ID {
			return a.Spec.ID < b.Spec.ID
		}
		return a.Kind < b.Kind
	})
	return out
}

// History is every result of one specification the filter matches,
// newest first, at most limit; a sharded build is one result, its shards
// combined, where its newest shard is.
func (s *Store) History(f Filter, limit int) []insights.Result {
	s.mu.RLock()
	defer s.mu.RUnlock()
	type built struct {
		g    *shardGroup
		spec string
	}
	seen := map[built]bool{}
	out := []insights.Result{}
	for i := len(s.records) - 1; i >= 0 && len(out) < limit; i-- {
		rec := s.records[i]
		g := s.groupOf(rec)
		for j := range rec.Results {
			r := &rec.Results[j]
			if !f.matches(rec, r) || len(out) >= limit {
				continue
			}
			if g != nil {
				if seen[built{g, r.Spec.ID}] {
					continue
				}
				seen[built{g, r.Spec.ID}] = true
			}
			out = append(out, s.resultOf(rec, r))
		}
	}
	return out
}

// Consumers are the repositories whose latest mock run of the
// specification (stub usage) received requests for each operation: the
// operations asked for in their order, or without any, every operation
// some repository uses, sorted.
func (s *Store) Consumers(spec string, operations []string) insights.Consumers {
	s.mu.RLock()
	defer s.mu.RUnlock()
	users := map[string][]insights.Consumer{}
	seenRepo := map[string]bool{}
	for i := len(s.records) - 1; i >= 0; i-- {
		rec := s.records[i]
		if rec.Kind != "stub-usage" || seenRepo[rec.CI.RepoID] {
			continue
		}
		for j := range rec.Results {
			r := &rec.Results[j]
			if r.Spec.ID != spec {
				continue
			}
			seenRepo[rec.CI.RepoID] = true
			c := insights.Consumer{RepoID: rec.CI.RepoID, Branch: rec.CI.Branch, Commit: rec.CI.Commit, BuildID: rec.CI.BuildID,
				LastSeen: rec.ReceivedAt, SubmissionID: rec.ID}
			for _, op := range r.UsedOperations {
				users[op] = append(users[op], c)
			}
		}
	}
	if len(operations) == 0 {
		for op := range users {
			operations = append(operations, op)
		}
		sort.Strings(operations)
	}
	ans := insights.Consumers{Spec: spec, Operations: make([]insights.OperationConsumers, 0, len(operations))}
	for _, op := range operations {
		cs := users[normalizeOperation(op)]
		sort.Slice(cs, func(i, j int) bool { return cs[i].RepoID < cs[j].RepoID })
		if cs == nil {
			cs = []insights.Consumer{}
		}
		ans.Operations = append(ans.Operations, insights.OperationConsumers{Operation: op, Consumers: cs})
	}
	return ans
}

// normalizeOperation writes "get  /pets" as "GET /pets".
func normalizeOperation(op string) string {
	method, path, ok := strings.Cut(strings.TrimSpace(op), " ")
	if !ok || !strings.HasPrefix(strings.TrimSpace(path), "/") {
		return op
	}
	return strings.ToUpper(method) + " " + strings.TrimSpace(path)
}

// compactJSON is data without insignificant white space, for storage.
func compactJSON(data []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, data) != nil {
		return data
	}
	return b.Bytes()
}
