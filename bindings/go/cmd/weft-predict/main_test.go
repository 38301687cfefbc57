package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/internal/fixtures"
	"weft.dev/weft/internal/npy"
)

// fixtureDir finds the MXNet 1.9.1 fixtures with no set-up (internal/fixtures).
func fixtureDir(t *testing.T) string { return fixtures.Dir(t) }

// The CLI prints MXNet's recorded output for the fixture CNN, and says what is
// wrong with bad arguments.
func TestWeftPredictPrintsMXNetOutput(t *testing.T) {
	dir := fixtureDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, "cnn-io.npz"))
	if err != nil {
		t.Fatal(err)
	}
	arrays, err := npy.ReadNPZ(raw)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "in.bin")
	os.WriteFile(in, arrays["data"].Data, 0o644)
	sym, params := filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "cnn-0000.params")
	var out bytes.Buffer
	if err := run(&out, sym, params, in, "2,3,8,8", "data", "float32"); err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Outputs []struct {
			Name  string
			Shape []int64
			Data  []float64
		}
	}
	if err := json.Unmarshal(out.Bytes(), &reply); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	want, _ := arrays["output"].Float32s()
	if len(reply.Outputs) != 1 || reply.Outputs[0].Name != "cnn_dense1_fwd_output" || len(reply.Outputs[0].Data) != 10 {
		t.Fatalf("reply %+v", reply)
	}
	for i, v := range reply.Outputs[0].Data {
		if d := v - float64(want[i]); d > 1e-4 || d < -1e-4 {
			t.Fatalf("output[%d] = %g, want %g", i, v, want[i])
		}
	}
	bad := []struct{ shape, dtype, input, want string }{
		{"2,3,8", "float32", in, "4-D"}, // a 3-d input cannot feed the convolution
		{"2,3,8,8", "float64", in, "float64"},
		{"2,x", "float32", in, "-shape"},
		{"1,3,8,8", "float32", in, "data"}, // twice the bytes one image needs
		{"2,3,8,8", "float32", filepath.Join(t.TempDir(), "missing.bin"), "missing.bin"},
		{"2,3,8,8", "complex64", in, "complex64"},
	}
	for _, c := range bad {
		err := run(&out, sym, params, c.input, c.shape, "data", c.dtype)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-shape %s -dtype %s: got %v, want an error naming %q", c.shape, c.dtype, err, c.want)
		}
	}
}

// -info prints the metadata weft-serve gives, from the files alone.
func TestWeftPredictInfo(t *testing.T) {
	dir := fixtureDir(t)
	sym, params := filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "cnn-0000.params")
	var out bytes.Buffer
	if err := info(&out, sym, params, "", "data"); err != nil {
		t.Fatal(err)
	}
	want := `{"complete":true,"inputs":[{"name":"data","datatype":"float32","shape":[-1,3,8,8]}],` +
		`"outputs":[{"name":"cnn_dense1_fwd_output","datatype":"float32","shape":[-1,5]}]}` + "\n"
	if out.String() != want {
		t.Fatalf("info %s, want %s", out.String(), want)
	}
	if err := info(&out, sym, params, "2,x", "data"); err == nil || !strings.Contains(err.Error(), "2,x") {
		t.Fatalf("bad -shape: %v", err)
	}
	if err := info(&out, sym, filepath.Join(dir, "missing.params"), "", "data"); err == nil {
		t.Fatal("a missing params file was accepted")
	}
}
