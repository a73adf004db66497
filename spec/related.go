package spec

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// LoadRelated loads the document that ref names, a URL or a path relative
// to d's entry file (as an Arazzo source description names the OpenAPI
// descriptions its workflows call), with the loader that loaded d and under
// the rules of its $refs: a remote URL only with AllowRemoteRefs (unless d
// is itself remote), a local file only inside d's ref root. The error is an
// *Error naming the document as ref resolves it.
func (d *Document) LoadRelated(ctx context.Context, ref string) (*Document, error) {
	loc, _, _ := strings.Cut(ref, "#")
	key, err := resolveLocation(d.Root.key, loc)
	if err != nil {
		return nil, &Error{File: ref, Msg: fmt.Sprintf("invalid location %q: %v", ref, err)}
	}
	name := displayName(d.Root, key)
	if isURL(key) && !isURL(d.Root.key) && !d.loader.opts.AllowRemoteRefs {
		return nil, &Error{File: name, Msg: "a remote document, not fetched without --allow-remote-refs"}
	}
	if !isURL(key) {
		if msg := d.refRoot.check(d.Root.key, key); msg != "" {
			return nil, &Error{File: name, Msg: fmt.Sprintf("%s %s", ref, msg)}
		}
		if st, err := os.Stat(key); err == nil && !st.Mode().IsRegular() {
			return nil, &Error{File: name, Msg: "not a regular file"}
		}
	}
	_, data, err := d.loader.readData(ctx, key)
	if err != nil {
		if le, ok := err.(*Error); ok {
			le.File = name
			return nil, le
		}
		return nil, &Error{File: name, Msg: err.Error(), Err: err}
	}
	rd, err := d.loader.entry(ctx, name, key, data)
	if err != nil {
		return nil, err
	}
	rd.Resolve(ctx)
	return rd, nil
}
