package mock

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// stateAnswer answers with a resource (or a list of them) for the
// operation's success response: the resource itself where the response
// is an object, nothing where it declares no content. The answer is
// checked against the response's schema: state never gives an invalid
// answer (a stored resource that no longer fits is a 500 and an error in
// the log, never reshaped in silence).
func (s *Server) stateAnswer(x *Exchange, c *crud, status int, v any) *Answer {
	if m, ok := v.(map[string]any); ok {
		v = project(typer{x.op.api.doc}, c.resource, m)
	}
	return s.stateAnswerRaw(x, c, status, v)
}

func (s *Server) stateAnswerRaw(x *Exchange, c *crud, status int, v any) *Answer {
	resp := x.op.success
	if status != x.op.successStatus {
		if r := contract.ResponseFor(x.op.op, status); r != nil {
			resp = r
		}
	}
	a := &Answer{Status: status, Header: http.Header{}, Example: "state"}
	var mt *spec.MediaType
	for _, m := range resp.Content {
		if isJSON(m.Name) {
			mt = m
			break
		}
	}
	if mt != nil {
		a.MediaType = mt.Name
		switch {
		case v == nil || (c.role == roleRemove || c.role == roleClear) && !fits(x, mt, v):
			// A deletion whose response is not the resource: generated.
			g, p := s.generate(x, resp, status, false)
			if p != nil {
				return &Answer{Status: p.Status, Problem: p}
			}
			g.Example = "state"
			return g
		default:
			if msg := s.invalidAnswer(x, mt, v); msg != "" {
				s.opts.Logger.Error("the stored state does not fit the response schema: answered 500", slog.String("operation", x.op.String()),
					slog.String("collection", c.collection), slog.String("problem", msg))
				return &Answer{Status: http.StatusInternalServerError, Problem: problems.New(http.StatusInternalServerError, kindStateInvalid,
					fmt.Sprintf("%s: the stored %s do not fit the response's schema: %s", x.op, c.collection, msg))}
			}
			a.Body = v
		}
	}
	s.fillHeaders(x, resp, a, false)
	return a
}

func fits(x *Exchange, mt *spec.MediaType, v any) bool {
	if mt.Schema == nil {
		return true
	}
	sc, err := x.op.api.schemas.Compile(mt.Schema, mt.SchemaSource)
	return err == nil && len(sc.Validate(v, schema.Response)) == 0
}

// notFound refuses a read, update or deletion of an id the collection
// does not hold under the path's parents (404).
func (s *Server) notFound(x *Exchange, c *crud, id string, parents map[string]string) *Answer {
	return s.storeRefusal(x, http.StatusNotFound, kindNoResource,
		fmt.Sprintf("%s: the %s collection holds no resource with %s %s%s", x.op, c.collection, c.idField, id, under(c, parents)))
}

// closerStatuses are, for each status the store refuses a request with,
// the client errors that say the same to a client when an operation does
// not declare the status itself, closest first.
var closerStatuses = map[int][]int{
	http.StatusNotFound:   {http.StatusGone, http.StatusBadRequest, http.StatusUnprocessableEntity},
	http.StatusConflict:   {http.StatusUnprocessableEntity, http.StatusBadRequest},
	http.StatusBadRequest: {http.StatusUnprocessableEntity, http.StatusConflict, http.StatusNotFound},
}

// storeRefusal answers a valid request that the store does not carry out
// (status and kind say why: 404 no such resource, 409 a key taken, 400 a
// foreign key or a cursor that names nothing), with a response the
// operation declares: the contract checked the request and found it
// valid, so the answer stays within the contract too. It is the
// operation's response for the status (the status, its range, default);
// else the one for the closest client error it declares (closerStatuses);
// else, where it declares none of them, the answer the stateless mock
// gives (a DELETE of what is not there gets its 204), nothing stored.
// The X-Specgate-Problem header and the log say what the store refused
// and how it was answered.
func (s *Server) storeRefusal(x *Exchange, status int, kind, detail string) *Answer {
	p := problems.New(status, kind, detail)
	if contract.ResponseFor(x.op.op, status) != nil {
		return s.refusal(x, p)
	}
	for _, alt := range closerStatuses[status] {
		if declaredResponse(x.op.op, strconv.Itoa(alt)) != nil {
			p.Status = alt
			p.Detail += fmt.Sprintf(" (%s declares no %d: answered with its %d)", x.op, status, alt)
			return s.refusal(x, p)
		}
	}
	codes := []string{strconv.Itoa(status)}
	for _, alt := range closerStatuses[status] {
		codes = append(codes, strconv.Itoa(alt))
	}
	p.Detail += fmt.Sprintf(" (%s declares no %s or %s: answered as the stateless mock would)", x.op, strings.Join(codes[:len(codes)-1], ", "), codes[len(codes)-1])
	a, prob := s.answerFromSpec(x, prefs{})
	if prob != nil {
		return &Answer{Status: prob.Status, Problem: prob}
	}
	a.Refused = p
	return a
}

// locationHeader is the name of a Location header the response declares.
func locationHeader(r *spec.Response) string {
	for _, h := range r.Headers {
		if strings.EqualFold(h.Name, "Location") {
			return h.Name
		}
	}
	return ""
}
