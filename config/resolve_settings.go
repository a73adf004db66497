package config

import (
	"os"
	"path/filepath"
	"time"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// settingsPatch holds the settings a block writes; nil fields are unset.
type settingsPatch struct {
	resiliency                            *Resiliency
	timeout, maxRetryDelay, delay, startT *time.Duration
	maxAttempts                           *int
	generative, lenient                   *bool
}

func (p settingsPatch) apply(s *Settings) {
	set(&s.Test.Resiliency, p.resiliency)
	set(&s.Test.Timeout, p.timeout)
	set(&s.Test.MaxAttempts, p.maxAttempts)
	set(&s.Test.MaxRetryDelay, p.maxRetryDelay)
	set(&s.Mock.Delay, p.delay)
	set(&s.Mock.Generative, p.generative)
	set(&s.Mock.Lenient, p.lenient)
	set(&s.Mock.StartTimeout, p.startT)
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// settings reads a settings block; global is whether it is the file's own
// (specgate.settings), where alone strictMode may be.
func (r *resolver) settings(n *spec.Node, ptr string, global bool) settingsPatch {
	var p settingsPatch
	n, ptr, _, ok := r.deref(n, ptr, "settings")
	if !ok || !r.object(n, ptr, "settings", settingsKeys...) {
		return p
	}
	if f := n.Field("strictMode"); f != nil {
		switch {
		case !global:
			r.errorAt(f.KeyRange.Start, join(ptr, "strictMode"), "strictMode applies to the whole file: set it in specgate.settings")
		case f.Value.Kind != spec.Bool:
			r.errorf(f.Value, join(ptr, "strictMode"), "strictMode must be true or false written as such (it decides how templates expand), found %s", found(f.Value))
		}
	}
	ms := func(n *spec.Node, ptr, what string) *time.Duration {
		v, ok := r.integer(n, ptr, what)
		if !ok {
			return nil
		}
		d := time.Duration(v) * time.Millisecond
		return &d
	}
	if t := n.Get("test"); t != nil {
		tp := join(ptr, "test")
		if r.object(t, tp, "test settings", testKeys...) {
			if rt := t.Get("resiliencyTests"); rt != nil {
				rp := join(tp, "resiliencyTests")
				if r.object(rt, rp, "resiliencyTests", "enable") && r.require(rt, rp, "resiliencyTests", "enable") {
					if v, ok := r.enum(rt.Get("enable"), join(rp, "enable"), "resiliencyTests.enable", string(ResiliencyNone), string(ResiliencyPositive), string(ResiliencyAll)); ok {
						res := Resiliency(v)
						p.resiliency = &res
					}
				}
			}
			if v := t.Get("timeoutInMilliseconds"); v != nil {
				p.timeout = ms(v, join(tp, "timeoutInMilliseconds"), "timeoutInMilliseconds")
			}
			if rt := t.Get("retry"); rt != nil {
				rp := join(tp, "retry")
				if r.object(rt, rp, "retry", "maxAttempts", "maxDelayInMilliseconds") {
					if v := rt.Get("maxAttempts"); v != nil {
						if a, ok := r.integer(v, join(rp, "maxAttempts"), "maxAttempts"); ok {
							if a < 1 {
								r.errorf(v, join(rp, "maxAttempts"), "maxAttempts must be at least 1, found %d", a)
							} else {
								p.maxAttempts = &a
							}
						}
					}
					if v := rt.Get("maxDelayInMilliseconds"); v != nil {
						p.maxRetryDelay = ms(v, join(rp, "maxDelayInMilliseconds"), "maxDelayInMilliseconds")
					}
				}
			}
		}
	}
	if m := n.Get("mock"); m != nil {
		mp := join(ptr, "mock")
		if r.object(m, mp, "mock settings", mockKeys...) {
			if v := m.Get("delayInMilliseconds"); v != nil {
				p.delay = ms(v, join(mp, "delayInMilliseconds"), "delayInMilliseconds")
			}
			if v := m.Get("startTimeoutInMilliseconds"); v != nil {
				p.startT = ms(v, join(mp, "startTimeoutInMilliseconds"), "startTimeoutInMilliseconds")
			}
			for _, k := range []string{"generative", "lenient"} {
				if v := m.Get(k); v != nil {
					if b, ok := r.boolean(v, join(mp, k), k); ok {
						if k == "generative" {
							p.generative = &b
						} else {
							p.lenient = &b
						}
					}
				}
			}
		}
	}
	return p
}

// dataPatch are example directories and a dictionary as written.
type dataPatch struct {
	examples []string
	dict     map[string]any
	dictFile string
}

func (r *resolver) data(n *spec.Node, ptr string) dataPatch {
	var d dataPatch
	if !r.object(n, ptr, "data", "examples", "dictionary") {
		return d
	}
	if ex := n.Get("examples"); ex != nil {
		r.list(ex, join(ptr, "examples"), "examples", func(_ int, it *spec.Node, p string) {
			d.examples = append(d.examples, r.exampleDirs(it, p)...)
		})
	}
	if dict := n.Get("dictionary"); dict != nil {
		p := join(ptr, "dictionary")
		switch dict.Kind {
		case spec.Object:
			d.dict, _ = r.value(dict, p).(map[string]any)
		case spec.String:
			if s, ok := r.str(dict, p, "dictionary"); ok {
				d.dictFile = r.abs(s)
				d.dict = r.dictionaryFile(dict, p, s, d.dictFile)
			}
		default:
			r.errorf(dict, p, "dictionary must be a mapping of values or the path of a JSON or YAML file, found %s", found(dict))
		}
	}
	return d
}

// dictionaryFile reads a dictionary file. Its strings are data, read as
// written: templates are a notation of the configuration, not of its data.
func (r *resolver) dictionaryFile(at *spec.Node, ptr, written, file string) map[string]any {
	data, err := os.ReadFile(file)
	if err != nil {
		r.errorf(at, ptr, "dictionary %s cannot be read: %v", written, unwrapPath(err))
		return nil
	}
	root, err := spec.Parse(filepath.Join(filepath.Dir(r.file), filepath.FromSlash(written)), data, spec.DefaultLimits())
	if err != nil {
		if se, ok := err.(*spec.Error); ok {
			r.errs = append(r.errs, se)
		} else {
			r.errorf(at, ptr, "dictionary %s: %v", written, err)
		}
		return nil
	}
	if root.Kind != spec.Object {
		r.errorf(at, ptr, "dictionary %s must hold a mapping, found %s", written, found(root))
		return nil
	}
	m, _ := schema.JSONValue(root).(map[string]any)
	return m
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// exampleDirs reads {directories: [...]} (or a $ref to one under
// components.examples) as absolute folders; a missing folder is a warning.
func (r *resolver) exampleDirs(n *spec.Node, ptr string) []string {
	n, ptr, _, ok := r.deref(n, ptr, "examples")
	if !ok || !r.object(n, ptr, "examples", "directories") || !r.require(n, ptr, "the examples entry", "directories") {
		return nil
	}
	var out []string
	r.list(n.Get("directories"), join(ptr, "directories"), "directories", func(_ int, it *spec.Node, p string) {
		s, ok := r.str(it, p, "each directory")
		if !ok {
			return
		}
		dir := r.abs(s)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			r.warnf(it, p, "examples directory %s does not exist", s)
		}
		out = append(out, dir)
	})
	return out
}

func (r *resolver) report(n *spec.Node, ptr string, rep *Report) {
	if !r.object(n, ptr, "specgate.report", "dir", "formats") {
		return
	}
	if d := n.Get("dir"); d != nil {
		if s, ok := r.str(d, join(ptr, "dir"), "dir"); ok {
			rep.Dir = r.abs(s)
		}
	}
	if f := n.Get("formats"); f != nil {
		var formats []string
		r.list(f, join(ptr, "formats"), "formats", func(_ int, it *spec.Node, p string) {
			if s, ok := r.enum(it, p, "each format", ReportFormats...); ok {
				formats = append(formats, s)
			}
		})
		rep.Formats = formats
	}
}
