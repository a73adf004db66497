package arazzo

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Target is the operation a step calls, in its source description.
type Target struct {
	Source    *LoadedSource
	Operation *spec.Operation      // OpenAPI
	Async     *spec.AsyncOperation // AsyncAPI, by operationId
	Channel   *spec.Channel        // AsyncAPI, by channelPath
}

func (t *Target) String() string {
	switch {
	case t.Operation != nil:
		s := strings.ToUpper(t.Operation.Method) + " " + t.Operation.Path
		if t.Operation.OperationID != "" {
			s += " (" + t.Operation.OperationID + ")"
		}
		return s
	case t.Async != nil:
		return "AsyncAPI operation " + t.Async.ID
	case t.Channel != nil:
		return "AsyncAPI channel " + t.Channel.ID
	}
	return "?"
}

type targetError struct {
	msg    string
	silent bool // the source did not load: reported there
}

func (e *targetError) Error() string { return e.msg }

var operationPathRE = regexp.MustCompile(`^\{(\$sourceDescriptions\.[A-Za-z0-9_\-]+\.url)\}(#.*)?$`)

// resolveTarget finds the operation or channel a step calls.
func resolveTarget(d *Description, loaded map[string]*LoadedSource, s *Step) (*Target, error) {
	switch {
	case s.OperationPath != "" || s.ChannelPath != "":
		ref := s.OperationPath
		field := "operationPath"
		if ref == "" {
			ref, field = s.ChannelPath, "channelPath"
		}
		m := operationPathRE.FindStringSubmatch(ref)
		if m == nil {
			return nil, &targetError{msg: fmt.Sprintf("%s %q must be {$sourceDescriptions.<name>.url}#<JSON pointer>", field, ref)}
		}
		e, _ := ParseExpr(m[1])
		ls := loaded[e.ID]
		if ls == nil {
			return nil, &targetError{msg: fmt.Sprintf("%s names source description %q, which does not exist%s", field, e.ID, suggest.Hint(e.ID, sourceNames(d)))}
		}
		if ls.Doc == nil {
			return nil, &targetError{msg: "source did not load", silent: true}
		}
		ptr := strings.TrimPrefix(m[2], "#")
		if field == "channelPath" {
			for _, c := range ls.Doc.Views().Channels {
				if spec.Pointer(c.Source) == ptr {
					return &Target{Source: ls, Channel: c}, nil
				}
			}
			return nil, &targetError{msg: fmt.Sprintf("channelPath %q points to no channel of %s", ref, ls.Doc.Root.Name)}
		}
		for _, op := range ls.Doc.Views().Operations {
			if spec.Pointer(op.Source) == ptr {
				return &Target{Source: ls, Operation: op}, nil
			}
		}
		for _, pi := range ls.Doc.Views().PathItems {
			if spec.Pointer(pi.Source) == ptr {
				var ms []string
				for _, op := range pi.Operations {
					ms = append(ms, op.Method)
				}
				return nil, &targetError{msg: fmt.Sprintf("operationPath %q points to the path item %s, not to an operation: add its method (%s), e.g. %s/%s",
					ref, pi.Path, strings.Join(ms, ", "), ref, firstOr(ms, "get"))}
			}
		}
		return nil, &targetError{msg: fmt.Sprintf("operationPath %q points to no operation of %s", ref, ls.Doc.Root.Name)}
	case s.OperationID != "":
		id := s.OperationID
		var candidates []*LoadedSource
		if strings.HasPrefix(id, "$") {
			e, err := ParseExpr(id)
			if err != nil {
				return nil, &targetError{msg: err.Error()}
			}
			if e.Kind != ExprSourceDescriptions {
				return nil, &targetError{msg: fmt.Sprintf("operationId %q: an operation of a named source is written $sourceDescriptions.<name>.<operationId>", id)}
			}
			ls := loaded[e.ID]
			if ls == nil {
				return nil, &targetError{msg: fmt.Sprintf("operationId %q names source description %q, which does not exist%s", id, e.ID, suggest.Hint(e.ID, sourceNames(d)))}
			}
			candidates, id = []*LoadedSource{ls}, e.Name
		} else {
			for _, src := range d.Sources {
				if ls := loaded[src.Name]; ls != nil && (ls.Doc == nil || ls.Doc.Format != spec.Arazzo) {
					candidates = append(candidates, ls)
				}
			}
		}
		var found []*Target
		var all []string
		silent := false
		for _, ls := range candidates {
			if ls.Doc == nil {
				silent = true
				continue
			}
			if s.Action != "" || ls.Doc.Format == spec.AsyncAPI {
				for _, op := range ls.Doc.Views().AsyncOperations {
					all = append(all, op.ID)
					if op.ID == id {
						found = append(found, &Target{Source: ls, Async: op})
					}
				}
				continue
			}
			for _, op := range ls.Doc.Views().Operations {
				all = append(all, op.OperationID)
				if op.OperationID == id {
					found = append(found, &Target{Source: ls, Operation: op})
				}
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			var names []string
			for _, t := range found {
				names = append(names, t.Source.Name)
			}
			return nil, &targetError{msg: fmt.Sprintf("operationId %q is in several source descriptions (%s): write $sourceDescriptions.<name>.%s", id, strings.Join(names, ", "), id)}
		case silent && len(candidates) == 1:
			return nil, &targetError{msg: "source did not load", silent: true}
		}
		where := "the source descriptions"
		if len(candidates) == 1 {
			where = candidates[0].Doc.Root.Name
		}
		return nil, &targetError{msg: fmt.Sprintf("no operation of %s has operationId %q%s", where, id, suggest.Hint(id, all))}
	}
	return nil, &targetError{msg: "the step names no operation"}
}

func sourceNames(d *Description) []string {
	var out []string
	for _, s := range d.Sources {
		out = append(out, s.Name)
	}
	return out
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}
