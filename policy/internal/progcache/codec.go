package progcache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// The codec writes compiled Rego modules in a compact binary form so that a
// later run can skip parsing and the compiler's rewriting and checking
// stages (see Store). It covers exactly the node types a compiled
// module can hold; anything else is an error, and the caller compiles from
// source instead. Locations keep file, row and column; their source text,
// which only tracing shows, is not kept, and most terms keep none (see
// encoder.term).

// Term value tags.
const (
	tagNull byte = iota + 1
	tagTrue
	tagFalse
	tagNumber
	tagString
	tagVar
	tagRef
	tagArray
	tagObject
	tagSet
	tagArrayCompr
	tagObjectCompr
	tagSetCompr
	tagCall
)

// Expression kinds.
const (
	exprTerm byte = iota + 1
	exprCall
	exprSome
	exprEvery
)

var errCodec = errors.New("compiled module cache: malformed data")

type encoder struct {
	buf     []byte
	strings map[string]uint64
	table   []string
	err     error // the first node the codec cannot write; the rest is skipped
}

func (e *encoder) uvarint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

func (e *encoder) int(v int) { e.buf = binary.AppendVarint(e.buf, int64(v)) }

func (e *encoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// text writes a string in place: its length, then its bytes.
func (e *encoder) text(s string) {
	e.uvarint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// texts writes a list of strings, telling nil from empty: its length plus
// one, 0 for nil.
func (e *encoder) texts(ss []string) {
	if ss == nil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(len(ss)) + 1)
	for _, s := range ss {
		e.text(s)
	}
}

// str writes an index into the string table: file names, variables and
// keys repeat a great deal.
func (e *encoder) str(s string) {
	i, ok := e.strings[s]
	if !ok {
		i = uint64(len(e.table))
		e.strings[s] = i
		e.table = append(e.table, s)
	}
	e.uvarint(i)
}

func (e *encoder) loc(l *ast.Location) {
	if l == nil {
		e.buf = append(e.buf, 0)
		return
	}
	e.buf = append(e.buf, 1)
	e.position(l)
}

func (e *encoder) position(l *ast.Location) {
	e.str(l.File)
	e.int(l.Row)
	e.int(l.Col)
}

func (e *encoder) terms(ts []*ast.Term) {
	e.uvarint(uint64(len(ts)))
	for _, t := range ts {
		e.term(t)
	}
}

func (e *encoder) locatedTerms(ts []*ast.Term) {
	e.uvarint(uint64(len(ts)))
	for _, t := range ts {
		e.located(t)
	}
}

// term writes a term without its location. Evaluation reads the
// locations of expressions (for errors and traces) and of a few terms
// (located); a compiled rule set has hundreds of thousands of other terms,
// and leaving their locations out halves what a run reads back.
func (e *encoder) term(t *ast.Term) { e.termAt(t, false) }

// located writes a term with its location: the terms of a rule's head and
// an object comprehension's key, which OPA names in conflict errors.
func (e *encoder) located(t *ast.Term) { e.termAt(t, true) }

func (e *encoder) termAt(t *ast.Term, located bool) {
	// One byte says whether there is a term and whether it has a location.
	switch {
	case e.err != nil:
		return
	case t == nil:
		e.buf = append(e.buf, 0)
		return
	case t.Location == nil || !located:
		e.buf = append(e.buf, 1)
	default:
		e.buf = append(e.buf, 2)
		e.position(t.Location)
	}
	switch v := t.Value.(type) {
	case ast.Null:
		e.buf = append(e.buf, tagNull)
	case ast.Boolean:
		if v {
			e.buf = append(e.buf, tagTrue)
		} else {
			e.buf = append(e.buf, tagFalse)
		}
	case ast.Number:
		e.buf = append(e.buf, tagNumber)
		e.str(string(v))
	case ast.String:
		e.buf = append(e.buf, tagString)
		e.str(string(v))
	case ast.Var:
		e.buf = append(e.buf, tagVar)
		e.str(string(v))
	case ast.Ref:
		e.buf = append(e.buf, tagRef)
		e.terms(v)
	case ast.Call:
		e.buf = append(e.buf, tagCall)
		e.terms(v)
	case *ast.Array:
		e.buf = append(e.buf, tagArray)
		e.uvarint(uint64(v.Len()))
		for i := range v.Len() {
			e.term(v.Elem(i))
		}
	case ast.Set:
		e.buf = append(e.buf, tagSet)
		e.terms(v.Slice())
	case ast.Object:
		e.buf = append(e.buf, tagObject)
		keys := v.Keys()
		e.uvarint(uint64(len(keys)))
		for _, k := range keys {
			e.term(k)
			e.term(v.Get(k))
		}
	case *ast.ArrayComprehension:
		e.buf = append(e.buf, tagArrayCompr)
		e.term(v.Term)
		e.body(v.Body)
	case *ast.SetComprehension:
		e.buf = append(e.buf, tagSetCompr)
		e.term(v.Term)
		e.body(v.Body)
	case *ast.ObjectComprehension:
		e.buf = append(e.buf, tagObjectCompr)
		e.located(v.Key)
		e.term(v.Value)
		e.body(v.Body)
	default:
		e.err = fmt.Errorf("compiled module cache: cannot encode a term of type %T", t.Value)
	}
}

func (e *encoder) body(b ast.Body) {
	e.uvarint(uint64(len(b)))
	for _, x := range b {
		e.expr(x)
	}
}

func (e *encoder) expr(x *ast.Expr) {
	e.int(x.Index)
	e.bool(x.Generated)
	e.bool(x.Negated)
	e.loc(x.Location)
	switch t := x.Terms.(type) {
	case *ast.Term:
		e.buf = append(e.buf, exprTerm)
		e.term(t)
	case []*ast.Term:
		e.buf = append(e.buf, exprCall)
		e.terms(t)
	case *ast.SomeDecl:
		e.buf = append(e.buf, exprSome)
		e.loc(t.Location)
		e.terms(t.Symbols)
	case *ast.Every:
		e.buf = append(e.buf, exprEvery)
		e.loc(t.Location)
		e.term(t.Key)
		e.term(t.Value)
		e.term(t.Domain)
		e.body(t.Body)
	default:
		if e.err == nil {
			e.err = fmt.Errorf("compiled module cache: cannot encode an expression of type %T", x.Terms)
		}
		return
	}
	e.uvarint(uint64(len(x.With)))
	for _, w := range x.With {
		e.loc(w.Location)
		e.term(w.Target)
		e.term(w.Value)
	}
}

func (e *encoder) rule(r *ast.Rule) {
	e.bool(r.Default)
	e.loc(r.Location)
	h := r.Head
	e.str(string(h.Name))
	e.loc(h.Location)
	e.bool(h.Assign)
	e.locatedTerms(h.Reference)
	e.locatedTerms(h.Args)
	e.located(h.Key)
	e.located(h.Value)
	e.body(r.Body)
	e.bool(r.Else != nil)
	if r.Else != nil {
		e.rule(r.Else)
	}
}

// EncodeModules writes modules (compiled or not) in file-name order.
func EncodeModules(modules map[string]*ast.Module) ([]byte, error) {
	e := &encoder{strings: map[string]uint64{}}
	files := make([]string, 0, len(modules))
	for f := range modules {
		files = append(files, f)
	}
	slices.Sort(files)
	e.uvarint(uint64(len(files)))
	for _, f := range files {
		m := modules[f]
		e.str(f)
		e.loc(m.Package.Location)
		e.terms(m.Package.Path)
		e.uvarint(uint64(len(m.Imports)))
		for _, imp := range m.Imports {
			e.loc(imp.Location)
			e.str(string(imp.Alias))
			e.term(imp.Path)
		}
		e.uvarint(uint64(len(m.Rules)))
		for _, r := range m.Rules {
			e.rule(r)
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	// The string table goes first so that the decoder can share one copy
	// of each string.
	head := &encoder{}
	head.uvarint(uint64(len(e.table)))
	for _, s := range e.table {
		head.text(s)
	}
	return append(head.buf, e.buf...), nil
}

type decoder struct {
	buf   []byte
	table []string
	err   error
	depth int

	// A compiled rule set has hundreds of thousands of nodes: they are
	// allocated in blocks, and each string is boxed into a Value once per
	// kind, which keeps decoding a small part of start-up.
	nodes slab[ast.Term]
	locs  slab[ast.Location]
	exprs slab[ast.Expr]
	lists slab[*ast.Term]
	vars  []ast.Value
	strs  []ast.Value
	nums  []ast.Value
}

// slab hands out pointers into large blocks.
type slab[T any] struct{ block []T }

func (s *slab[T]) new() *T {
	if len(s.block) == cap(s.block) {
		s.block = make([]T, 0, 1024)
	}
	s.block = s.block[:len(s.block)+1]
	return &s.block[len(s.block)-1]
}

// slice hands out n consecutive elements whose capacity ends at n, so that
// an append by their user cannot reach a neighbour.
func (s *slab[T]) slice(n int) []T {
	if n > 256 {
		return make([]T, n)
	}
	if cap(s.block)-len(s.block) < n {
		s.block = make([]T, 0, 4096)
	}
	start := len(s.block)
	s.block = s.block[:start+n]
	return s.block[start : start+n : start+n]
}

// value returns the boxed Value for string-table index i of one kind.
func (d *decoder) value(cache []ast.Value, mk func(string) ast.Value) ast.Value {
	i := d.uvarint()
	if i >= uint64(len(d.table)) {
		d.fail()
		return ast.Null{}
	}
	if cache[i] == nil {
		cache[i] = mk(d.table[i])
	}
	return cache[i]
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCodec
	}
	d.buf = nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.buf)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.buf = d.buf[n:]
	return v
}

// count reads a length and checks that the remaining data could hold it,
// so that corrupt data cannot ask for a huge allocation.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.buf)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) int() int {
	v, n := binary.Varint(d.buf)
	if n <= 0 || v > math.MaxInt32 || v < math.MinInt32 {
		d.fail()
		return 0
	}
	d.buf = d.buf[n:]
	return int(v)
}

