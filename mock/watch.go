package mock

import (
	"context"
	"hash/fnv"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Hot reload polls the modification times and sizes of the files a
// generation was built from (specs, the files their $refs reach, and the
// example folders, walked for new and removed files) rather than asking
// the kernel for change events: it works the same on every platform, in
// containers with bind-mounted folders and on network file systems where
// inotify and kqueue see nothing, it follows editors that save by
// renaming, and a burst of writes (a git checkout) becomes one reload.

// watchSet is what a generation was built from.
type watchSet struct {
	files []string // spec files, and example files named directly
	dirs  []string // example folders, walked recursively
}

// fingerprint sums the names, sizes and modification times of the
// watched files: it changes when any file is written, added or removed.
func (w watchSet) fingerprint() uint64 {
	h := fnv.New64a()
	add := func(path string, info fs.FileInfo) {
		h.Write([]byte(path))
		if info == nil {
			h.Write([]byte{0})
			return
		}
		h.Write([]byte(strconv.FormatInt(info.Size(), 10)))
		h.Write([]byte(strconv.FormatInt(info.ModTime().UnixNano(), 10)))
	}
	for _, f := range w.files {
		info, err := os.Stat(f)
		if err != nil {
			info = nil
		}
		add(f, info)
	}
	for _, d := range w.dirs {
		var found []string
		infos := map[string]fs.FileInfo{}
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.IsDir() {
				if p != d && e.Name()[0] == '.' {
					return filepath.SkipDir
				}
				return nil
			}
			if info, err := e.Info(); err == nil {
				found = append(found, p)
				infos[p] = info
			}
			return nil
		})
		sort.Strings(found)
		h.Write([]byte(d))
		for _, p := range found {
			add(p, infos[p])
		}
	}
	return h.Sum64()
}

// watch reloads the generation whenever the fingerprint of its files
// changes, until ctx ends: once it has stayed the same for a round, so
// that a file being written (by an editor that writes in place, by a git
// checkout) is read once it is whole, and a burst of writes makes one
// reload. A generation that fails to load is logged and the last good one
// keeps serving; it is tried again at the next change.
func (s *Server) watch(ctx context.Context) {
	if s.opts.WatchInterval < 0 {
		return
	}
	t := time.NewTicker(s.opts.WatchInterval)
	defer t.Stop()
	last := s.current.Load().watch.fingerprint()
	var settling uint64 // the changed fingerprint seen last round, 0 for none
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		gen := s.current.Load()
		fp := gen.watch.fingerprint()
		if fp == last {
			settling = 0
			continue
		}
		if fp != settling {
			settling = fp
			continue
		}
		last, settling = fp, 0
		if err := s.Reload(ctx); err != nil {
			s.opts.Logger.Error("reload failed: the last good specs and examples keep serving", slog.String("error", err.Error()))
			continue
		}
		// The new generation may read other files ($refs, examples).
		last = s.current.Load().watch.fingerprint()
	}
}

// Reload loads the specs and examples again and swaps them in; requests
// in flight finish on the generation they started with. When loading
// fails, the current generation keeps serving and the error is returned.
func (s *Server) Reload(ctx context.Context) error {
	start := time.Now()
	gen, err := s.load(ctx)
	if err != nil {
		s.reloads.failed(err)
		return err
	}
	s.usage.track(gen)
	s.current.Store(gen)
	s.reloads.succeeded()
	s.opts.Logger.Info("reloaded", slog.Int("specs", len(gen.apis)), slog.Int("operations", gen.operationCount()),
		slog.Int("examples", gen.exampleCount()), slog.Duration("duration", time.Since(start)))
	return nil
}

// reloadStatus is what /_specgate/health says of the last reload.
type reloadStatus struct {
	mu       sync.Mutex
	at       time.Time
	err      string
	reloads  int
	failures int
}

func (r *reloadStatus) succeeded() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.at, r.err = time.Now(), ""
	r.reloads++
}

func (r *reloadStatus) failed(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.at, r.err = time.Now(), err.Error()
	r.failures++
}

func (r *reloadStatus) snapshot() (at time.Time, err string, reloads, failures int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.at, r.err, r.reloads, r.failures
}
