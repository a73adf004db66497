package examples

// loc returns where the part of the example at segs (from the file's root)
// is written: the deepest part found.
func (x *exampleCheck) loc(segs []any) Loc {
	ex := x.ex
	rest := segs[len(x.base):]
	at := ex.Loc
	if len(rest) == 0 {
		return at
	}
	next := func() any {
		s := rest[0]
		rest = rest[1:]
		return s
	}
	// named locates a named value (a query parameter, header or form
	// field) by the next segment, and the part of it the rest names.
	named := func(find func(name string) *Param) Loc {
		if len(rest) == 0 {
			return at
		}
		name, _ := next().(string)
		if p := find(name); p != nil {
			return paramLoc(p, rest)
		}
		return at
	}
	// The request and the response are entered alike: at their key when
	// the path ends there, at their headers or body, else at what only one
	// of them has.
	var key, bodyKey Loc
	var headers []Param
	var body Value
	part := next()
	switch {
	case part == "http-request" && ex.Request != nil:
		r := ex.Request
		at, key, headers, body, bodyKey = r.Loc, r.keyAt, r.Headers, r.Body, r.bodyKeyAt
	case part == "http-response" && ex.Response != nil:
		r := ex.Response
		at, key, headers, body, bodyKey = r.Loc, r.keyAt, r.Headers, r.Body, r.bodyKeyAt
	default:
		return at
	}
	if len(rest) == 0 {
		return keyOr(key, at)
	}
	field := next()
	switch field {
	case "headers":
		return named(func(name string) *Param { return findHeader(headers, name) })
	case "body":
		return bodyLoc(body, bodyKey, rest)
	}
	if part == "http-response" {
		if field == "status" {
			return keyOr(ex.Response.StatusLoc, at)
		}
		return at
	}
	r := ex.Request
	switch field {
	case "method":
		return r.MethodLoc
	case "path":
		return r.Path.Where()
	case "query":
		return named(func(name string) *Param { return findParam(r.Query, name) })
	case "form-fields":
		return named(func(name string) *Param { return findParam(r.FormFields, name) })
	case "multipart-formdata":
		if len(rest) == 0 {
			return at
		}
		i, _ := next().(int)
		if i < 0 || i >= len(r.Multipart) {
			return at
		}
		mp := r.Multipart[i]
		if len(rest) == 0 {
			return mp.Loc
		}
		switch next() {
		case "content":
			l, _ := Locate(mp.Content, rest)
			return l
		case "filename":
			return mp.FileLoc
		}
		return mp.Loc
	}
	return at
}

// keyOr is the location of a key, else at when it is not written.
func keyOr(key, at Loc) Loc {
	if key.File != "" {
		return key
	}
	return at
}

// bodyLoc locates a part of a body: its key for the body itself (a YAML
// block's value starts a line below), else the part inside.
func bodyLoc(body Value, keyAt Loc, path []any) Loc {
	if len(path) == 0 && keyAt.File != "" {
		return keyAt
	}
	l, _ := Locate(body, path)
	return l
}

// paramLoc locates a part of a named value: the name through a scalar
// value for the value itself, else the part inside the value.
func paramLoc(p *Param, path []any) Loc {
	if len(path) == 0 {
		l := p.NameLoc
		if end := p.Value.Where(); end.File == l.File && !posBefore(end.Range.End, l.Range.End) {
			switch p.Value.(type) {
			case *Object, *Array:
			default:
				l.Range.End = end.Range.End
			}
		}
		return l
	}
	if l, exact := Locate(p.Value, path); exact {
		return l
	}
	return p.NameLoc
}