func (d *decoder) byte() byte {
	if len(d.buf) == 0 {
		d.fail()
		return 0
	}
	b := d.buf[0]
	d.buf = d.buf[1:]
	return b
}

func (d *decoder) bool() bool { return d.byte() == 1 }

func (d *decoder) text() string {
	n := d.count()
	s := string(d.buf[:n])
	d.buf = d.buf[n:]
	return s
}

func (d *decoder) texts() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = d.text()
	}
	return out
}

func (d *decoder) str() string {
	i := d.uvarint()
	if i >= uint64(len(d.table)) {
		d.fail()
		return ""
	}
	return d.table[i]
}

func (d *decoder) loc() *ast.Location {
	if d.byte() == 0 {
		return nil
	}
	return d.position()
}

func (d *decoder) position() *ast.Location {
	l := d.locs.new()
	l.File, l.Row, l.Col = d.str(), d.int(), d.int()
	return l
}

func (d *decoder) terms() []*ast.Term {
	n := d.count()
	if d.err != nil {
		return nil
	}
	ts := d.lists.slice(n)
	for i := range ts {
		// Lists (refs, calls, arrays, sets, arguments) never hold a nil.
		if ts[i] = d.term(); ts[i] == nil {
			d.fail()
			return nil
		}
	}
	return ts
}

