package progcache

// A record is an entry's data other than modules: texts and unsigned
// numbers in the codec's encoding (package policy stores the rules'
// metadata so).

// RecordWriter writes a record.
type RecordWriter struct{ e encoder }

// Text writes a string.
func (w *RecordWriter) Text(s string) { w.e.text(s) }

// Texts writes a list of strings; nil and empty lists stay apart.
func (w *RecordWriter) Texts(ss []string) { w.e.texts(ss) }

// Uint writes an unsigned number.
func (w *RecordWriter) Uint(v uint64) { w.e.uvarint(v) }

// Bytes is what was written.
func (w *RecordWriter) Bytes() []byte { return w.e.buf }

// RecordReader reads what a RecordWriter wrote, in the same order. Past
// an error every read returns a zero value, and Done is false.
type RecordReader struct{ d decoder }

// NewRecordReader reads data.
func NewRecordReader(data []byte) *RecordReader { return &RecordReader{d: decoder{buf: data}} }

// Text reads a string.
func (r *RecordReader) Text() string { return r.d.text() }

// Texts reads a list of strings.
func (r *RecordReader) Texts() []string { return r.d.texts() }

// Uint reads an unsigned number.
func (r *RecordReader) Uint() uint64 { return r.d.uvarint() }

// Count reads a length, checked against the data left.
func (r *RecordReader) Count() int { return r.d.count() }

// Fail marks the record as malformed.
func (r *RecordReader) Fail() { r.d.fail() }

// Done tells whether everything read well and nothing is left.
func (r *RecordReader) Done() bool { return r.d.err == nil && len(r.d.buf) == 0 }
