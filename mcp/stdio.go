package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one session on r and w, a process's standard input and
// output, until r ends or ctx does. When r ends, the requests already read
// are answered before the session closes (up to the time limit of a call),
// so that `specgate mcp < requests.jsonl` answers each request as a filter
// would; the SDK alone drops them.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	p := &pending{ids: map[string]bool{}}
	p.cond = sync.NewCond(&p.mu)
	t := &mcpsdk.IOTransport{
		Reader: &drainingReader{r: r, p: p, ctx: ctx, wait: s.opts.Timeout + 10*time.Second},
		Writer: &answerWriter{w: w, p: p},
	}
	return s.Run(ctx, t)
}

// pending are the ids of the requests read and not yet answered.
type pending struct {
	mu   sync.Mutex
	cond *sync.Cond
	ids  map[string]bool
}

// envelope is what the stream's messages say about requests and answers.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// lines calls fn with each complete line of data, keeping the rest in buf
// for the next call.
func lines(buf *[]byte, data []byte, fn func(line []byte)) {
	*buf = append(*buf, data...)
	for {
		i := bytes.IndexByte(*buf, '\n')
		if i < 0 {
			return
		}
		fn((*buf)[:i])
		*buf = (*buf)[i+1:]
	}
}

func messages(line []byte) []envelope {
	line = bytes.TrimSpace(line)
	var one envelope
	if len(line) == 0 || json.Unmarshal(line, &one) != nil {
		return nil
	}
	return []envelope{one}
}

func idKey(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	key, _ := json.Marshal(v)
	return string(key)
}

// drainingReader notes the requests it passes on and, at the end of its
// input, waits until they are answered.
type drainingReader struct {
	r    io.Reader
	p    *pending
	ctx  context.Context
	wait time.Duration
	buf  []byte
	eof  bool
}

func (d *drainingReader) Read(b []byte) (int, error) {
	if d.eof {
		return 0, io.EOF
	}
	n, err := d.r.Read(b)
	d.p.mu.Lock()
	lines(&d.buf, b[:n], func(line []byte) {
		for _, m := range messages(line) {
			switch {
			case m.Method == "notifications/cancelled":
				// A cancelled request may get no answer.
				delete(d.p.ids, idKey(m.Params.RequestID))
			case m.Method != "" && len(m.ID) > 0:
				if k := idKey(m.ID); k != "" {
					d.p.ids[k] = true
				}
			}
		}
	})
	d.p.mu.Unlock()
	if err == io.EOF {
		if n > 0 {
			// The SDK reads the last requests before it is told of the end.
			return n, nil
		}
		d.eof = true
		d.drain()
	}
	return n, err
}

// drain waits until every request read was answered, ctx ends, or the
// wait is over.
func (d *drainingReader) drain() {
	stop := context.AfterFunc(d.ctx, func() {
		d.p.mu.Lock()
		d.p.cond.Broadcast()
		d.p.mu.Unlock()
	})
	defer stop()
	timer := time.AfterFunc(d.wait, func() {
		d.p.mu.Lock()
		clear(d.p.ids)
		d.p.cond.Broadcast()
		d.p.mu.Unlock()
	})
	defer timer.Stop()
	d.p.mu.Lock()
	for len(d.p.ids) > 0 && d.ctx.Err() == nil {
		d.p.cond.Wait()
	}
	d.p.mu.Unlock()
}

func (d *drainingReader) Close() error { return nil }

// answerWriter notes the answers it writes.
type answerWriter struct {
	w   io.Writer
	p   *pending
	mu  sync.Mutex
	buf []byte
}

func (a *answerWriter) Write(b []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n, err := a.w.Write(b)
	a.p.mu.Lock()
	lines(&a.buf, b[:n], func(line []byte) {
		for _, m := range messages(line) {
			if m.Method == "" && len(m.ID) > 0 {
				delete(a.p.ids, idKey(m.ID))
			}
		}
	})
	a.p.cond.Broadcast()
	a.p.mu.Unlock()
	return n, err
}

// Close leaves the process's standard output open.
func (a *answerWriter) Close() error { return nil }