// maxDepth bounds recursion on corrupt data; compiled rules nest far less.
const maxDepth = 10000

func (d *decoder) term() *ast.Term {
	if d.err != nil {
		return nil
	}
	if d.depth++; d.depth > maxDepth {
		d.fail()
		return nil
	}
	defer func() { d.depth-- }()
	var t *ast.Term
	switch d.byte() {
	case 0:
		return nil
	case 1:
		t = d.nodes.new()
	case 2:
		t = d.nodes.new()
		t.Location = d.position()
	default:
		d.fail()
		return nil
	}
	switch tag := d.byte(); tag {
	case tagNull:
		t.Value = ast.Null{}
	case tagTrue:
		t.Value = ast.Boolean(true)
	case tagFalse:
		t.Value = ast.Boolean(false)
	case tagNumber:
		t.Value = d.value(d.nums, func(s string) ast.Value { return ast.Number(s) })
	case tagString:
		t.Value = d.value(d.strs, func(s string) ast.Value { return ast.String(s) })
	case tagVar:
		t.Value = d.value(d.vars, func(s string) ast.Value { return ast.Var(s) })
	case tagRef:
		t.Value = ast.Ref(d.terms())
	case tagCall:
		t.Value = ast.Call(d.terms())
	case tagArray, tagSet:
		elems := d.terms()
		if d.err != nil {
			return nil
		}
		if tag == tagArray {
			t.Value = ast.NewArray(elems...)
		} else {
			t.Value = ast.NewSet(elems...)
		}
	case tagObject:
		n := d.count()
		pairs := make([][2]*ast.Term, 0, n)
		for range n {
			k := d.term()
			v := d.term()
			if k == nil || v == nil {
				d.fail()
				return nil
			}
			pairs = append(pairs, [2]*ast.Term{k, v})
		}
		t.Value = ast.NewObject(pairs...)
	case tagArrayCompr:
		c := &ast.ArrayComprehension{Term: d.must()}
		c.Body = d.body()
		t.Value = c
	case tagSetCompr:
		c := &ast.SetComprehension{Term: d.must()}
		c.Body = d.body()
		t.Value = c
	case tagObjectCompr:
		c := &ast.ObjectComprehension{Key: d.must()}
		c.Value = d.must()
		c.Body = d.body()
		t.Value = c
	default:
		d.fail()
		return nil
	}
	if d.err != nil {
		return nil
	}
	return t
}

