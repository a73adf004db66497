package insightsd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/internal/jsonpos"
)

// timeFields are the members of a submission that hold a time, by their
// dotted JSON names as an UnmarshalTypeError's Field gives them (a list's
// items under the list's name). A time
// that does not parse fails in time.Time's UnmarshalJSON, whose error
// says neither which member nor where: badTime finds them.
var timeFields = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t == reflect.TypeFor[time.Time]() {
			out[path] = true
			return
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" {
				walk(f.Type, path) // its fields are the outer struct's
				continue
			}
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if path != "" {
				name = path + "." + name
			}
			walk(f.Type, name)
		}
	}
	walk(reflect.TypeFor[insights.Submission](), "")
	return out
})

// badTime finds the first member of data, a JSON object, that holds a time
// and does not read as one: its dotted name, the offset where its value
// starts and an error that says what is there and why it is not a time.
// The error is nil when every time reads.
func badTime(data []byte) (field string, off int64, err error) {
	times := timeFields()
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(path string) bool
	walk = func(path string) bool {
		if times[path] {
			start := jsonpos.NextValue(data, dec.InputOffset())
			var raw json.RawMessage
			if dec.Decode(&raw) != nil {
				return false
			}
			if why := new(time.Time).UnmarshalJSON(raw); why != nil {
				field, off = path, start
				err = fmt.Errorf("%s is %s, where an RFC 3339 time goes%s", path, shown(raw), timeReason(why))
				return true
			}
			return false
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return false
				}
				name, _ := key.(string)
				if path != "" {
					name = path + "." + name
				}
				if walk(name) {
					return true
				}
			}
		case json.Delim('['):
			for dec.More() {
				if walk(path) {
					return true
				}
			}
		default:
			return false
		}
		dec.Token() // the closing delimiter
		return false
	}
	walk("")
	return field, off, err
}

// shown is a JSON value as a message quotes it: itself when short and on
// one line, else its kind.
func shown(raw []byte) string {
	if len(raw) <= 64 && !bytes.ContainsAny(raw, "\r\n") {
		return string(raw)
	}
	switch raw[0] {
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	case '"':
		return "a long JSON string"
	}
	return "a long JSON number"
}

// timeReason is why a value is not a time, when the time package says
// more than that it does not match the layout ("month out of range").
func timeReason(err error) string {
	var pe *time.ParseError
	if errors.As(err, &pe) && pe.Message != "" {
		return " (" + strings.TrimPrefix(pe.Message, ": ") + ")"
	}
	return ""
}
