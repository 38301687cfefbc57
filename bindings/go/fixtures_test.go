package weft

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/internal/fixtures"
	"weft.dev/weft/internal/npy"
)

// fixtureDir finds ../shared/fixtures beside the repository root (files
// written by MXNet 1.9.1) with no set-up; see internal/fixtures.
func fixtureDir(t testing.TB) string { return fixtures.Dir(t) }

// In CI the fixtures must be there: without them this fails, not skips.
func TestFixturesAreFound(t *testing.T) {
	dir := fixtureDir(t)
	if _, err := os.Stat(filepath.Join(dir, "cnn-symbol.json")); err != nil {
		t.Fatal(err)
	}
}

func readNPZ(t testing.TB, path string) map[string]*npy.Array {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	arrays, err := npy.ReadNPZ(b)
	if err != nil {
		t.Fatal(err)
	}
	return arrays
}

func assertClose(t testing.TB, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		d := float64(got[i] - want[i])
		if d > tol || d < -tol || got[i] != got[i] {
			t.Fatalf("%s[%d] = %g, want %g (tolerance %g)", what, i, got[i], want[i], tol)
		}
	}
}

func errorsAs(err error, target **Error) bool { return errors.As(err, target) }
