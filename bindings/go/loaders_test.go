package weft

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Missing files unwrap to fs.ErrNotExist (and os.ErrNotExist) from every
// loader, keep their status, and name the path.
func TestMissingFilesUnwrapToErrNotExist(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope-symbol.json")
	_, e1 := LoadPredictor(missing, "", nil)
	_, e2 := LoadPredictorFrom(os.DirFS(dir), "nope-symbol.json", "", nil)
	_, e3 := LoadParams(filepath.Join(dir, "nope-0000.params"))
	_, e4 := LoadParamsFrom(os.DirFS(dir), "nope-0000.params")
	_, e5 := LoadSymbol(missing)
	_, e6 := LoadSymbolFrom(os.DirFS(dir), "nope-symbol.json")
	for i, err := range []error{e1, e2, e3, e4, e5, e6} {
		var werr *Error
		var perr *fs.PathError
		if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, os.ErrNotExist) || !errors.As(err, &werr) ||
			werr.Status != StatusIO || !errors.As(err, &perr) || !IsStatus(err, StatusIO) {
			t.Errorf("loader %d: %v does not unwrap to fs.ErrNotExist with StatusIO", i+1, err)
		}
	}
	// A library failure has no Go cause but a typed status.
	_, err := LoadParamsBytes([]byte("not a params file"))
	var werr *Error
	if !errors.As(err, &werr) || werr.Status == 0 || werr.Unwrap() != nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("bad params: %#v", err)
	}
}

// The fs.FS and io.Reader loaders give the same predictions as LoadPredictor.
func TestLoadersFromFSAndReadersPredictTheSame(t *testing.T) {
	f := loadCNN(t)
	dir := fixtureDir(t)
	inputs := []Input{{Name: "data", Shape: []int64{2, 3, 8, 8}}}
	sym, _ := os.ReadFile(filepath.Join(dir, "cnn-symbol.json"))
	params, _ := os.ReadFile(filepath.Join(dir, "cnn-0000.params"))
	a, err := LoadPredictorFrom(os.DirFS(dir), "cnn-symbol.json", "cnn-0000.params", inputs)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := LoadPredictorReader(bytes.NewReader(sym), bytes.NewReader(params), inputs)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for name, p := range map[string]*Predictor{"fs.FS": a, "io.Reader": b} {
		outs, err := p.Predict(context.Background(), map[string][]byte{"data": asBytes(f.input)})
		if err != nil {
			t.Fatal(err)
		}
		assertClose(t, name, fromBytes[float32](outs[0]), f.output, 1e-4)
	}
	pp, err := LoadParamsReader(bytes.NewReader(params))
	if err != nil || len(pp.Names) != 10 {
		t.Fatalf("LoadParamsReader: %v %v", pp, err)
	}
	pp.Close()
	s, err := LoadSymbolReader(bytes.NewReader(sym))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// The context-taking calls give up when the context ends and work otherwise.
func TestContextCallsStopAtTheirDeadline(t *testing.T) {
	f := loadCNN(t)
	p := f.predictor(t, 2)
	defer p.Close()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.ForwardContext(cancelled); !errors.Is(err, context.Canceled) {
		t.Fatalf("ForwardContext on a cancelled context: %v", err)
	}
	if _, err := p.Predict(cancelled, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Predict on a cancelled context: %v", err)
	}
	if _, err := p.ReshapeContext(cancelled, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReshapeContext on a cancelled context: %v", err)
	}
	if _, err := NewPredictorContext(cancelled, f.symbol, f.params, []Input{{"data", []int64{1, 3, 8, 8}}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("NewPredictorContext on a cancelled context: %v", err)
	}
	ctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	if err := p.SetInput("data", f.input); err != nil {
		t.Fatal(err)
	}
	if err := p.ForwardContext(ctx); err != nil {
		t.Fatal(err)
	}
	out, err := p.Output(0)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "ForwardContext", out, f.output, 1e-4)
	q, err := p.ReshapeContext(ctx, []Input{{Name: "data", Shape: []int64{1, 3, 8, 8}}})
	if err != nil || q.Inputs()[0].Shape[0] != 1 {
		t.Fatalf("ReshapeContext: %v", err)
	}
	q.Close()
	r, err := NewPredictorContext(ctx, f.symbol, f.params, []Input{{"data", []int64{2, 3, 8, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "NewPredictorContext", forward(t, r, f.input), f.output, 1e-4)
	r.Close()
}
