package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"weft.dev/weft"
)

// maxShapesPerPredictor bounds the reshaped copies each pooled predictor keeps
// (one per batch size seen recently); the least recently used goes first.
const maxShapesPerPredictor = 8

// model is one served model: a pool of predictors at the bound shapes, each
// with copies reshaped to the batch sizes requests bring.
type model struct {
	name     string
	epoch    int
	inputs   []weft.TensorInfo // bound shapes; axis 0 varies per request
	outputs  []weft.TensorInfo
	pool     *weft.Pool
	shapes   map[*weft.Predictor]*batchShapes // fixed after load; each entry used by the predictor's holder only
	batcher  *batcher                         // nil without dynamic batching
	forwards atomic.Int64                     // forward passes run (dynamic batching makes fewer than requests)
	// batchable: every output has the batch on axis 0, so requests can be
	// concatenated and the results split again.
	batchable bool
}

type batchShapes struct {
	byBatch map[int64]*weft.Predictor
	order   []int64 // least recently used first
}

func loadModel(mf modelFiles, flags shapeFlags, poolSize int) (*model, error) {
	symJSON, err := os.ReadFile(mf.symbolPath)
	if err != nil {
		return nil, err
	}
	var params []byte
	if mf.paramsPath != "" {
		if params, err = os.ReadFile(mf.paramsPath); err != nil {
			return nil, err
		}
	}
	names, err := weft.DataInputNames(string(symJSON), params)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", mf.name, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("model %s: every argument is a parameter; no data input", mf.name)
	}
	sym, err := weft.SymbolFromJSON(string(symJSON))
	if err != nil {
		return nil, err
	}
	inputs, err := inputShapes(mf, names, sym, flags)
	sym.Close()
	if err != nil {
		return nil, err
	}
	base, err := weft.NewPredictor(string(symJSON), params, inputs)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", mf.name, err)
	}
	m := &model{name: mf.name, epoch: mf.epoch, inputs: base.Inputs(), outputs: base.Outputs(),
		shapes: map[*weft.Predictor]*batchShapes{}}
	m.batchable = m.checkBatchable(base)
	if m.pool, err = weft.NewPool(base, poolSize); err != nil {
		return nil, fmt.Errorf("model %s: %w", mf.name, err)
	}
	for i := 0; i < poolSize; i++ {
		pr, _ := m.pool.Get(context.Background())
		m.shapes[pr] = &batchShapes{byBatch: map[int64]*weft.Predictor{}}
		defer m.pool.Put(pr)
	}
	return m, nil
}

// checkBatchable reshapes to batch 2 and checks every output's axis 0 follows.
func (m *model) checkBatchable(base *weft.Predictor) bool {
	two, err := base.Reshape(m.inputsAtBatch(2))
	if err != nil {
		return false
	}
	defer two.Close()
	for i, o := range two.Outputs() {
		if len(o.Shape) == 0 || o.Shape[0] != 2 || len(m.outputs[i].Shape) == 0 ||
			m.outputs[i].Shape[0] != m.inputs[0].Shape[0] {
			return false
		}
	}
	return true
}

func (m *model) inputsAtBatch(batch int64) []weft.Input {
	out := make([]weft.Input, len(m.inputs))
	for i, in := range m.inputs {
		out[i] = weft.Input{Name: in.Name, Shape: append([]int64{batch}, in.Shape[1:]...)}
	}
	return out
}

// predictorFor gives base, or a copy of it reshaped to batch rows. Only the
// goroutine holding base (from the pool) calls it.
func (m *model) predictorFor(base *weft.Predictor, batch int64) (*weft.Predictor, error) {
	if batch == m.inputs[0].Shape[0] {
		return base, nil
	}
	bs := m.shapes[base]
	if pr, ok := bs.byBatch[batch]; ok {
		bs.touch(batch)
		return pr, nil
	}
	pr, err := base.Reshape(m.inputsAtBatch(batch))
	if err != nil {
		return nil, err
	}
	if len(bs.order) >= maxShapesPerPredictor {
		oldest := bs.order[0]
		bs.byBatch[oldest].Close()
		delete(bs.byBatch, oldest)
		bs.order = bs.order[1:]
	}
	bs.byBatch[batch] = pr
	bs.order = append(bs.order, batch)
	return pr, nil
}

func (bs *batchShapes) touch(batch int64) {
	for i, b := range bs.order {
		if b == batch {
			bs.order = append(append(bs.order[:i:i], bs.order[i+1:]...), batch)
			return
		}
	}
}

// run predicts one (already validated) request: inputs in m.inputs order, all
// with the same batch size. The outputs come in m.outputs order.
func (m *model) run(ctx context.Context, inputs []tensor) ([]tensor, error) {
	base, err := m.pool.Get(ctx)
	if err != nil {
		return nil, err
	}
	defer m.pool.Put(base)
	pr, err := m.predictorFor(base, inputs[0].rows())
	if err != nil {
		return nil, err
	}
	for i, in := range m.inputs {
		if err := pr.SetInputBytes(in.Name, inputs[i].data); err != nil {
			return nil, err
		}
	}
	if err := pr.Forward(); err != nil {
		return nil, err
	}
	m.forwards.Add(1)
	infos := pr.Outputs()
	out := make([]tensor, len(infos))
	for i, o := range infos {
		b, err := pr.OutputBytes(i)
		if err != nil {
			return nil, err
		}
		out[i] = tensor{shape: o.Shape, dtype: o.DType, data: b}
	}
	return out, nil
}

// predict runs a request through the batcher when there is one.
func (m *model) predict(ctx context.Context, inputs []tensor) ([]tensor, error) {
	if m.batcher != nil {
		return m.batcher.submit(ctx, inputs)
	}
	return m.run(ctx, inputs)
}

func (m *model) close() {
	if m.batcher != nil {
		m.batcher.stop()
	}
	// Called after the server has stopped: no request holds a predictor.
	for _, bs := range m.shapes {
		for _, pr := range bs.byBatch {
			pr.Close()
		}
	}
	m.pool.Close()
}

func (m *model) inputIndex(name string) int {
	for i, in := range m.inputs {
		if in.Name == name {
			return i
		}
	}
	return -1
}

func (m *model) inputNames() string {
	names := make([]string, len(m.inputs))
	for i, in := range m.inputs {
		names[i] = in.Name
	}
	return strings.Join(names, ", ")
}

// checkInputs validates a request's tensors (in m.inputs order) against the
// model: same trailing dims as bound, a batch of at least one row, the same
// batch for every input.
func (m *model) checkInputs(ts []tensor) error {
	for i, in := range m.inputs {
		t := ts[i]
		want := append([]int64{-1}, in.Shape[1:]...)
		if len(t.shape) != len(in.Shape) || !equalDims(t.shape[1:], in.Shape[1:]) {
			return fmt.Errorf("input '%s' has shape %v; model %s wants %v (-1: any batch size)", in.Name, t.shape,
				m.name, want)
		}
		if t.shape[0] < 1 {
			return fmt.Errorf("input '%s' has an empty batch (shape %v)", in.Name, t.shape)
		}
		if t.shape[0] != ts[0].shape[0] {
			return fmt.Errorf("inputs '%s' and '%s' have different batch sizes (%d and %d)", m.inputs[0].Name,
				in.Name, ts[0].shape[0], t.shape[0])
		}
	}
	return nil
}

func equalDims(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
