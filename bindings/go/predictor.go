package weft

// #include <stdlib.h>
// #include <weft/c_predict_api.h>
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

// Input names a data input of a graph and the shape to bind it at.
type Input struct {
	Name  string
	Shape []int64
}

// TensorInfo describes an input or output of a Predictor.
type TensorInfo struct {
	Name  string  `json:"name"`
	Shape []int64 `json:"shape"`
	DType DType   `json:"-"`
}

// Option changes how a Predictor is created.
type Option func(*predictorOptions)

type predictorOptions struct {
	device  Device
	outputs []string
}

// WithDevice runs the predictor on dev (default CPU).
func WithDevice(dev Device) Option { return func(o *predictorOptions) { o.device = dev } }

// WithOutputs makes a partial predictor whose outputs are the named internal
// entries ("fc1_output", as Symbol.InternalOutputs lists them) or node names;
// only what they need is computed (feature extraction).
func WithOutputs(names ...string) Option {
	return func(o *predictorOptions) { o.outputs = append([]string(nil), names...) }
}

// Predictor runs a model in inference mode (c_predict_api.h). Its methods are
// serialised by a mutex: use one Predictor per goroutine, or a Pool, to run
// predictions in parallel.
type Predictor struct {
	mu      sync.Mutex
	h       *C.weft_predictor
	inputs  []TensorInfo
	outputs []TensorInfo
}

// NewPredictor creates a predictor from symbol JSON text and the bytes of a
// .params file (nil when the graph has no parameters). inputs are the graph's
// data inputs (the arguments that are not parameters) with their shapes.
func NewPredictor(symbolJSON string, params []byte, inputs []Input, opts ...Option) (*Predictor, error) {
	o := predictorOptions{device: CPU}
	for _, opt := range opts {
		opt(&o)
	}
	if len(inputs) == 0 {
		return nil, argError("NewPredictor", "no data inputs given (e.g. {Name: \"data\", Shape: ...})")
	}
	names, indptr, dims, err := csrShapes(inputs)
	if err != nil {
		return nil, err
	}
	defer names.free()
	csym, err := cString("NewPredictor", "the symbol JSON", symbolJSON)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(csym))
	var h *C.weft_predictor
	if o.outputs == nil {
		err = call("weft_pred_create", func() C.int {
			return C.weft_pred_create(csym, bytesPtr(params), C.size_t(len(params)), C.int(o.device.Type),
				C.int(o.device.ID), C.int(len(inputs)), names.ptr(), int64Ptr(indptr), int64Ptr(dims), &h)
		})
	} else {
		if len(o.outputs) == 0 {
			return nil, argError("NewPredictor", "WithOutputs needs at least one output name")
		}
		var outs cStrings
		if outs, err = newCStrings("NewPredictor", "an output name", o.outputs); err != nil {
			return nil, err
		}
		defer outs.free()
		err = call("weft_pred_create_partial", func() C.int {
			return C.weft_pred_create_partial(csym, bytesPtr(params), C.size_t(len(params)),
				C.int(o.device.Type), C.int(o.device.ID), C.int(len(inputs)), names.ptr(), int64Ptr(indptr),
				int64Ptr(dims), C.int(len(o.outputs)), outs.ptr(), &h)
		})
	}
	if err != nil {
		return nil, err
	}
	return wrapPredictor(h)
}

// LoadPredictor creates a predictor from a prefix-symbol.json and a
// prefix-NNNN.params file.
func LoadPredictor(symbolPath, paramsPath string, inputs []Input, opts ...Option) (*Predictor, error) {
	sym, err := os.ReadFile(symbolPath)
	if err != nil {
		return nil, ioError("LoadPredictor", err)
	}
	params, err := os.ReadFile(paramsPath)
	if err != nil {
		return nil, ioError("LoadPredictor", err)
	}
	return NewPredictor(string(sym), params, inputs, opts...)
}

// csrShapes lays out input names and shapes as the predict API wants them.
func csrShapes(inputs []Input) (cStrings, []int64, []int64, error) {
	names := make([]string, len(inputs))
	indptr := make([]int64, 1, len(inputs)+1)
	var dims []int64
	for i, in := range inputs {
		names[i] = in.Name
		dims = append(dims, in.Shape...)
		indptr = append(indptr, int64(len(dims)))
	}
	if len(dims) == 0 { // every input a scalar: the C side still wants a pointer
		dims = []int64{0}
	}
	cnames, err := newCStrings("NewPredictor", "an input name", names)
	return cnames, indptr, dims, err
}

