package weft

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParamsSaveLoadDictAndList(t *testing.T) {
	w, _ := FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := FromSlice([]int64{7, 8}, 2)
	path := filepath.Join(t.TempDir(), "m-0001.params")
	if err := SaveParams(path, []*NDArray{w, b}, []string{"arg:w", "aux:b"}); err != nil {
		t.Fatal(err)
	}
	p, err := LoadParams(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !reflect.DeepEqual(p.Names, []string{"arg:w", "aux:b"}) {
		t.Fatalf("names %v", p.Names)
	}
	gotW, _ := ToSlice[float32](p.Lookup("arg:w"))
	gotB, _ := ToSlice[int64](p.Lookup("aux:b"))
	if !reflect.DeepEqual(gotW, []float32{1, 2, 3, 4, 5, 6}) || !reflect.DeepEqual(gotB, []int64{7, 8}) ||
		!reflect.DeepEqual(p.Lookup("arg:w").Shape(), []int64{2, 3}) {
		t.Fatalf("loaded %v %v", gotW, gotB)
	}

	list, err := SaveParamsBytes([]*NDArray{w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := LoadParamsBytes(list)
	if err != nil {
		t.Fatal(err)
	}
	if lp.Names != nil || len(lp.Arrays) != 1 {
		t.Fatalf("a list file loaded as names %v, %d arrays", lp.Names, len(lp.Arrays))
	}
	if _, err := SaveParamsBytes([]*NDArray{w}, []string{"a", "b"}); err == nil {
		t.Fatal("two names for one array: no error")
	}
}

func TestParamsBadFileIsAnIOError(t *testing.T) {
	_, err := LoadParamsBytes([]byte("certainly not a params file"))
	if !IsStatus(err, StatusIO) && !IsStatus(err, StatusInvalidArgument) {
		t.Fatalf("garbage params: %v", err)
	}
	if err == nil || len(err.Error()) < 20 {
		t.Fatalf("no useful message: %v", err)
	}
	if _, err := LoadParams(filepath.Join(t.TempDir(), "missing.params")); !IsStatus(err, StatusIO) {
		t.Fatalf("missing file: %v", err)
	}
}

// MXNet 1.9.1's dict file loads with its names and values, and saving the same
// arrays gives the same bytes.
func TestParamsMXNetFixture(t *testing.T) {
	dir := fixtureDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, "nd_dict.params"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadParamsBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	want := []string{"arg:fc_weight", "aux:bn_moving_mean", "name with spaces/ü"}
	if !reflect.DeepEqual(p.Names, want) {
		t.Fatalf("names %q, want %q", p.Names, want)
	}
	expected := readNPZ(t, filepath.Join(dir, "nd_dict.npz"))
	for i, a := range p.Arrays {
		exp := expected["k"+string(rune('0'+i))]
		got, err := a.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Shape(), exp.Shape) || !bytes.Equal(got, exp.Data) {
			t.Fatalf("%s: shape %v (want %v) or data differ", p.Names[i], a.Shape(), exp.Shape)
		}
	}
	again, err := SaveParamsBytes(p.Arrays, p.Names)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, raw) {
		t.Fatalf("re-saved file differs from MXNet's (%d vs %d bytes)", len(again), len(raw))
	}
}
