package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"weft.dev/weft"
)

// model is one served version (one epoch file) of a model. Predictors are
// made for the input shapes requests bring: a root predictor (made at load
// when a shape hint exists, else at the first request; never used for a
// forward pass, so reshaping from it never waits on one) is reshaped per
// shape, and the copies are kept in a bounded LRU cache (shapeCache). At most
// poolSize predictions run at once; at most queueMax more wait.
type model struct {
	name    string
	version int
	symJSON string
	params  []byte
	inputs  []inputSpec  // what a request must supply, in argument order
	hints   []weft.Input // bound shapes from -shape, NAME-shapes.json or __shape__ (nil when unknown)
	// sig is the metadata computed from the files at load (Note [Signature
	// from the files] in the weft package); nil when that failed. Never
	// modified once newModel returns.
	sig      *weft.Signature
	poolSize int
	queueMax int
	maxBody  int64

	// rootMu guards root: written (made, closed) under the write lock, used
	// (reshaped, described) under the read lock, so reshapes for new shapes
	// do not queue behind one another here.
	rootMu sync.RWMutex
	root   *weft.Predictor // nil until the first shape is known
	// fixed is what requests read on every call (input dtypes, outputs); it is
	// replaced, never changed, when root is made, so reading it takes no lock
	// and a reshape for a new shape never stalls requests of cached shapes.
	fixed atomic.Pointer[fixedInfo]

	cache *shapeCache
	slots chan struct{} // one per running prediction
	freed chan struct{} // a pass ended (buffered 1; the batcher waits on it, Note [Batch at once])

	admitted atomic.Int64 // waiting + running
	running  atomic.Int64
	forwards atomic.Int64 // forward passes run (dynamic batching makes fewer than requests)

	batcher   *batcher // nil without dynamic batching
	batchMu   sync.Mutex
	batchable map[string]bool // trailing-shape key -> outputs carry the batch on axis 0

	refs      sync.WaitGroup // requests holding this version (hot reload frees it after them)
	metrics   *metrics
	stats     modelStats // Triton's statistics extension (stats.go)
	labels    []string   // class labels for the classification extension (classify.go); nil: none
	labelFile string     // their file's base name

	// probeBind, when set (a version without shape hints, in the server),
	// binds the version at a request's shapes in a probe child before the
	// root is made here (Note [Load probe]); a crash there is kept in
	// bindCrash and the version answers no more.
	probeBind func(symJSON string, params []byte, shapes []weft.Input) error
	bindCrash atomic.Pointer[probeError]
}

// fixedInfo is a model version's input dtypes (final once the root exists;
// before, from __dtype__, default float32) and outputs at the root's shapes
// (nil before the root exists). Never modified once published.
type fixedInfo struct {
	rooted  bool
	dtypes  []weft.DType
	outputs []weft.TensorInfo
}

// inputSpec is a data input a request supplies.
type inputSpec struct {
	name string
}

var (
	errQueueFull     = errors.New("queue full")
	errModelRetiring = errors.New("the model version is being replaced")
)

// errVersionBroken: the version's bind probe crashed (a 503).
type errVersionBroken struct{ err *probeError }

func (e errVersionBroken) Error() string { return "the model version is unavailable: " + e.err.Error() }

// badShapeError is a request's shape the graph cannot take (a 400).
type badShapeError struct{ err error }

func (e badShapeError) Error() string { return e.err.Error() }
func (e badShapeError) Unwrap() error { return e.err }

