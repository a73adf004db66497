package insightsd

import (
	"maps"
	"slices"
	"testing"
)

// The members whose time is placed are every time.Time of a submission,
// found in its type: a time added to it later is placed too.
func TestTimeFields(t *testing.T) {
	got := slices.Sorted(maps.Keys(timeFields()))
	want := []string{"reports.specMetadata.generatedAt", "start", "stop"}
	if !slices.Equal(got, want) {
		t.Errorf("time members %q, want %q", got, want)
	}
}

// A long value is named by its kind, not quoted whole.
func TestBadTimeLongValue(t *testing.T) {
	body := `{"id": "x", "stop": {"a": "0123456789012345678901234567890123456789012345678901234567890123456789"}}`
	field, off, err := badTime([]byte(body))
	if field != "stop" || off != 20 || err == nil || err.Error() != "stop is a JSON object, where an RFC 3339 time goes" {
		t.Errorf("badTime = %q, %d, %v", field, off, err)
	}
	if _, _, err := badTime([]byte(`{"start": "2026-11-27T10:00:00Z", "stop": null}`)); err != nil {
		t.Errorf("times that read: %v", err)
	}
}
