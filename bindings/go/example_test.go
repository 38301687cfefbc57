package weft_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"strings"
	"testing/fstest"
	"time"

	"weft.dev/weft"
)

// A two-class logistic model as MXNet writes it with its loss: FullyConnected
// then SoftmaxOutput, whose softmax_label is not a parameter.
const exampleSymbol = `{"nodes": [
  {"op": "null", "name": "data", "inputs": []},
  {"op": "null", "name": "fc_weight", "inputs": []},
  {"op": "null", "name": "fc_bias", "inputs": []},
  {"op": "FullyConnected", "name": "fc", "attrs": {"num_hidden": "2"}, "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
  {"op": "null", "name": "softmax_label", "inputs": []},
  {"op": "SoftmaxOutput", "name": "softmax", "inputs": [[3, 0, 0], [4, 0, 0]]}],
 "arg_nodes": [0, 1, 2, 4], "heads": [[5, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}`

// exampleParams gives the bytes of a .params file for exampleSymbol.
func exampleParams() []byte {
	w, _ := weft.FromSlice([]float32{1, -1, -1, 1}, 2, 2)
	b, _ := weft.FromSlice([]float32{0, 0}, 2)
	params, err := weft.SaveParamsBytes([]*weft.NDArray{w, b}, []string{"arg:fc_weight", "arg:fc_bias"})
	if err != nil {
		log.Fatal(err)
	}
	return params
}

// Predict the classes of two rows. The loss's label input is bound to zeros
// by the library; only data is given.
func ExampleNewPredictor() {
	pred, err := weft.NewPredictor(exampleSymbol, exampleParams(),
		[]weft.Input{{Name: "data", Shape: []int64{2, 2}}})
	if err != nil {
		log.Fatal(err)
	}
	defer pred.Close()
	if err := pred.SetInput("data", []float32{2, 0, 0, 2}); err != nil {
		log.Fatal(err)
	}
	if err := pred.Forward(); err != nil {
		log.Fatal(err)
	}
	probs, err := pred.Output(0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %v: %.4f\n", pred.Outputs()[0].Name, pred.Outputs()[0].Shape, probs)
	// Output: softmax_output [2 2]: [0.9820 0.0180 0.0180 0.9820]
}

// Load a model from any fs.FS: an embed.FS compiled into the binary, an
// os.DirFS folder, or (here) an in-memory one.
func ExampleLoadPredictorFrom() {
	models := fstest.MapFS{
		"iris-symbol.json": {Data: []byte(exampleSymbol)},
		"iris-0010.params": {Data: exampleParams()},
	}
	pred, err := weft.LoadPredictorFrom(models, "iris-symbol.json", "iris-0010.params",
		[]weft.Input{{Name: "data", Shape: []int64{1, 2}}})
	if err != nil {
		log.Fatal(err)
	}
	defer pred.Close()
	for _, in := range pred.Inputs() {
		fmt.Println("input", in.Name, in.Shape, in.DType)
	}
	// Output: input data [1 2] float32
}

// Readers work too, e.g. an HTTP body or an archive member.
func ExampleLoadPredictorReader() {
	pred, err := weft.LoadPredictorReader(strings.NewReader(exampleSymbol), strings.NewReader(string(exampleParams())),
		[]weft.Input{{Name: "data", Shape: []int64{3, 2}}})
	if err != nil {
		log.Fatal(err)
	}
	defer pred.Close()
	fmt.Println(pred.Outputs()[0].Shape)
	// Output: [3 2]
}

// A missing file is fs.ErrNotExist; a library failure carries its status.
func ExampleError() {
	_, err := weft.LoadPredictor("no-such-symbol.json", "no-such-0000.params", nil)
	fmt.Println(errors.Is(err, fs.ErrNotExist))

	_, err = weft.NewPredictor(exampleSymbol, exampleParams(), []weft.Input{{Name: "data", Shape: []int64{1, 3}}})
	var werr *weft.Error
	if errors.As(err, &werr) {
		fmt.Println(werr.Status)
	}
	// Output:
	// true
	// shape
}

// Which inputs a client must send: the data inputs, not the loss's label.
func ExampleRequestInputNames() {
	params := exampleParams()
	all, _ := weft.DataInputNames(exampleSymbol, params)
	labels, _ := weft.LabelInputNames(exampleSymbol)
	send, _ := weft.RequestInputNames(exampleSymbol, params)
	fmt.Println(all, labels, send)
	// Output: [data softmax_label] [softmax_label] [data]
}

// Predictions bounded by a deadline: Predict (and ForwardContext) return
// ctx.Err() when ctx ends first.
func ExamplePredictor_Predict() {
	pred, err := weft.NewPredictor(exampleSymbol, exampleParams(), []weft.Input{{Name: "data", Shape: []int64{1, 2}}})
	if err != nil {
		log.Fatal(err)
	}
	defer pred.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	row := []byte{0, 0, 0, 0, 0, 0, 0, 0} // two float32 zeros
	outs, err := pred.Predict(ctx, map[string][]byte{"data": row})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(outs), len(outs[0]), "bytes")
	// Output: 1 8 bytes
}

// A Pool of predictors sharing one set of parameters answers goroutines in
// parallel; Get and Do wait for a free one or for ctx's end.
func ExamplePool() {
	base, err := weft.NewPredictor(exampleSymbol, exampleParams(), []weft.Input{{Name: "data", Shape: []int64{1, 2}}})
	if err != nil {
		log.Fatal(err)
	}
	pool, err := weft.NewPool(base, 4)
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	err = pool.Do(context.Background(), func(p *weft.Predictor) error {
		if err := p.SetInput("data", []float32{0, 3}); err != nil {
			return err
		}
		if err := p.Forward(); err != nil {
			return err
		}
		probs, err := p.Output(0)
		fmt.Printf("%.4f\n", probs)
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output: [0.0025 0.9975]
}