// newModel prepares a version: finds the inputs a client supplies (the data
// inputs without loss labels) and, when a shape hint exists, builds the root
// predictor so a broken file shows at load.
func newModel(name string, version int, symJSON string, params []byte, hints map[string][]int64, cfg config,
	mt *metrics) (*model, error) {
	names, err := weft.RequestInputNames(symJSON, params)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("every argument is a parameter or a label; no data input")
	}
	sym, err := weft.SymbolFromJSON(symJSON)
	if err != nil {
		return nil, err
	}
	attrs, err := sym.Attrs()
	sym.Close()
	if err != nil {
		return nil, err
	}
	m := &model{name: name, version: version, symJSON: symJSON, params: params, poolSize: cfg.poolSize,
		queueMax: cfg.queueMax, maxBody: cfg.maxBody, slots: make(chan struct{}, cfg.poolSize),
		freed: make(chan struct{}, 1),
		cache: newShapeCache(cfg.maxShapes), batchable: map[string]bool{}, metrics: mt}
	complete := true
	var dtypes []weft.DType
	for _, n := range names {
		dtype := weft.Float32
		if flag, ok := attrs[n+"$__dtype__"]; ok {
			var f int
			if _, err := fmt.Sscan(flag, &f); err == nil {
				dtype = weft.DType(f)
			}
		}
		m.inputs = append(m.inputs, inputSpec{name: n})
		dtypes = append(dtypes, dtype)
		shape := hints[n]
		if shape == nil {
			shape = shapeAttr(attrs[n+"$__shape__"])
		}
		if shape == nil {
			complete = false
		}
		m.hints = append(m.hints, weft.Input{Name: n, Shape: shape})
	}
	m.fixed.Store(&fixedInfo{dtypes: dtypes})
	known := map[string][]int64{}
	for _, h := range m.hints {
		if h.Shape != nil {
			known[h.Name] = h.Shape
		}
	}
	// Metadata complete before the first request (issue 42). A failure here
	// only leaves the metadata as vague as before: loading and predicting do
	// not depend on it, and whatever broke shows when the predictor binds.
	if sig, err := weft.InferSignature(symJSON, params, names, dtypes, known); err == nil {
		m.sig = sig
	}
	for n := range hints {
		if !contains(names, n) {
			return nil, fmt.Errorf("a shape is given for '%s', which is not a data input (inputs: %v)", n, names)
		}
	}
	if cfg.batchMax > 1 {
		m.batcher = newBatcher(m, cfg.batchMax, cfg.batchDelay)
	}
	if !complete {
		m.hints = nil
		return m, nil
	}
	if err := m.ensureRoot(m.hints); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

// ensureRoot builds the root predictor at shapes when there is none yet.
func (m *model) ensureRoot(shapes []weft.Input) error {
	if m.fixed.Load().rooted {
		return nil
	}
	m.rootMu.Lock()
	defer m.rootMu.Unlock()
	if m.root != nil {
		return nil
	}
	if pe := m.bindCrash.Load(); pe != nil {
		return errVersionBroken{pe}
	}
	if m.probeBind != nil {
		err := m.probeBind(m.symJSON, m.params, shapes)
		var pe *probeError
		switch {
		case err == nil: // passed
		case !errors.As(err, &pe):
			return err
		case pe.crashed:
			m.bindCrash.Store(pe)
			return errVersionBroken{pe}
		case pe.answered == "": // timed out, stopped or could not start: not bound here either
			return err
		} // else the child's bind answered an error: binding here gives the same error, typed
	}
	root, err := weft.NewPredictor(m.symJSON, m.params, shapes)
	if err != nil {
		if weft.IsStatus(err, weft.StatusShape) || weft.IsStatus(err, weft.StatusInvalidArgument) {
			return badShapeError{err}
		}
		return err
	}
	m.root = root
	m.params = nil // the root holds the parameter arrays now; reshapes share them
	fixed := &fixedInfo{rooted: true, dtypes: append([]weft.DType(nil), m.fixed.Load().dtypes...),
		outputs: root.Outputs()}
	for _, in := range root.Inputs() {
		if idx := m.inputIndex(in.Name); idx >= 0 {
			fixed.dtypes[idx] = in.DType
		}
	}
	m.fixed.Store(fixed)
	return nil
}

// broken is the crash of this version's bind probe (nil: none).
func (m *model) broken() error {
	if pe := m.bindCrash.Load(); pe != nil {
		return pe
	}
	return nil
}

// admit reserves a place in the model's queue; release it with leave.
func (m *model) admit() error {
	if m.admitted.Add(1) > int64(m.poolSize+m.queueMax) {
		m.admitted.Add(-1)
		return errQueueFull
	}
	return nil
}

func (m *model) leave() { m.admitted.Add(-1) }

// queueDepth is the number of admitted requests not yet running.
func (m *model) queueDepth() int64 { return max(0, m.admitted.Load()-m.running.Load()) }

