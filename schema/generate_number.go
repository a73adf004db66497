package schema

import (
	"encoding/json"
	"math/big"
)

// number generates an integer or a number within the view's bounds.
func (gn *generation) number(v *view, integer bool) (any, bool) {
	rng := gn.g.rng
	lo, hi := v.min, v.max
	// A window where bounds leave one open: realistic small numbers.
	const window = 100
	switch {
	case lo == nil && hi == nil:
		lo, hi = big.NewRat(1, 1), big.NewRat(window, 1)
	case lo == nil:
		lo = new(big.Rat).Sub(hi, big.NewRat(window, 1))
		if hi.Sign() > 0 {
			lo = new(big.Rat)
		}
	case hi == nil:
		hi = new(big.Rat).Add(lo, big.NewRat(window, 1))
	}
	if v.fmtMin != nil && lo.Cmp(v.fmtMin) < 0 {
		lo = v.fmtMin
	}
	if v.fmtMax != nil && hi.Cmp(v.fmtMax) > 0 {
		hi = v.fmtMax
	}
	step := v.multipleOf
	if step == nil {
		if integer {
			step = big.NewRat(1, 1)
		} else {
			step = big.NewRat(1, 100)
		}
	} else if integer && !step.IsInt() {
		step = lcm(step, big.NewRat(1, 1))
	}
	// k·step within [lo, hi], exclusive ends moved in.
	kLo := ceilRat(new(big.Rat).Quo(lo, step))
	kHi := floorRat(new(big.Rat).Quo(hi, step))
	if v.exMin && new(big.Rat).Mul(new(big.Rat).SetInt(kLo), step).Cmp(lo) == 0 {
		kLo.Add(kLo, big.NewInt(1))
	}
	if v.exMax && new(big.Rat).Mul(new(big.Rat).SetInt(kHi), step).Cmp(hi) == 0 {
		kHi.Sub(kHi, big.NewInt(1))
	}
	if kLo.Cmp(kHi) > 0 {
		if integer || v.multipleOf != nil {
			return nil, false
		}
		// A range narrower than the step: its middle.
		mid := new(big.Rat).Add(lo, hi)
		mid.Quo(mid, big.NewRat(2, 1))
		return ratNumber(mid), true
	}
	span := new(big.Int).Sub(kHi, kLo)
	k := new(big.Int).Set(kLo)
	if span.IsInt64() && span.Int64() < 1<<62 {
		k.Add(k, big.NewInt(rng.Int64N(span.Int64()+1)))
	} else {
		k.Add(k, big.NewInt(rng.Int64N(1000)))
	}
	x := new(big.Rat).Mul(new(big.Rat).SetInt(k), step)
	return ratNumber(x), true
}

func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func floorRat(r *big.Rat) *big.Int {
	q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q
}

// ratNumber writes an exact rational as a JSON number: exactly where it
// has a finite decimal expansion.
func ratNumber(r *big.Rat) json.Number {
	if r.IsInt() {
		return json.Number(r.Num().String())
	}
	if prec, exact := r.FloatPrec(); exact {
		return json.Number(r.FloatString(prec))
	}
	return json.Number(r.FloatString(12))
}
