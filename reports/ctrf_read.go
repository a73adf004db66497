package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/specgate/specgate/internal/jsonpos"
)

// CTRFRun is what a CTRF report says of its run besides its tests.
type CTRFRun struct {
	Tool    Tool
	Kind    Kind
	Shard   string
	Summary TestSummary
	// Coverage is results.extra.coverageMetrics, the coverage of each
	// specification.
	Coverage []Coverage
}

// CTRFError is a CTRF report that cannot be read: where (Offset bytes
// into it, on 1-based Line at Col, counted in characters as spec.PosAt
// does) and why. File names the report when the caller knows it: it is
// set by ReadCTRF, and a caller that read the report some other way sets
// it to say which file the error is in.
type CTRFError struct {
	File      string
	Offset    int64
	Line, Col int
	Err       error
}

// Error is "FILE:LINE:COL: why", as specgate's other errors of a file
// are, or "line LINE, column COL: why" when the file is not known.
func (e *CTRFError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
}

func (e *CTRFError) Unwrap() error { return e.Err }

// ReadCTRF reads the CTRF report file path as DecodeCTRF does; its errors
// name the file, and the line and column where reading it failed.
func ReadCTRF(path string, each func(*Test) error) (*CTRFRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	run, err := DecodeCTRF(bufio.NewReaderSize(f, 64<<10), each)
	var ce *CTRFError
	if errors.As(err, &ce) {
		ce.File = path
	}
	return run, err
}

// DecodeCTRF reads a CTRF report a test at a time, calling each with every
// test in order, so that a report of any size is read in little memory;
// the test is not used after each returns. It returns the rest of what the
// report says. Members it does not know are skipped; the order of members
// does not matter.
func DecodeCTRF(r io.Reader, each func(*Test) error) (*CTRFRun, error) {
	t := &tail{r: r, line: 1, col: 1}
	d := &ctrfDecoder{dec: json.NewDecoder(t), tail: t}
	run, err := d.report(each)
	var ce *CTRFError
	if err != nil && d.stopped == nil && !errors.As(err, &ce) {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("the report ends too soon")
		}
		err = d.errorAt(d.dec.InputOffset(), err)
	}
	return run, err
}

// decode reads the next value into v. A value of the wrong type is an
// error at its first byte, a value that is not JSON one at the byte that
// breaks it: the Decoder counts its errors' offsets from bytes it does not
// show, and the offset after a value is past a test that may run to
// hundreds of lines.
func (d *ctrfDecoder) decode(v any) error {
	d.tail.forget(d.dec.InputOffset())
	err := d.dec.Decode(v)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// A scan of the value meets the same first error and counts it
		// from the value's start.
		start, text := d.tail.value()
		var again *json.SyntaxError
		if errors.As(json.Unmarshal(text, new(json.RawMessage)), &again) {
			return d.errorAt(start+again.Offset-1, err)
		}
		return d.errorAt(start, err)
	case errors.As(err, &te):
		start, text := d.tail.value()
		return d.errorAt(start+jsonpos.ValueStart(text, te.Offset),
			fmt.Errorf("%s is a JSON %s, where CTRF has a %s", te.Field, te.Value, jsonKind(te.Type.Kind())))
	}
	return err
}

// errorAt is the error err at offset bytes into the report.
func (d *ctrfDecoder) errorAt(offset int64, err error) *CTRFError {
	line, col := d.tail.position(offset)
	return &CTRFError{Offset: offset, Line: line, Col: col, Err: err}
}

// tail keeps what its reader read from the start of the value being
// decoded on, to place the Decoder's errors in it, and the line and
// column where that starts.
type tail struct {
	r         io.Reader
	base      int64 // the offset of buf[0] in the report
	buf       []byte
	line, col int // of buf[0], 1-based; the column in characters
}

func (t *tail) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

// forget drops the bytes before offset.
func (t *tail) forget(offset int64) {
	if k := offset - t.base; k > 0 && k <= int64(len(t.buf)) {
		t.line, t.col = advance(t.line, t.col, t.buf[:k])
		t.buf = t.buf[:copy(t.buf, t.buf[k:])]
		t.base = offset
	}
}

// position is the line and column of offset, which is not before the
// bytes kept unless it is the report's start.
func (t *tail) position(offset int64) (line, col int) {
	if offset <= 0 {
		return 1, 1
	}
	return advance(t.line, t.col, t.buf[:min(max(offset-t.base, 0), int64(len(t.buf)))])
}

