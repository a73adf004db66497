package reports

import (
	"strings"

	"github.com/specgate/specgate/spec"
)

// Operation is one operation of a loaded spec, as the html report groups
// them: by path and method, with one row per combination of request
// content type, response status and response content type, the five
// identifiers the product groups operations by.
type Operation struct {
	Path   string
	Method string // upper case
	Rows   []OperationRow
	at     place
}

// OperationRow is one combination; an empty field means the operation has
// no request body, no response, or a response without content.
type OperationRow struct {
	RequestType, Status, ResponseType string

	request, response, responseType place
}

// place is where a part of an operation is written: diagnostics whose
// pointer is at or under it concern that part.
type place struct{ file, pointer string }

func (p place) holds(f *Finding) bool {
	return p.file != "" && f.File == p.file && (f.Pointer == p.pointer || strings.HasPrefix(f.Pointer, p.pointer+"/"))
}

// OperationsOf lists the operations under a document's paths, in source
// order.
func OperationsOf(doc *spec.Document) []Operation {
	locate := func(path spec.Path) place {
		loc := doc.Locate(path, nil)
		return place{file: loc.File.Name, pointer: loc.Pointer}
	}
	var ops []Operation
	for _, op := range doc.Views().Operations {
		o := Operation{Path: op.Path, Method: strings.ToUpper(op.Method), at: locate(op.Source)}
		requests := []*spec.MediaType{nil}
		if op.RequestBody != nil && len(op.RequestBody.Content) > 0 {
			requests = op.RequestBody.Content
		}
		responses := op.Responses
		if len(responses) == 0 {
			responses = []*spec.Response{nil}
		}
		for _, req := range requests {
			for _, resp := range responses {
				types := []*spec.MediaType{nil}
				if resp != nil && len(resp.Content) > 0 {
					types = resp.Content
				}
				for _, mt := range types {
					row := OperationRow{}
					if req != nil {
						row.RequestType, row.request = req.Name, locate(req.Source)
					}
					if resp != nil {
						row.Status, row.response = resp.Status, locate(resp.Source)
					}
					if mt != nil {
						row.ResponseType, row.responseType = mt.Name, locate(mt.Source)
					}
					o.Rows = append(o.Rows, row)
				}
			}
		}
		ops = append(ops, o)
	}
	return ops
}

// concerns reports whether a diagnostic written inside the operation
// concerns a row: it is not about another request content type, another
// response or another response content type than the row's.
func (o Operation) concerns(row OperationRow, f *Finding) bool {
	for _, other := range o.Rows {
		if other.request.holds(f) && other.request != row.request ||
			other.response.holds(f) && other.response != row.response ||
			other.responseType.holds(f) && other.responseType != row.responseType {
			return false
		}
	}
	return true
}