// wrapPredictor takes ownership of h and caches its inputs and outputs (fixed
// for its lifetime).
func wrapPredictor(h *C.weft_predictor) (*Predictor, error) {
	p := &Predictor{h: h}
	if err := onThread(func() error { return p.describe() }); err != nil {
		C.weft_pred_free(h)
		return nil, err
	}
	runtime.SetFinalizer(p, (*Predictor).Close)
	return p, nil
}

// tensorSide is one side (inputs or outputs) of the predict API's describing
// calls, so both sides are read by one loop.
type tensorSide struct {
	kind  string // "input" or "output": completes the C function names in errors
	count func(*C.int) C.int
	name  func(C.int, **C.char) C.int
	shape func(C.int, **C.int64_t, *C.int) C.int
	dtype func(C.int, *C.int) C.int
}

func (s tensorSide) describe() ([]TensorInfo, error) {
	var n C.int
	if err := check("weft_pred_num_"+s.kind+"s", s.count(&n)); err != nil {
		return nil, err
	}
	infos := make([]TensorInfo, 0, int(n))
	for i := C.int(0); i < n; i++ {
		var name *C.char
		var dims *C.int64_t
		var ndim, dtype C.int
		if err := check("weft_pred_"+s.kind+"_name", s.name(i, &name)); err != nil {
			return nil, err
		}
		if err := check("weft_pred_"+s.kind+"_shape", s.shape(i, &dims, &ndim)); err != nil {
			return nil, err
		}
		if err := check("weft_pred_"+s.kind+"_dtype", s.dtype(i, &dtype)); err != nil {
			return nil, err
		}
		infos = append(infos, TensorInfo{Name: C.GoString(name), Shape: copyInt64s(dims, int(ndim)), DType: DType(dtype)})
	}
	return infos, nil
}

func (p *Predictor) describe() error {
	h := p.h
	inputs := tensorSide{
		kind:  "input",
		count: func(n *C.int) C.int { return C.weft_pred_num_inputs(h, n) },
		name:  func(i C.int, s **C.char) C.int { return C.weft_pred_input_name(h, i, s) },
		shape: func(i C.int, d **C.int64_t, nd *C.int) C.int { return C.weft_pred_input_shape(h, i, d, nd) },
		dtype: func(i C.int, t *C.int) C.int { return C.weft_pred_input_dtype(h, i, t) },
	}
	outputs := tensorSide{
		kind:  "output",
		count: func(n *C.int) C.int { return C.weft_pred_num_outputs(h, n) },
		name:  func(i C.int, s **C.char) C.int { return C.weft_pred_output_name(h, i, s) },
		shape: func(i C.int, d **C.int64_t, nd *C.int) C.int { return C.weft_pred_output_shape(h, i, d, nd) },
		dtype: func(i C.int, t *C.int) C.int { return C.weft_pred_output_dtype(h, i, t) },
	}
	var err error
	if p.inputs, err = inputs.describe(); err != nil {
		return err
	}
	p.outputs, err = outputs.describe()
	return err
}

// Inputs describes the data inputs (names, bound shapes, dtypes).
func (p *Predictor) Inputs() []TensorInfo { return cloneInfos(p.inputs) }

// Outputs describes the outputs (names, shapes, dtypes).
func (p *Predictor) Outputs() []TensorInfo { return cloneInfos(p.outputs) }

func cloneInfos(in []TensorInfo) []TensorInfo {
	out := make([]TensorInfo, len(in))
	for i, t := range in {
		out[i] = TensorInfo{Name: t.Name, Shape: append([]int64(nil), t.Shape...), DType: t.DType}
	}
	return out
}

// with runs f on the live handle, holding the mutex and the OS thread.
func (p *Predictor) with(fn string, f func(h *C.weft_predictor) error) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h == nil {
		return argError(fn, "the Predictor is closed")
	}
	return onThread(func() error { return f(p.h) })
}

// SetInputBytes copies raw host-order bytes into the named input; len(b) must
// be the input's element count times its dtype size.
func (p *Predictor) SetInputBytes(name string, b []byte) error {
	cname, err := cString("Predictor.SetInput", "the input name", name)
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cname))
	return p.with("Predictor.SetInput", func(h *C.weft_predictor) error {
		return check("weft_pred_set_input", C.weft_pred_set_input(h, cname, bytesPtr(b), C.size_t(len(b))))
	})
}

