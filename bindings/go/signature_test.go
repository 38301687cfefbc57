package weft

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// graphJSON writes MXNet 1.x symbol JSON for a chain of ops over one data
// input: each op reads the previous output and its own variables
// (NAME_weight, NAME_bias, ... as listed), with the given attrs.
type chainOp struct {
	op, name string
	vars     []string
	attrs    map[string]string
}

func graphJSON(data string, ops []chainOp) string {
	type node struct {
		Op     string            `json:"op"`
		Name   string            `json:"name"`
		Attrs  map[string]string `json:"attrs,omitempty"`
		Inputs [][]int           `json:"inputs"`
	}
	nodes := []node{{Op: "null", Name: data, Inputs: [][]int{}}}
	args := []int{0}
	prev := 0
	for _, o := range ops {
		in := [][]int{{prev, 0, 0}}
		for _, v := range o.vars {
			nodes = append(nodes, node{Op: "null", Name: o.name + "_" + v, Inputs: [][]int{}})
			args = append(args, len(nodes)-1)
			in = append(in, []int{len(nodes) - 1, 0, 0})
		}
		nodes = append(nodes, node{Op: o.op, Name: o.name, Attrs: o.attrs, Inputs: in})
		prev = len(nodes) - 1
	}
	b, _ := json.Marshal(map[string]any{"nodes": nodes, "arg_nodes": args, "heads": [][]int{{prev, 0, 0}},
		"attrs": map[string]any{"mxnet_version": []any{"int", 10901}}})
	return string(b)
}

