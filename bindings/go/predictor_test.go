package weft

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// cnnFixture is MXNet 1.9.1's exported Gluon CNN with its recorded input
// (2, 3, 8, 8) and inference output (2, 5).
type cnnFixture struct {
	symbol string
	params []byte
	input  []float32
	output []float32
}

func loadCNN(t testing.TB) cnnFixture {
	t.Helper()
	dir := fixtureDir(t)
	sym, err := os.ReadFile(filepath.Join(dir, "cnn-symbol.json"))
	if err != nil {
		t.Fatal(err)
	}
	params, err := os.ReadFile(filepath.Join(dir, "cnn-0000.params"))
	if err != nil {
		t.Fatal(err)
	}
	io := readNPZ(t, filepath.Join(dir, "cnn-io.npz"))
	in, err := io["data"].Float32s()
	if err != nil {
		t.Fatal(err)
	}
	out, err := io["output"].Float32s()
	if err != nil {
		t.Fatal(err)
	}
	return cnnFixture{string(sym), params, in, out}
}

func (f cnnFixture) predictor(t testing.TB, batch int64, opts ...Option) *Predictor {
	t.Helper()
	p, err := NewPredictor(f.symbol, f.params, []Input{{"data", []int64{batch, 3, 8, 8}}}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func forward(t testing.TB, p *Predictor, input []float32) []float32 {
	t.Helper()
	if err := p.SetInput("data", input); err != nil {
		t.Fatal(err)
	}
	if err := p.Forward(); err != nil {
		t.Fatal(err)
	}
	out, err := p.Output(0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPredictorMatchesMXNet(t *testing.T) {
	f := loadCNN(t)
	p := f.predictor(t, 2)
	defer p.Close()
	in := p.Inputs()
	if len(in) != 1 || in[0].Name != "data" || !reflect.DeepEqual(in[0].Shape, []int64{2, 3, 8, 8}) ||
		in[0].DType != Float32 {
		t.Fatalf("inputs %+v", in)
	}
	out := p.Outputs()
	if len(out) != 1 || out[0].Name != "cnn_dense1_fwd_output" || !reflect.DeepEqual(out[0].Shape, []int64{2, 5}) {
		t.Fatalf("outputs %+v", out)
	}
	assertClose(t, "output", forward(t, p, f.input), f.output, 1e-4)
	// A second run over the same predictor gives the same answer.
	assertClose(t, "second output", forward(t, p, f.input), f.output, 1e-4)
}

func TestLoadPredictorFromFilesAndDataInputNames(t *testing.T) {
	dir := fixtureDir(t)
	p, err := LoadPredictor(filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "cnn-0000.params"),
		[]Input{{"data", []int64{2, 3, 8, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f := loadCNN(t)
	assertClose(t, "output", forward(t, p, f.input), f.output, 1e-4)
	names, err := DataInputNames(f.symbol, f.params)
	if err != nil || !reflect.DeepEqual(names, []string{"data"}) {
		t.Fatalf("DataInputNames = %v, %v", names, err)
	}
	if _, err := LoadPredictor(filepath.Join(dir, "nope-symbol.json"), "", nil); !IsStatus(err, StatusIO) {
		t.Fatalf("missing symbol file: %v", err)
	}
}

func TestPredictorReshape(t *testing.T) {
	f := loadCNN(t)
	p := f.predictor(t, 2)
	defer p.Close()
	one, err := p.Reshape([]Input{{"data", []int64{1, 3, 8, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := one.Outputs()[0].Shape; !reflect.DeepEqual(got, []int64{1, 5}) {
		t.Fatalf("reshaped output shape %v", got)
	}
	row := len(f.input) / 2
	assertClose(t, "second image alone", forward(t, one, f.input[row:]), f.output[5:], 1e-4)

	// Batch 4 = the two images twice; the parent may be closed first.
	four, err := p.Reshape([]Input{{"data", []int64{4, 3, 8, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	got := forward(t, four, append(append([]float32{}, f.input...), f.input...))
	assertClose(t, "batch of four", got, append(append([]float32{}, f.output...), f.output...), 1e-4)
	four.Close()
	one.Close()
	if _, err := p.Reshape(nil); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("reshape after Close: %v", err)
	}
}

// Partial outputs: the ReLU and pooling activations; pooling is a 2x2 max with
// stride 2, checked against the ReLU output in Go.
func TestPredictorPartialOutputs(t *testing.T) {
	f := loadCNN(t)
	p := f.predictor(t, 2, WithOutputs("cnn_relu0_fwd_output", "cnn_pool0_fwd"))
	defer p.Close()
	outs := p.Outputs()
	if len(outs) != 2 || !reflect.DeepEqual(outs[0].Shape, []int64{2, 4, 8, 8}) ||
		!reflect.DeepEqual(outs[1].Shape, []int64{2, 4, 4, 4}) {
		t.Fatalf("partial outputs %+v", outs)
	}
	forward(t, p, f.input)
	relu, _ := p.Output(0)
	pool, err := p.Output(1)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float32, 0, len(pool))
	for nc := 0; nc < 8; nc++ {
		plane := relu[nc*64 : (nc+1)*64]
		for y := 0; y < 8; y += 2 {
			for x := 0; x < 8; x += 2 {
				m := plane[y*8+x]
				for _, v := range []float32{plane[y*8+x+1], plane[(y+1)*8+x], plane[(y+1)*8+x+1]} {
					if v > m {
						m = v
					}
				}
				want = append(want, m)
			}
		}
	}
	for _, v := range relu {
		if v < 0 {
			t.Fatalf("ReLU output has %g", v)
		}
	}
	assertClose(t, "pool", pool, want, 1e-6)

	if _, err := NewPredictor(f.symbol, f.params, []Input{{"data", []int64{2, 3, 8, 8}}},
		WithOutputs("no_such_layer_output")); err == nil || !strings.Contains(err.Error(), "no_such_layer_output") {
		t.Fatalf("unknown partial output: %v", err)
	}
}

func TestPredictorErrorsNameTheProblem(t *testing.T) {
	f := loadCNN(t)
	cases := []struct {
		name   string
		inputs []Input
		params []byte
		want   string
	}{
		{"channels differ from the weights", []Input{{"data", []int64{2, 4, 8, 8}}}, f.params, "cnn_conv0_weight"},
		{"a data input that is not in the graph", []Input{{"pixels", []int64{2, 3, 8, 8}}}, f.params, "pixels"},
		{"no parameters", []Input{{"data", []int64{2, 3, 8, 8}}}, nil, "cnn_conv0_weight"},
	}
	for _, c := range cases {
		_, err := NewPredictor(f.symbol, c.params, c.inputs)
		var e *Error
		if err == nil || !strings.Contains(err.Error(), c.want) || !errorsAs(err, &e) || e.Status == 0 {
			t.Errorf("%s: got %v, want an *Error naming %q", c.name, err, c.want)
		}
	}
	if _, err := NewPredictor("{", f.params, []Input{{"data", []int64{1, 3, 8, 8}}}); err == nil {
		t.Error("bad symbol JSON: no error")
	}
	if _, err := NewPredictor(f.symbol, f.params, nil); err == nil {
		t.Error("no inputs: no error")
	}
	p := f.predictor(t, 2)
	defer p.Close()
	if err := p.SetInput("data", make([]float32, 10)); err == nil || !strings.Contains(err.Error(), "data") {
		t.Errorf("10 floats for 384: %v", err)
	}
	if err := p.SetInput("label", make([]float32, 10)); err == nil || !strings.Contains(err.Error(), "label") {
		t.Errorf("unknown input: %v", err)
	}
	if err := SetInputOf(p, "data", make([]int32, 384)); !IsStatus(err, StatusDType) {
		t.Errorf("int32 data for a float32 input: %v", err)
	}
	if _, err := p.Output(3); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("output 3 of 1: %v", err)
	}
}

// Many goroutines share a pool of 3 predictors; every answer is MXNet's.
func TestPoolConcurrentUse(t *testing.T) {
	f := loadCNN(t)
	pool, err := NewPool(f.predictor(t, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				err := pool.Do(context.Background(), func(p *Predictor) error {
					if err := p.SetInput("data", f.input); err != nil {
						return err
					}
					if err := p.Forward(); err != nil {
						return err
					}
					out, err := p.Output(0)
					if err != nil {
						return err
					}
					for j := range out {
						if d := out[j] - f.output[j]; d > 1e-4 || d < -1e-4 {
							errs <- "a pooled predictor gave a different answer"
							return nil
						}
					}
					return nil
				})
				if err != nil {
					errs <- err.Error()
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var held []*Predictor
	for i := 0; i < pool.Size(); i++ {
		p, _ := pool.Get(ctx)
		held = append(held, p)
	}
	cancel()
	if _, err := pool.Get(ctx); err != context.Canceled {
		t.Fatalf("Get on an exhausted pool with a cancelled context: %v", err)
	}
	for _, p := range held {
		pool.Put(p)
	}
	if _, err := NewPool(f.predictor(t, 2), 0); err == nil {
		t.Fatal("pool of 0: no error")
	}
}

// One predictor per goroutine, created and used concurrently.
func TestPredictorPerGoroutine(t *testing.T) {
	f := loadCNN(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := NewPredictor(f.symbol, f.params, []Input{{"data", []int64{2, 3, 8, 8}}})
			if err != nil {
				errs <- err
				return
			}
			defer p.Close()
			for i := 0; i < 5; i++ {
				if err := p.SetInput("data", f.input); err != nil {
					errs <- err
					return
				}
				if err := p.Forward(); err != nil {
					errs <- err
					return
				}
				out, err := p.Output(0)
				if err != nil {
					errs <- err
					return
				}
				if d := out[0] - f.output[0]; d > 1e-4 || d < -1e-4 {
					errs <- &Error{Func: "test", Message: "different answer"}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// Predictors dropped without Close are freed by finalizers: the memory their
// activations took comes back.
func TestPredictorFinalizerFreesMemory(t *testing.T) {
	f := loadCNN(t)
	before := bytesInUse(t)
	for i := 0; i < 20; i++ {
		p := f.predictor(t, 64) // 64 images: about 1 MB of activations each
		forward(t, p, make([]float32, 64*3*8*8))
	}
	grown := bytesInUse(t) - before
	if grown < 20*64*4*8*8*4 {
		t.Fatalf("20 live predictors hold only %d bytes", grown)
	}
	for i := 0; i < 10 && bytesInUse(t)-before > grown/4; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if left := bytesInUse(t) - before; left > grown/4 {
		t.Fatalf("finalizers freed too little: %d of %d bytes still in use", left, grown)
	}
}

// ForwardOnCaller gives Forward's answer, also from goroutines running copies
// that share one set of parameters at once (weft-serve's use), at any cap.
func TestPredictorForwardOnCaller(t *testing.T) {
	f := loadCNN(t)
	base := f.predictor(t, 2)
	defer base.Close()
	if err := base.ForwardOnCaller(-1); !IsStatus(err, StatusInvalidArgument) ||
		!strings.Contains(err.Error(), "maxThreads is -1") {
		t.Fatalf("ForwardOnCaller(-1): %v", err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			p, err := base.Reshape(nil)
			if err != nil {
				errs <- err.Error()
				return
			}
			defer p.Close()
			for i := 0; i < 20; i++ {
				if err := p.SetInput("data", f.input); err != nil {
					errs <- err.Error()
					return
				}
				if err := p.ForwardOnCaller(g % 3); err != nil { // 0: the kernel team size
					errs <- err.Error()
					return
				}
				out, err := p.Output(0)
				if err != nil {
					errs <- err.Error()
					return
				}
				for j := range out {
					if d := out[j] - f.output[j]; d > 1e-4 || d < -1e-4 {
						errs <- "ForwardOnCaller gave a different answer"
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	// Forward after ForwardOnCaller on the same predictor (the engine's worker again).
	assertClose(t, "Forward after ForwardOnCaller", forward(t, base, f.input), f.output, 1e-4)
}
