package mock

import (
	"os"
	"strings"
	"testing"
)

// Every problem type of the mock links to its section of docs/mock.md:
// the page has an anchor for each kind.
func TestProblemTypesDocumented(t *testing.T) {
	page, err := os.ReadFile("../docs/mock.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems.Titles) < 15 {
		t.Fatalf("the catalog has %d kinds", len(problems.Titles))
	}
	for kind := range problems.Titles {
		if !strings.Contains(string(page), `<a id="`+kind+`"></a>`) {
			t.Errorf("docs/mock.md has no anchor for the problem type %s (%s%s)", kind, ProblemTypes, kind)
		}
	}
}
