package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"
)

// requestLog collects what the access log line of one request says beyond
// method, path, status and duration: handlers add to it through the
// request's context.
type requestLog struct {
	id    string
	mu    sync.Mutex
	attrs []slog.Attr
}

type requestLogKey struct{}

func logFrom(ctx context.Context) *requestLog {
	rl, _ := ctx.Value(requestLogKey{}).(*requestLog)
	return rl
}

// LogAttrs adds attributes to the access log line of the request whose
// context ctx is; outside Logged it does nothing.
func LogAttrs(ctx context.Context, attrs ...slog.Attr) {
	if rl := logFrom(ctx); rl != nil {
		rl.mu.Lock()
		rl.attrs = append(rl.attrs, attrs...)
		rl.mu.Unlock()
	}
}

func noteProblem(r *http.Request, p *Problem) {
	LogAttrs(r.Context(), slog.String("problem", p.Kind()), slog.String("detail", p.Detail))
}

// RequestID is the id of the request whose context ctx is (see Logged),
// or "" outside Logged.
func RequestID(ctx context.Context) string {
	if rl := logFrom(ctx); rl != nil {
		return rl.id
	}
	return ""
}

// ValidRequestID tells whether an incoming X-Request-Id may be kept (and
// logged) as it is: 1 to 128 ASCII letters, digits, '.', '_', ':' or '-'.
// (Not a regular expression: compiling its 128-fold repetition would
// cost every command's start-up.)
func ValidRequestID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := range len(id) {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusWriter records the status and size of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Flush sends what was written so far, so that a handler that streams
// (w.(http.Flusher)) is not held back by the logging wrapper.
func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Logged wraps h with a request id (X-Request-Id, kept from the request
// when it is well formed, else made up, and sent back), one structured
// access log line per request at level Info (method, path, status, bytes,
// duration, remote address and what handlers added with LogAttrs), and
// recovery from a panic as a 500 problem of the catalog's internal-error
// kind.
func Logged(logger *slog.Logger, problems *Catalog, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !ValidRequestID(id) {
			id = newRequestID()
		}
		rl := &requestLog{id: id}
		r = r.WithContext(context.WithValue(r.Context(), requestLogKey{}, rl))
		w.Header().Set("X-Request-Id", id)
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				logger.Error("panic", slog.String("requestId", id), slog.String("panic", fmt.Sprint(v)), slog.String("stack", string(debug.Stack())))
				if sw.status == 0 {
					WriteProblem(sw, r, problems.New(http.StatusInternalServerError, KindInternal, "the server failed to handle the request; see its log"))
				}
			}
			if !logger.Enabled(r.Context(), slog.LevelInfo) {
				return
			}
			rl.mu.Lock()
			attrs := make([]slog.Attr, 0, 7+len(rl.attrs))
			attrs = append(attrs,
				slog.String("requestId", id),
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", sw.status),
				slog.Int64("bytes", sw.bytes),
				slog.Duration("duration", time.Since(start)),
				slog.String("remote", r.RemoteAddr))
			attrs = append(attrs, rl.attrs...)
			rl.mu.Unlock()
			logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
		}()
		h.ServeHTTP(sw, r)
	})
}

// LogBuffer is a writer for access logs that gathers lines in memory and
// writes them out when FlushEvery has passed since the first line it
// holds, when it holds Size bytes, or on Close: one write per batch
// instead of one per request, as nginx's access_log buffer= and flush=
// do. It is safe for concurrent use.
type LogBuffer struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	size  int
	every time.Duration
	timer *time.Timer
	err   error
}

// NewLogBuffer buffers w: at most size bytes, for at most every.
func NewLogBuffer(w io.Writer, size int, every time.Duration) *LogBuffer {
	return &LogBuffer{w: w, size: size, every: every, buf: make([]byte, 0, size)}
}

// Write adds p to the buffer; it never fails on its own (an error of the
// underlying writer is returned by a later Write or by Close).
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if len(b.buf)+len(p) > b.size {
		b.flushLocked()
	}
	if len(p) >= b.size {
		_, b.err = b.w.Write(p)
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	if b.timer == nil {
		b.timer = time.AfterFunc(b.every, b.Flush)
	}
	return len(p), nil
}

// Flush writes out what the buffer holds.
func (b *LogBuffer) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *LogBuffer) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.buf) > 0 && b.err == nil {
		_, b.err = b.w.Write(b.buf)
	}
	b.buf = b.buf[:0]
}

// Close flushes the buffer and returns the first error of the underlying
// writer.
func (b *LogBuffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	return b.err
}
