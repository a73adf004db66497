package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one session on r and w, a process's standard input and
// output, until r ends or ctx does. When r ends, the requests already read
// are answered before the session closes (up to the time limit of a call),
// so that `specgate mcp < requests.jsonl` answers each request as a filter
// would; the SDK alone drops them.
//
// The SDK ends the session at a line that is not a JSON-RPC message, and
// answers a call made before initialize with an error of code 0. So each
// line is read here first: one that is not JSON is answered with
// JSON-RPC's parse error (-32700), one that is JSON but no message with
// its invalid request (-32600), each with a null id as JSON-RPC has it
// when the id cannot be read; a call before initialize (other than ping)
// is answered with invalid request, its message saying that the session
// starts with initialize. The session goes on after each.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	p := &pending{ids: map[string]bool{}}
	p.cond = sync.NewCond(&p.mu)
	aw := &answerWriter{w: w, p: p}
	t := &mcpsdk.IOTransport{
		Reader: &drainingReader{r: r, p: p, ctx: ctx, wait: s.opts.Timeout + 10*time.Second, answers: aw},
		Writer: aw,
	}
	return s.Run(ctx, t)
}

// pending are the ids of the requests read and not yet answered, and where
// the session is in its lifecycle.
type pending struct {
	mu   sync.Mutex
	cond *sync.Cond
	ids  map[string]bool
	// initialize is the id of the initialize request passed on, "" before
	// one; initialized is set once it is passed on, and unset when the
	// SDK answers it with an error.
	initialize  string
	initialized bool
}

// envelope is what the stream's messages say about requests and answers.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
		Meta      map[string]any  `json:"_meta"`
	} `json:"params"`
	Error *struct {
		Code int `json:"code"`
	} `json:"error"`
}

// protocolVersionMeta marks a request of the sessionless protocol (the
// SDK's SEP-2575), which needs no initialize.
const protocolVersionMeta = "io.modelcontextprotocol/protocolVersion"

// check reads a line of input: nil when it is to be passed on to the SDK,
// else the answer to write instead.
func (p *pending) check(line []byte) []byte {
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return errorAnswer(nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON: "+err.Error())
	}
	switch bytes.TrimSpace(line)[0] {
	case '[':
		var batch []json.RawMessage
		json.Unmarshal(line, &batch)
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return errorAnswer(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a message of the batch is not a JSON-RPC 2.0 message: "+err.Error())
			}
		}
		return nil
	case '{':
	default:
		return errorAnswer(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a JSON-RPC 2.0 message is an object")
	}
	var env envelope
	json.Unmarshal(line, &env)
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorAnswer(idOf(env.ID), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	if env.Method == "" || idKey(env.ID) == "" {
		return nil // an answer or a notification
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case env.Method == "initialize":
		p.initialize, p.initialized = idKey(env.ID), true
	case p.initialized || env.Method == "ping" || env.Params.Meta[protocolVersionMeta] != nil:
	default:
		return errorAnswer(env.ID, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: %s before initialize: a session starts with an initialize request, answered before any other (ping excepted)", env.Method))
	}
	return nil
}

// idOf is a request's id when it is one JSON-RPC allows (a string, a
// number or null), else nil.
func idOf(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return raw
	}
	return nil
}

// errorAnswer is a JSON-RPC error response, a line.
func errorAnswer(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{code, msg}})
	return append(data, '\n')
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

// drainingReader passes on the lines of its input that are messages
// (pending.check answers the others), notes the requests among them and,
// at the end of its input, waits until they are answered.
type drainingReader struct {
	r       io.Reader
	p       *pending
	ctx     context.Context
	wait    time.Duration
	answers io.Writer
	chunk   []byte // what each read of r fills
	buf     []byte // the start of a line not read whole yet
	out     []byte // lines checked, not yet passed on
	eof     bool
	err     error
}

func (d *drainingReader) Read(b []byte) (int, error) {
	if d.chunk == nil {
		d.chunk = make([]byte, 64<<10)
	}
	for len(d.out) == 0 && d.err == nil {
		n, err := d.r.Read(d.chunk)
		lines(&d.buf, d.chunk[:n], d.take)
		if err != nil {
			if len(d.buf) > 0 {
				// The last line has no newline.
				d.take(d.buf)
				d.buf = nil
			}
			d.err = err
		}
	}
	if len(d.out) > 0 {
		// The SDK reads the last requests before it is told of the end.
		n := copy(b, d.out)
		d.out = d.out[n:]
		return n, nil
	}
	if d.err == io.EOF && !d.eof {
		d.eof = true
		d.drain()
	}
	return 0, d.err
}

// take checks a line of input and keeps it to pass on, or answers it.
func (d *drainingReader) take(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if answer := d.p.check(line); answer != nil {
		d.answers.Write(answer)
		return
	}
	d.p.mu.Lock()
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
	d.p.mu.Unlock()
	d.out = append(d.out, line...)
	d.out = append(d.out, '\n')
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
				if m.Error != nil && idKey(m.ID) == a.p.initialize {
					a.p.initialized = false
				}
			}
		}
	})
	a.p.cond.Broadcast()
	a.p.mu.Unlock()
	return n, err
}

// Close leaves the process's standard output open.
func (a *answerWriter) Close() error { return nil }