// run predicts one validated request (inputs in m.inputs order) on a
// predictor of its shapes. The outputs come in m.outputInfos() order; tm
// says where the time went (zero where it did not get that far).
func (m *model) run(ctx context.Context, inputs []tensor) (out []tensor, tm runTiming, err error) {
	shapes := make([]weft.Input, len(inputs))
	for i, t := range inputs {
		shapes[i] = weft.Input{Name: m.inputs[i].name, Shape: t.shape}
	}
	select {
	case m.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, tm, ctx.Err()
	}
	tm.started = time.Now()
	m.running.Add(1)
	defer func() {
		m.running.Add(-1)
		<-m.slots
		select {
		case m.freed <- struct{}{}:
		default: // a signal is already pending
		}
	}()
	if err := m.ensureRoot(shapes); err != nil {
		return nil, tm, err
	}
	for i, dt := range m.inputDTypes() {
		if inputs[i].dtype != dt {
			return nil, tm, badShapeError{fmt.Errorf("input '%s' is %s, the request gives %s", m.inputs[i].name,
				dt, inputs[i].dtype)}
		}
	}
	key := shapeKey(shapes)
	pr, entry := m.cache.take(key)
	if pr == nil {
		var err error
		pr, err = m.reshapeRoot(shapes)
		if err != nil {
			if weft.IsStatus(err, weft.StatusShape) || weft.IsStatus(err, weft.StatusInvalidArgument) {
				return nil, tm, badShapeError{err}
			}
			return nil, tm, err
		}
		entry = m.cache.entry(key)
	}
	defer m.cache.give(entry, pr)
	for i, in := range m.inputs {
		if err := pr.SetInputBytes(in.name, inputs[i].data); err != nil {
			return nil, tm, err
		}
	}
	t1 := time.Now()
	tm.input = t1.Sub(tm.started)
	if err := m.forward(pr); err != nil {
		return nil, tm, err
	}
	t2 := time.Now()
	tm.infer = t2.Sub(t1)
	m.forwards.Add(1)
	m.stats.executed()
	m.metrics.observeBatch(m.name, inputs[0].rows())
	infos := pr.Outputs()
	out = make([]tensor, len(infos))
	for i, o := range infos {
		b, err := pr.OutputBytes(i)
		if err != nil {
			return nil, tm, err
		}
		out[i] = tensor{shape: o.Shape, dtype: o.DType, data: b}
	}
	tm.output = time.Since(t2)
	return out, tm, nil
}

// Note [Predict on the request's thread]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A prediction runs its operators on the OS thread of the goroutine that
// runs it (Predictor.ForwardOnCaller), not on the engine's one CPU worker:
// the worker made the predictions of concurrent requests queue behind one
// another on one thread, and cost each request two thread hand-offs, its
// queue's spin and sleep -- in the profile at concurrency 4 (v2 JSON, digits
// CNN, 2 loaded CPUs) the worker thread took 43% of the server's CPU, three
// quarters of it not the kernels. Each running prediction gets an OpenMP team
// of GOMAXPROCS (the CPUs Go may use: affinity and cgroup quota) divided by
// the predictions running at that moment, at least 1 (the library caps it at
// its kernel team size), so -pool N concurrent predictions do not open N
// full-size teams on the same cores. benchmarks/serve.sh, 3 runs on 2 CPUs
// at load average 5-14, median ratios within a run: v2 JSON against
// Python's http.server 1.19x at concurrency 1, 1.82x at 4 (0.76x before,
// 1693 against 2237 req/s), 2.08x at 16; v2 binary 1.5x the previous
// weft-serve at concurrency 4. Dynamic batching keeps the worker under load
// (model.forward).

// forward runs pr's pass (Note [Predict on the request's thread]). With
// dynamic batching, a pass that starts while another runs or while requests
// wait for the collector goes to the engine's worker as before: queueing there
// lets the collector's next batch grow, where passes side by side on the
// request threads made smaller batches (benchmarks/serve.sh, -batch-max 16,
// v2 binary at concurrency 16: 0.7x the requests/s with every pass on its
// thread, 0.9x with only those that start beside another).
func (m *model) forward(pr *weft.Predictor) error {
	running := m.running.Load()
	if m.batcher != nil && (running > 1 || m.batcher.waiting.Load() > 0) {
		return pr.Forward()
	}
	return pr.ForwardOnCaller(callerThreads(running))
}

// callerThreads is the OpenMP team of one of running predictions (Note
// [Predict on the request's thread]).
func callerThreads(running int64) int {
	return max(1, runtime.GOMAXPROCS(0)/int(max(1, running)))
}