// must reads a term that cannot be absent.
func (d *decoder) must() *ast.Term {
	t := d.term()
	if t == nil {
		d.fail()
	}
	return t
}

func (d *decoder) body() ast.Body {
	n := d.count()
	if d.err != nil {
		return nil
	}
	b := make(ast.Body, n)
	for i := range b {
		b[i] = d.expr()
		if d.err != nil {
			return nil
		}
	}
	return b
}

func (d *decoder) expr() *ast.Expr {
	x := d.exprs.new()
	x.Index, x.Generated, x.Negated, x.Location = d.int(), d.bool(), d.bool(), d.loc()
	switch d.byte() {
	case exprTerm:
		x.Terms = d.must()
	case exprCall:
		x.Terms = d.terms()
	case exprSome:
		s := &ast.SomeDecl{Location: d.loc()}
		s.Symbols = d.terms()
		x.Terms = s
	case exprEvery:
		ev := &ast.Every{Location: d.loc()}
		ev.Key, ev.Value, ev.Domain = d.term(), d.must(), d.must()
		ev.Body = d.body()
		x.Terms = ev
	default:
		d.fail()
		return nil
	}
	if n := d.count(); n > 0 {
		x.With = make([]*ast.With, n)
		for i := range x.With {
			w := &ast.With{Location: d.loc()}
			w.Target = d.must()
			w.Value = d.must()
			x.With[i] = w
		}
	}
	return x
}

func (d *decoder) rule(m *ast.Module) *ast.Rule {
	if d.depth++; d.depth > maxDepth {
		d.fail()
		return nil
	}
	defer func() { d.depth-- }()
	r := &ast.Rule{Default: d.bool(), Location: d.loc(), Module: m}
	h := &ast.Head{Name: ast.Var(d.str()), Location: d.loc(), Assign: d.bool()}
	h.Reference = d.terms()
	h.Args = d.terms()
	h.Key = d.term()
	h.Value = d.term()
	r.Head = h
	r.Body = d.body()
	if d.bool() {
		r.Else = d.rule(m)
	}
	return r
}

// DecodeModules reads what EncodeModules wrote.
func DecodeModules(data []byte) (map[string]*ast.Module, error) {
	d := &decoder{buf: data}
	n := d.count()
	d.table = make([]string, n)
	for i := range d.table {
		d.table[i] = d.text()
	}
	if d.err != nil {
		return nil, d.err
	}
	d.vars = make([]ast.Value, n)
	d.strs = make([]ast.Value, n)
	d.nums = make([]ast.Value, n)
	files := d.count()
	out := make(map[string]*ast.Module, files)
	for range files {
		f := d.str()
		m := &ast.Module{Package: &ast.Package{Location: d.loc()}}
		m.Package.Path = d.terms()
		if n := d.count(); n > 0 {
			m.Imports = make([]*ast.Import, n)
			for i := range m.Imports {
				imp := &ast.Import{Location: d.loc(), Alias: ast.Var(d.str())}
				imp.Path = d.must()
				m.Imports[i] = imp
			}
		}
		m.Rules = make([]*ast.Rule, d.count())
		for i := range m.Rules {
			m.Rules[i] = d.rule(m)
		}
		if d.err != nil {
			return nil, d.err
		}
		m.SetRegoVersion(ast.RegoV1)
		out[f] = m
	}
	if d.err == nil && len(d.buf) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}