// advance is the line and column after text, starting at line and col,
// counting as spec.PosAt does. The decoder lets go of bytes between
// tokens, never inside a character.
func advance(line, col int, text []byte) (int, int) {
	if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
		line += bytes.Count(text[:i+1], []byte{'\n'})
		col, text = 1, text[i+1:]
	}
	return line, col + utf8.RuneCount(text)
}

// value is where the value decoded last starts, after the white space
// and the separator (',' or ':') before it, and the text from there on:
// where a Decoder starts counting the bytes of a value.
func (t *tail) value() (int64, []byte) {
	i := 0
	for i < len(t.buf) && strings.IndexByte(" \t\r\n", t.buf[i]) >= 0 {
		i++
	}
	if i < len(t.buf) && (t.buf[i] == ',' || t.buf[i] == ':') {
		i++
	}
	return t.base + int64(i), t.buf[i:]
}

// errStop is how each's own error crosses the decoder unchanged.
var errStop = errors.New("stop")

type ctrfDecoder struct {
	dec     *json.Decoder
	tail    *tail
	stopped error // the error each returned
}

func (d *ctrfDecoder) report(each func(*Test) error) (*CTRFRun, error) {
	run := &CTRFRun{}
	format := ""
	formatAt := d.errorAt(0, nil) // where a wrong reportFormat is: its value, or the start
	err := d.object(func(key string) error {
		switch key {
		case "reportFormat":
			if err := d.decode(&format); err != nil {
				return err
			}
			start, text := d.tail.value()
			formatAt = d.errorAt(start+int64(len(text)-len(bytes.TrimLeft(text, " \t\r\n"))), nil)
			return nil
		case "results":
			return d.results(run, each)
		}
		return d.skip()
	})
	if d.stopped != nil {
		return run, d.stopped
	}
	if err != nil {
		return run, err
	}
	if format != "CTRF" {
		formatAt.Err = fmt.Errorf("reportFormat is %q, not \"CTRF\"", format)
		return run, formatAt
	}
	return run, nil
}

func (d *ctrfDecoder) results(run *CTRFRun, each func(*Test) error) error {
	return d.object(func(key string) error {
		switch key {
		case "tool":
			var t ctrfTool
			if err := d.decode(&t); err != nil {
				return err
			}
			run.Tool = Tool{Name: t.Name, Version: t.Version}
			if t.Extra != nil {
				run.Tool = *t.Extra
			}
		case "summary":
			var s ctrfSummary
			if err := d.decode(&s); err != nil {
				return err
			}
			run.Summary = TestSummary{Tests: s.Tests, Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, Pending: s.Pending,
				Other: s.Other, Flaky: s.Flaky, Suites: s.Suites}
			if s.Start != 0 {
				run.Summary.Start, run.Summary.Stop = time.UnixMilli(s.Start), time.UnixMilli(s.Stop)
			}
		case "environment":
			var e ctrfEnvironment
			if err := d.decode(&e); err != nil {
				return err
			}
			run.Shard = e.ShardID
		case "extra":
			var extra struct {
				Kind     Kind             `json:"kind"`
				Coverage []CoverageReport `json:"coverageMetrics"`
			}
			if err := d.decode(&extra); err != nil {
				return err
			}
			run.Kind = extra.Kind
			for _, c := range extra.Coverage {
				run.Coverage = append(run.Coverage, Coverage{Spec: c.Spec, Operations: c.Operations})
			}
		case "tests":
			return d.tests(each)
		default:
			return d.skip()
		}
		return nil
	})
}

func (d *ctrfDecoder) tests(each func(*Test) error) error {
	if err := d.delim('['); err != nil {
		return err
	}
	for d.dec.More() {
		var c ctrfTest
		if err := d.decode(&c); err != nil {
			return err
		}
		t := c.test()
		if err := each(&t); err != nil {
			d.stopped = err
			return errStop
		}
	}
	return d.delim(']')
}

// object reads an object, calling member with the decoder at each
// member's value.
func (d *ctrfDecoder) object(member func(key string) error) error {
	if err := d.delim('{'); err != nil {
		return err
	}
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if err := member(key); err != nil {
			return err
		}
	}
	return d.delim('}')
}

func (d *ctrfDecoder) delim(want json.Delim) error {
	tok, err := d.dec.Token()
	if err != nil {
		return err
	}
	if got, ok := tok.(json.Delim); !ok || got != want {
		return fmt.Errorf("expected %q, found %v", string(want), tok)
	}
	return nil
}

func (d *ctrfDecoder) skip() error {
	var raw json.RawMessage
	return d.decode(&raw)
}

// jsonKind names a Go kind as JSON does.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "number"
}