// paramsOf saves zero arrays of the given shapes as an MXNet dict file.
func paramsOf(t *testing.T, shapes map[string][]int64) []byte {
	t.Helper()
	var arrays []*NDArray
	var names []string
	for n, s := range shapes {
		a, err := NewNDArray(Float32, s...)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		arrays, names = append(arrays, a), append(names, "arg:"+n)
	}
	b, err := SaveParamsBytes(arrays, names)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sigText(s *Signature) string {
	var out string
	for _, t := range s.Inputs {
		out += fmt.Sprintf("in %s %s %v; ", t.Name, t.DType, t.Shape)
	}
	for _, t := range s.Outputs {
		out += fmt.Sprintf("out %s %s %v; ", t.Name, t.DType, t.Shape)
	}
	return out
}

// Metadata from the files alone (Note [Signature from the files]): the dims
// the weights fix are given, the ones each request may choose are -1.
func TestInferSignatureFromTheFiles(t *testing.T) {
	dir := fixtureDir(t)
	symText, err := os.ReadFile(filepath.Join(dir, "cnn-symbol.json"))
	if err != nil {
		t.Fatal(err)
	}
	params, err := os.ReadFile(filepath.Join(dir, "cnn-0000.params"))
	if err != nil {
		t.Fatal(err)
	}
	conv := map[string]string{"kernel": "(3, 3)", "num_filter": "4", "pad": "(1, 1)"}
	cases := []struct {
		what, sym string
		params    []byte
		hints     map[string][]int64
		want      string
	}{
		// MXNet's exported CNN: Flatten into Dense fixes the 8x8 image.
		{"cnn", string(symText), params, nil,
			"in data float32 [-1 3 8 8]; out cnn_dense1_fwd_output float32 [-1 5]; "},
		{"cnn with a hint", string(symText), params, map[string][]int64{"data": {2, 3, 8, 8}},
			"in data float32 [-1 3 8 8]; out cnn_dense1_fwd_output float32 [-1 5]; "},
		// A global pool takes any image size: the spatial dims are free.
		{"global pool", graphJSON("img", []chainOp{
			{"Convolution", "c", []string{"weight", "bias"}, conv},
			{"Pooling", "p", nil, map[string]string{"global_pool": "True", "kernel": "(1, 1)", "pool_type": "avg"}},
			{"Flatten", "f", nil, nil},
			{"FullyConnected", "fc", []string{"weight", "bias"}, map[string]string{"num_hidden": "10"}},
		}), paramsOf(t, map[string][]int64{"c_weight": {4, 2, 3, 3}, "c_bias": {4}, "fc_weight": {10, 4},
			"fc_bias": {10}}), nil,
			"in img float32 [-1 2 -1 -1]; out fc_output float32 [-1 10]; "},
		// A model-zoo net normalising the data first, a Dense after a Flatten:
		// BatchNorm's gamma gives the channels, the Dense the 8x8 image (a
		// size among the trial sizes: a fixed size outside them is not found).
		{"batchnorm first", graphJSON("data", []chainOp{
			{"BatchNorm", "bn_data", []string{"gamma", "beta", "moving_mean", "moving_var"},
				map[string]string{"fix_gamma": "True"}},
			{"Convolution", "c", []string{"weight", "bias"}, conv},
			{"Flatten", "f", nil, nil},
			{"FullyConnected", "fc", []string{"weight", "bias"}, map[string]string{"num_hidden": "4"}},
		}), paramsOf(t, map[string][]int64{"bn_data_gamma": {3}, "bn_data_beta": {3},
			"bn_data_moving_mean": {3}, "bn_data_moving_var": {3}, "c_weight": {4, 3, 3, 3},
			"c_bias": {4}, "fc_weight": {4, 4 * 8 * 8}, "fc_bias": {4}}), nil,
			"in data float32 [-1 3 8 8]; out fc_output float32 [-1 4]; "},
		{"mlp", graphJSON("x", []chainOp{
			{"FullyConnected", "fc1", []string{"weight", "bias"}, map[string]string{"num_hidden": "6"}},
			{"Activation", "a", nil, map[string]string{"act_type": "relu"}},
			{"FullyConnected", "fc2", []string{"weight", "bias"}, map[string]string{"num_hidden": "3"}},
		}), paramsOf(t, map[string][]int64{"fc1_weight": {6, 13}, "fc1_bias": {6}, "fc2_weight": {3, 6},
			"fc2_bias": {3}}), nil,
			"in x float32 [-1 13]; out fc2_output float32 [-1 3]; "},
		// A tagger's tokens: (batch, steps), both free.
		{"embedding", graphJSON("tokens", []chainOp{
			{"Embedding", "emb", []string{"weight"}, map[string]string{"input_dim": "50", "output_dim": "7"}},
		}), paramsOf(t, map[string][]int64{"emb_weight": {50, 7}}), nil,
			"in tokens float32 [-1 -1]; out emb_output float32 [-1 -1 7]; "},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			names, err := RequestInputNames(c.sym, c.params)
			if err != nil {
				t.Fatal(err)
			}
			dtypes := make([]DType, len(names))
			sig, err := InferSignature(c.sym, c.params, names, dtypes, c.hints)
			if err != nil {
				t.Fatal(err)
			}
			if got := sigText(sig); got != c.want || !sig.Complete {
				t.Fatalf("signature %q (complete %v), want %q", got, sig.Complete, c.want)
			}
		})
	}
}

// An input no trial shape fits keeps an unknown rank, and the signature says
// it is incomplete rather than guess.
func TestInferSignatureLeavesTheUnknowableUnknown(t *testing.T) {
	sym := graphJSON("x", []chainOp{
		{"FullyConnected", "fc", []string{"weight", "bias"}, map[string]string{"num_hidden": "3", "flatten": "False"}},
		{"Reshape", "r", nil, map[string]string{"shape": "(-1, 4, 5, 6, 7, 11)"}},
	})
	params := paramsOf(t, map[string][]int64{"fc_weight": {3, 13}, "fc_bias": {3}})
	sig, err := InferSignature(sym, params, []string{"x"}, []DType{Float32}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sig.Complete || len(sig.Outputs) != 0 || fmt.Sprint(sig.Inputs[0].Shape) != "[-1]" {
		t.Fatalf("signature %q complete=%v", sigText(sig), sig.Complete)
	}
	if _, err := InferSignature(sym, params, []string{"x"}, nil, nil); err == nil {
		t.Fatal("dtypes of the wrong length were accepted")
	}
}