// SetInput copies float32 data into the named input (a float32 input).
func (p *Predictor) SetInput(name string, data []float32) error { return SetInputOf(p, name, data) }

// SetInputOf copies data into the named input; T must be the input's dtype.
func SetInputOf[T Element](p *Predictor, name string, data []T) error {
	for _, in := range p.inputs {
		if in.Name == name && in.DType != DTypeOf[T]() {
			return &Error{Status: StatusDType, Func: "Predictor.SetInput",
				Message: fmt.Sprintf("input '%s' is %s, got %s data", name, in.DType, DTypeOf[T]())}
		}
	}
	return p.SetInputBytes(name, asBytes(data))
}

// Forward runs the graph; an operator's failure is returned here.
func (p *Predictor) Forward() error {
	return p.with("Predictor.Forward", func(h *C.weft_predictor) error {
		return check("weft_pred_forward", C.weft_pred_forward(h))
	})
}

// ForwardOnCaller runs the graph as Forward does, but with its operators run
// on this goroutine's OS thread instead of the engine's CPU worker, each with
// at most maxThreads OpenMP threads (0: the process's kernel team size, which
// also caps a larger value). Servers calling from several goroutines at once
// use it so that n predictions compute on n threads instead of queueing on
// one worker (Note [Forward on the caller] in core/executor/predictor.cc).
func (p *Predictor) ForwardOnCaller(maxThreads int) error {
	if maxThreads < 0 {
		return argError("Predictor.ForwardOnCaller", "maxThreads is %d; want 0 (the kernel team size) or more",
			maxThreads)
	}
	return p.with("Predictor.ForwardOnCaller", func(h *C.weft_predictor) error {
		return check("weft_pred_forward_inline", C.weft_pred_forward_inline(h, C.int(maxThreads)))
	})
}

// OutputBytes copies output i to host memory as raw host-order bytes.
func (p *Predictor) OutputBytes(i int) ([]byte, error) {
	if i < 0 || i >= len(p.outputs) {
		return nil, argError("Predictor.Output", "output %d out of range: the predictor has %d outputs", i,
			len(p.outputs))
	}
	out := p.outputs[i]
	b := make([]byte, numElements(out.Shape)*int64(out.DType.Size()))
	err := p.with("Predictor.Output", func(h *C.weft_predictor) error {
		return check("weft_pred_get_output", C.weft_pred_get_output(h, C.int(i), bytesPtr(b), C.size_t(len(b))))
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Output copies float32 output i.
func (p *Predictor) Output(i int) ([]float32, error) { return OutputOf[float32](p, i) }

// OutputOf copies output i; T must be the output's dtype.
func OutputOf[T Element](p *Predictor, i int) ([]T, error) {
	if i >= 0 && i < len(p.outputs) && p.outputs[i].DType != DTypeOf[T]() {
		return nil, &Error{Status: StatusDType, Func: "Predictor.Output", Message: fmt.Sprintf(
			"output '%s' is %s, asked for %s", p.outputs[i].Name, p.outputs[i].DType, DTypeOf[T]())}
	}
	b, err := p.OutputBytes(i)
	if err != nil {
		return nil, err
	}
	return fromBytes[T](b), nil
}

// Reshape gives a new predictor with the named inputs at new shapes (the others
// keep theirs). It shares the parameter arrays; p stays valid and either may be
// closed first.
func (p *Predictor) Reshape(inputs []Input) (*Predictor, error) {
	names, indptr, dims, err := csrShapes(inputs)
	if err != nil {
		return nil, err
	}
	defer names.free()
	var out *C.weft_predictor
	err = p.with("Predictor.Reshape", func(h *C.weft_predictor) error {
		return check("weft_pred_reshape", C.weft_pred_reshape(h, C.int(len(inputs)), names.ptr(), int64Ptr(indptr),
			int64Ptr(dims), &out))
	})
	if err != nil {
		return nil, err
	}
	return wrapPredictor(out)
}

// Close frees the predictor; safe to call twice, also run by the finalizer.
func (p *Predictor) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h != nil {
		C.weft_pred_free(p.h)
		p.h = nil
		runtime.SetFinalizer(p, nil)
	}
}
