package lazyregexp

import "testing"

// The expression is compiled once and matches as regexp would.
func TestNew(t *testing.T) {
	re := New(`^a+b$`)
	if first, again := re(), re(); first != again {
		t.Fatal("a second call compiled the expression again")
	}
	if !re().MatchString("aab") || re().MatchString("ab c") {
		t.Errorf("%s matches wrongly", re())
	}
}

// An invalid expression panics on first use, not when it is declared.
func TestNewInvalidPanicsOnUse(t *testing.T) {
	re := New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression did not panic on use")
		}
	}()
	re()
}
