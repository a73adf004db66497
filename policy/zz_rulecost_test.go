package policy

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/spec"
)

func TestZZRuleCost(t *testing.T) {
	file := os.Getenv("ZZSPEC")
	if file == "" {
		t.Skip()
	}
	ctx := context.Background()
	reg, err := LoadFS(rules.FS, ".", true, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	in := Input(doc)
	t.Logf("input %v", time.Since(t0))
	type rc struct {
		id string
		d  time.Duration
		n  int
	}
	var out []rc
	var total time.Duration
	for _, r := range reg.Rules {
		if only := os.Getenv("ZZRULE"); only != "" && only != r.ID {
			continue
		}
		if !r.AppliesTo(doc.FormatTags()) {
			continue
		}
		e, err := Compile(ctx, []*Rule{r}, reg.Libs, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		vs, err := e.Eval(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		d := time.Since(t0)
		total += d
		out = append(out, rc{r.ID, d, len(vs)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].d > out[j].d })
	s := ""
	for _, o := range out[:min(40, len(out))] {
		s += fmt.Sprintf("%-45s %8.1fms %d\n", o.id, float64(o.d.Microseconds())/1000, o.n)
	}
	t.Logf("total %v\n%s", total, s)
}
