package examples

import (
	"encoding/json"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/lazyregexp"
)

// DataType is a type that a placeholder (string), a capture (id:integer) or
// a dataType matcher names. Besides the JSON types it names string formats,
// with the names users of the product know.
type DataType string

const (
	TypeString   DataType = "string"
	TypeNumber   DataType = "number"
	TypeInteger  DataType = "integer"
	TypeBoolean  DataType = "boolean"
	TypeNull     DataType = "null"
	TypeObject   DataType = "object"
	TypeArray    DataType = "array"
	TypeAny      DataType = "any"      // any value, null included ("anything" is the same)
	TypeAnyValue DataType = "anyvalue" // any value but null
	TypeEmail    DataType = "email"
	TypeDate     DataType = "date"     // 2024-02-29
	TypeDateTime DataType = "datetime" // RFC 3339 date-time
	TypeTime     DataType = "time"     // RFC 3339 full-time: 10:30:00Z
	TypeUUID     DataType = "uuid"
	TypeURL      DataType = "url" // an absolute URI
	TypeURLHTTP  DataType = "url-http"
	TypeURLHTTPS DataType = "url-https"
	TypeURLPath  DataType = "url-path" // a path such as /pets/1
)

// dataTypes lists every type name, aliases last.
var dataTypes = []string{
	"string", "number", "integer", "boolean", "null", "object", "array", "any", "anyvalue",
	"email", "date", "datetime", "time", "uuid", "url", "url-http", "url-https", "url-path", "anything",
}

// ParseDataType reads a type name ("anything" is "any").
func ParseDataType(s string) (DataType, bool) {
	if s == "anything" {
		return TypeAny, true
	}
	for _, t := range dataTypes {
		if s == t {
			return DataType(s), true
		}
	}
	return "", false
}

// JSONType is the JSON Schema type of values of t ("" for any), and Format
// its string format ("" when none): what a generator is asked for.
func (t DataType) JSONType() (typ, format string) {
	switch t {
	case TypeAny, TypeAnyValue:
		return "", ""
	case TypeEmail:
		return "string", "email"
	case TypeDate:
		return "string", "date"
	case TypeDateTime:
		return "string", "date-time"
	case TypeTime:
		return "string", "time"
	case TypeUUID:
		return "string", "uuid"
	case TypeURL, TypeURLHTTP, TypeURLHTTPS:
		return "string", "uri"
	case TypeURLPath:
		return "string", "uri-reference"
	}
	return string(t), ""
}

var (
	uuidRE  = lazyregexp.New(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	emailRE = lazyregexp.New(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// Check reports whether v is a value of type t.
func (t DataType) Check(v any) bool {
	switch t {
	case TypeAny:
		return true
	case TypeAnyValue:
		return v != nil
	case TypeNull:
		return v == nil
	case TypeBoolean:
		_, ok := v.(bool)
		return ok
	case TypeNumber:
		_, ok := number(v)
		return ok
	case TypeInteger:
		r, ok := number(v)
		return ok && r.IsInt()
	case TypeObject:
		_, ok := v.(map[string]any)
		return ok
	case TypeArray:
		_, ok := v.([]any)
		return ok
	}
	s, ok := v.(string)
	if !ok {
		return false
	}
	switch t {
	case TypeString:
		return true
	case TypeEmail:
		return emailRE().MatchString(s)
	case TypeDate:
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case TypeDateTime:
		_, err := time.Parse(time.RFC3339Nano, strings.Replace(s, " ", "T", 1))
		return err == nil && strings.ContainsAny(s, "Tt")
	case TypeTime:
		for _, layout := range []string{"15:04:05Z07:00", "15:04:05.999999999Z07:00", "15:04:05", "15:04:05.999999999"} {
			if _, err := time.Parse(layout, s); err == nil {
				return true
			}
		}
		return false
	case TypeUUID:
		return uuidRE().MatchString(s)
	case TypeURL, TypeURLHTTP, TypeURLHTTPS:
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
			return false
		}
		switch t {
		case TypeURLHTTP:
			return u.Scheme == "http"
		case TypeURLHTTPS:
			return u.Scheme == "https"
		}
		return true
	case TypeURLPath:
		u, err := url.Parse(s)
		return err == nil && strings.HasPrefix(s, "/") && u.Scheme == "" && u.Host == ""
	}
	return false
}

// number reads a JSON number, as json.Number or as a Go number, exactly.
func number(v any) (*big.Rat, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = string(n)
	case float64:
		s = strconv.FormatFloat(n, 'g', -1, 64)
	case float32:
		s = strconv.FormatFloat(float64(n), 'g', -1, 32)
	case int:
		return new(big.Rat).SetInt64(int64(n)), true
	case int64:
		return new(big.Rat).SetInt64(n), true
	case int32:
		return new(big.Rat).SetInt64(int64(n)), true
	case uint64:
		return new(big.Rat).SetUint64(n), true
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}