// predict runs a request (through the batcher when there is one) on its own
// goroutine and waits for it or for ctx's end. On ctx's end the work still
// finishes in the background (a forward pass cannot be interrupted) and keeps
// its queue place until then, so the queue bounds the work, not the waiting.
func (m *model) predict(ctx context.Context, inputs []tensor) ([]tensor, runTiming, error) {
	type result struct {
		out []tensor
		tm  runTiming
		err error
	}
	done := make(chan result, 1)
	m.refs.Add(1)
	go func() {
		defer m.refs.Done()
		defer m.leave()
		var r result
		if m.batcher != nil && m.canBatch(inputs) {
			r.out, r.tm, r.err = m.batcher.submit(ctx, inputs)
		} else {
			r.out, r.tm, r.err = m.run(ctx, inputs)
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.out, r.tm, r.err
	case <-ctx.Done():
		return nil, runTiming{}, ctx.Err()
	}
}

// canBatch: every input has the same batch size, and at these trailing shapes
// every output carries the batch on axis 0 (checked once per trailing shape
// by reshaping the root to batches 2 and 3).
func (m *model) canBatch(inputs []tensor) bool {
	for _, t := range inputs {
		if len(t.shape) == 0 || t.shape[0] != inputs[0].shape[0] {
			return false
		}
	}
	key := trailingKey(inputs)
	m.batchMu.Lock()
	ok, known := m.batchable[key]
	m.batchMu.Unlock()
	if known {
		return ok
	}
	ok = m.checkBatchable(inputs)
	m.batchMu.Lock()
	m.batchable[key] = ok
	m.batchMu.Unlock()
	return ok
}

func (m *model) checkBatchable(inputs []tensor) bool {
	at := func(batch int64) []weft.Input {
		out := make([]weft.Input, len(inputs))
		for i, t := range inputs {
			out[i] = weft.Input{Name: m.inputs[i].name, Shape: append([]int64{batch}, t.shape[1:]...)}
		}
		return out
	}
	if err := m.ensureRoot(at(inputs[0].rows())); err != nil {
		return false
	}
	for _, batch := range []int64{2, 3} {
		pr, err := m.reshapeRoot(at(batch))
		if err != nil {
			return false
		}
		outs := pr.Outputs()
		pr.Close()
		for _, o := range outs {
			if len(o.Shape) == 0 || o.Shape[0] != batch {
				return false
			}
		}
	}
	return true
}

// reshapeRoot makes a predictor of the root for shapes (sharing its
// parameters).
func (m *model) reshapeRoot(shapes []weft.Input) (*weft.Predictor, error) {
	m.rootMu.RLock()
	defer m.rootMu.RUnlock()
	if m.root == nil {
		return nil, errModelRetiring
	}
	return m.root.Reshape(shapes)
}

// close frees the predictors; call it when no request holds the version.
func (m *model) close() {
	if m.batcher != nil {
		m.batcher.stop()
	}
	m.cache.close()
	m.rootMu.Lock()
	if m.root != nil {
		m.root.Close()
		m.root = nil
	}
	m.rootMu.Unlock()
}

// retire frees the version once the requests holding it have finished.
func (m *model) retire() {
	go func() {
		m.refs.Wait()
		m.close()
	}()
}

func (m *model) inputIndex(name string) int {
	for i, in := range m.inputs {
		if in.name == name {
			return i
		}
	}
	return -1
}

func (m *model) inputNames() string {
	names := make([]string, len(m.inputs))
	for i, in := range m.inputs {
		names[i] = in.name
	}
	return strings.Join(names, ", ")
}

// outputInfos gives the outputs at the root's shapes (nil before the first
// request of a model without shape hints).
func (m *model) outputInfos() []weft.TensorInfo { return m.fixed.Load().outputs }

// inputDTypes gives the inputs' dtypes (in m.inputs order; do not modify).
func (m *model) inputDTypes() []weft.DType { return m.fixed.Load().dtypes }

// checkInputs validates a request's tensors (in m.inputs order): every dim
// positive and the byte count matching the shape.
func (m *model) checkInputs(ts []tensor) error {
	for i, in := range m.inputs {
		t := ts[i]
		if len(t.shape) == 0 {
			return fmt.Errorf("input '%s' is a scalar; want at least a batch axis", in.name)
		}
		n, err := byteCount(t.shape, t.dtype)
		if err != nil {
			return fmt.Errorf("input '%s': %v", in.name, err)
		}
		if n == 0 {
			return fmt.Errorf("input '%s' is empty (shape %v)", in.name, t.shape)
		}
		if n != int64(len(t.data)) {
			return fmt.Errorf("input '%s' has %d bytes; shape %v of %s needs %d", in.name, len(t.data), t.shape,
				t.dtype, n)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
