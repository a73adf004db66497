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
	switch next() {
	case "http-request":
		r := ex.Request
		if r == nil {
			return at
		}
		at = r.Loc
		if len(rest) == 0 {
			if r.keyAt.File != "" {
				return r.keyAt
			}
			return at
		}
		switch next() {
		case "method":
			return r.MethodLoc
		case "path":
			return r.Path.Where()
		case "query":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := findParam(r.Query, name); p != nil {
				return paramLoc(p, rest)
			}
		case "headers":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := r.Header(name); p != nil {
				return paramLoc(p, rest)
			}
		case "body":
			return bodyLoc(r.Body, r.bodyKeyAt, rest)
		case "form-fields":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := findParam(r.FormFields, name); p != nil {
				return paramLoc(p, rest)
			}
		case "multipart-formdata":
			if len(rest) == 0 {
				return at
			}
			i, _ := next().(int)
			if i < 0 || i >= len(r.Multipart) {
				return at
			}
			part := r.Multipart[i]
			if len(rest) == 0 {
				return part.Loc
			}
			switch next() {
			case "content":
				l, _ := Locate(part.Content, rest)
				return l
			case "filename":
				return part.FileLoc
			}
			return part.Loc
		}
	case "http-response":
		r := ex.Response
		if r == nil {
			return at
		}
		at = r.Loc
		if len(rest) == 0 {
			if r.keyAt.File != "" {
				return r.keyAt
			}
			return at
		}
		switch next() {
		case "status":
			if r.StatusLoc.File != "" {
				return r.StatusLoc
			}
		case "headers":
			if len(rest) == 0 {
				return at
			}
			name, _ := next().(string)
			if p := r.Header(name); p != nil {
				return paramLoc(p, rest)
			}
		case "body":
			return bodyLoc(r.Body, r.bodyKeyAt, rest)
		}
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
