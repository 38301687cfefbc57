package weft

import (
	"context"
	"io"
	"io/fs"
)

// LoadPredictorFrom creates a predictor from a prefix-symbol.json and a
// prefix-NNNN.params file of fsys (an embed.FS, os.DirFS, a zip archive...).
// paramsPath "" means the graph has no parameters. A missing file gives an
// *Error with Status StatusIO for which errors.Is(err, fs.ErrNotExist) holds.
func LoadPredictorFrom(fsys fs.FS, symbolPath, paramsPath string, inputs []Input, opts ...Option) (*Predictor, error) {
	sym, err := fs.ReadFile(fsys, symbolPath)
	if err != nil {
		return nil, ioError("LoadPredictorFrom", err)
	}
	var params []byte
	if paramsPath != "" {
		if params, err = fs.ReadFile(fsys, paramsPath); err != nil {
			return nil, ioError("LoadPredictorFrom", err)
		}
	}
	return NewPredictor(string(sym), params, inputs, opts...)
}

// LoadPredictorReader creates a predictor from readers of the symbol JSON and
// of the .params bytes (params may be nil: a graph without parameters). Both
// are read to the end; closing them is the caller's business.
func LoadPredictorReader(symbol, params io.Reader, inputs []Input, opts ...Option) (*Predictor, error) {
	sym, err := io.ReadAll(symbol)
	if err != nil {
		return nil, ioError("LoadPredictorReader", err)
	}
	var pb []byte
	if params != nil {
		if pb, err = io.ReadAll(params); err != nil {
			return nil, ioError("LoadPredictorReader", err)
		}
	}
	return NewPredictor(string(sym), pb, inputs, opts...)
}

// LoadParamsFrom reads a .params file of fsys.
func LoadParamsFrom(fsys fs.FS, path string) (*Params, error) {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, ioError("LoadParamsFrom", err)
	}
	return LoadParamsBytes(b)
}

// LoadParamsReader reads .params bytes from r to the end.
func LoadParamsReader(r io.Reader) (*Params, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, ioError("LoadParamsReader", err)
	}
	return LoadParamsBytes(b)
}

// LoadSymbolFrom reads a prefix-symbol.json file of fsys.
func LoadSymbolFrom(fsys fs.FS, path string) (*Symbol, error) {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, ioError("LoadSymbolFrom", err)
	}
	return SymbolFromJSON(string(b))
}

// LoadSymbolReader reads symbol JSON from r to the end.
func LoadSymbolReader(r io.Reader) (*Symbol, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, ioError("LoadSymbolReader", err)
	}
	return SymbolFromJSON(string(b))
}

// whileAlive runs f (library calls that cannot be interrupted) on its own
// goroutine and returns its result, or ctx's error as soon as ctx ends. In the
// latter case f still runs to its end (its result is dropped; handles in it
// are freed by their finalizers), and the Predictor's mutex keeps later calls
// waiting until it has.
func whileAlive[T any](ctx context.Context, f func() (T, error)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if ctx.Done() == nil { // context.Background(): nothing can end it
		return f()
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// ForwardContext is Forward that returns ctx.Err() when ctx ends first. The
// forward pass itself cannot be stopped: it finishes in the background and
// the predictor's next call waits for it.
func (p *Predictor) ForwardContext(ctx context.Context) error {
	_, err := whileAlive(ctx, func() (struct{}, error) { return struct{}{}, p.Forward() })
	return err
}

// NewPredictorContext is NewPredictor that returns ctx.Err() when ctx ends
// first (binding a large graph can take seconds); the predictor made anyway
// is then freed by its finalizer.
func NewPredictorContext(ctx context.Context, symbolJSON string, params []byte, inputs []Input,
	opts ...Option) (*Predictor, error) {
	return whileAlive(ctx, func() (*Predictor, error) { return NewPredictor(symbolJSON, params, inputs, opts...) })
}

// ReshapeContext is Reshape that returns ctx.Err() when ctx ends first.
func (p *Predictor) ReshapeContext(ctx context.Context, inputs []Input) (*Predictor, error) {
	return whileAlive(ctx, func() (*Predictor, error) { return p.Reshape(inputs) })
}

// Predict sets the named inputs (raw host-order bytes, as SetInputBytes), runs
// the forward pass and copies every output (raw bytes, in Outputs order),
// giving up with ctx.Err() when ctx ends first.
func (p *Predictor) Predict(ctx context.Context, inputs map[string][]byte) ([][]byte, error) {
	return whileAlive(ctx, func() ([][]byte, error) {
		for name, b := range inputs {
			if err := p.SetInputBytes(name, b); err != nil {
				return nil, err
			}
		}
		if err := p.Forward(); err != nil {
			return nil, err
		}
		outs := make([][]byte, len(p.outputs))
		for i := range p.outputs {
			b, err := p.OutputBytes(i)
			if err != nil {
				return nil, err
			}
			outs[i] = b
		}
		return outs, nil
	})
}
