package weft

import (
	"strings"
	"testing"
)

// Issue 35 point 5: a string holding a NUL is refused before it crosses the C
// ABI (Note [C strings]), with the library's message, instead of being cut
// short there ("da\x00ta" would have set the input "da").
func TestNULInStringsIsRefused(t *testing.T) {
	f := loadCNN(t)
	wantNUL := func(what string, err error, name string) {
		t.Helper()
		if !IsStatus(err, StatusInvalidArgument) || !strings.Contains(err.Error(), name) ||
			!strings.Contains(err.Error(), "holds a NUL byte at offset") {
			t.Errorf("%s: got %v, want an invalid-argument error naming %q and the NUL", what, err, name)
		}
	}
	_, err := NewPredictor(f.symbol, f.params, []Input{{"da\x00ta", []int64{2, 3, 8, 8}}})
	wantNUL("input name", err, "an input name")
	_, err = NewPredictor(f.symbol+"\x00junk", f.params, []Input{{"data", []int64{2, 3, 8, 8}}})
	wantNUL("symbol JSON", err, "the symbol JSON")
	_, err = NewPredictor(f.symbol, f.params, []Input{{"data", []int64{2, 3, 8, 8}}}, WithOutputs("out\x00put"))
	wantNUL("output name", err, "an output name")
	_, err = SymbolFromJSON(f.symbol + "\x00")
	wantNUL("SymbolFromJSON", err, "the symbol JSON")

	p := f.predictor(t, 2)
	defer p.Close()
	err = p.SetInput("data\x00", make([]float32, 384))
	wantNUL("SetInput", err, "the input name")
	_, err = p.Reshape([]Input{{"d\x00ata", []int64{1, 3, 8, 8}}})
	wantNUL("Reshape", err, "an input name")
	// The predictor is still usable with good names.
	if out := forward(t, p, f.input); len(out) != len(f.output) {
		t.Fatalf("output of %d values, want %d", len(out), len(f.output))
	}
}
