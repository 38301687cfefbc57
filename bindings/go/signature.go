package weft

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Note [Signature from the files]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A server's metadata must be complete before the first request (KServe v2
// and Triton clients build their requests from it), but an MXNet export
// rarely records its input shapes, and MXNet's partial shape inference runs
// only forwards: the weights fix nothing about the data until the data's
// rank is known (infer_shape_partial(conv_weight=...) leaves data as ()).
// So Signature guesses and checks:
//
//  1. a template per data input: the shape hint when there is one; else
//     what the op that reads the input says of it (a Convolution of a k-d
//     kernel takes rank k+2 with weight.shape[1]*num_group channels, a
//     FullyConnected takes (batch, weight.shape[1]), an Embedding
//     (batch, steps), a BatchNorm gamma.shape[0] channels on axis 1 at
//     rank 4, 2, 3 or 5), else each rank 1..5 with every dim free;
//  2. the free dims are given trial sizes (224, 32, 28, 8, 299, ... common
//     image and sequence sizes, all free dims the same) until shape inference of
//     the whole graph with the params' shapes accepts them and knows every
//     output: the first such assignment is a shape the model takes;
//  3. each free dim is then moved alone to the other trial sizes: where the
//     graph accepts two of them the dim is free (-1 in the result) and every
//     output dim that moved with it is free too; else (a Flatten into a
//     Dense fixes 28x28) the dim is fixed.
//
// A size the graph fixes outside the trial sizes (a Dense after a Flatten
// of 6x6 maps) is not found; such an input then stays unknown as below. A
// shape hint (NAME-shapes.json, -shape) always settles it.
//
// Axis 0 of every input is the batch axis (-1), as the predictors reshape
// it per request. When no assignment is accepted (an op we do not know reads
// the input in a way no trial fits), the input keeps rank and dims unknown
// and the outputs are left out: metadata is then as before, never wrong.

// Signature is a model's inputs and outputs as far as the files determine
// them; -1 marks a dim each request chooses.
type Signature struct {
	Inputs   []TensorInfo
	Outputs  []TensorInfo
	Complete bool // every input's rank and every output are known
}

// trialSizes are tried in order for free dims (Note [Signature from the files]).
var trialSizes = []int64{224, 32, 28, 8, 299, 227, 256, 64, 96, 112, 128, 331, 384, 512, 16, 7, 1, 3}

// signatureGraph is the part of MXNet's symbol JSON templates are read from.
type signatureGraph struct {
	Nodes []struct {
		Op     string            `json:"op"`
		Name   string            `json:"name"`
		Inputs [][]int64         `json:"inputs"`
		Attrs  map[string]string `json:"attrs"`
		Attr   map[string]string `json:"attr"`  // MXNet < 1.0
		Param  map[string]string `json:"param"` // MXNet 0.x
	} `json:"nodes"`
}

// InferSignature computes the Signature of a graph and its params for the
// given data inputs (RequestInputNames) of the given dtypes; hints maps an
// input to a shape it is known to take (nil entries: none).
func InferSignature(symbolJSON string, params []byte, inputs []string, dtypes []DType,
	hints map[string][]int64) (*Signature, error) {
	if len(dtypes) != len(inputs) {
		return nil, argError("InferSignature", "%d dtypes for %d inputs", len(dtypes), len(inputs))
	}
	sym, err := SymbolFromJSON(symbolJSON)
	if err != nil {
		return nil, err
	}
	defer sym.Close()
	known := map[string][]int64{}
	if len(params) > 0 {
		p, err := LoadParamsBytes(params)
		if err != nil {
			return nil, err
		}
		for i, n := range p.Names {
			known[strings.TrimPrefix(strings.TrimPrefix(n, "arg:"), "aux:")] = p.Arrays[i].Shape()
		}
		p.Close() // only the shapes are needed
	}
	var g signatureGraph
	if err := json.Unmarshal([]byte(symbolJSON), &g); err != nil {
		return nil, argError("InferSignature", "the symbol JSON does not parse: %v", err)
	}
	templates := make([][][]int64, len(inputs))
	for i, name := range inputs {
		if h := hints[name]; h != nil {
			t := append([]int64(nil), h...)
			if len(t) > 0 {
				t[0] = 0
			}
			templates[i] = [][]int64{t}
			continue
		}
		templates[i] = inputTemplates(&g, name, known)
	}
	outNames, err := sym.Outputs()
	if err != nil {
		return nil, err
	}
	sig := &Signature{}
	base, outs, chosen := firstAccepted(sym, known, inputs, templates)
	if base == nil {
		for i, n := range inputs {
			sig.Inputs = append(sig.Inputs, TensorInfo{Name: n, Shape: []int64{-1}, DType: dtypes[i]})
		}
		return sig, nil
	}
	free := make([][]bool, len(inputs))
	outFree := make([][]bool, len(outs))
	for k, o := range outs {
		outFree[k] = make([]bool, len(o))
	}
	for i := range inputs {
		free[i] = make([]bool, len(base[i]))
		for d := range base[i] {
			if d > 0 && chosen[i][d] != 0 { // fixed by the hint or the reading op
				continue
			}
			// The batch axis is free by convention (one other size shows which
			// outputs follow it); another dim is free when two other trial sizes
			// pass, as one neighbour can pass by rounding (9x9 pools to 4x4 as
			// 8x8 does) where the graph still fixes the size.
			sizes, need := trialSizes, 2
			if d == 0 {
				sizes, need = []int64{2, 3}, 1
			}
			var moves [][][]int64
			for _, size := range sizes {
				if size == base[i][d] || len(moves) == need {
					continue
				}
				moved := cloneShapes(base)
				moved[i][d] = size
				if d == 0 { // the batch axis moves for every input together
					for j := range moved {
						if len(moved[j]) > 0 {
							moved[j][0] = size
						}
					}
				}
				if got := outputsAt(sym, known, inputs, moved); got != nil {
					moves = append(moves, got)
				}
			}
			if len(moves) < need {
				continue
			}
			free[i][d] = true
			for _, got := range moves {
				for k := range outs {
					for a := range outs[k] {
						if a >= len(got[k]) || got[k][a] != outs[k][a] {
							outFree[k][a] = true
						}
					}
				}
			}
		}
	}
	types, err := sym.InferType(dtypeMap(inputs, dtypes))
	if err != nil {
		return nil, err
	}
	for i, n := range inputs {
		shape := append([]int64(nil), base[i]...)
		for d := range shape {
			if free[i][d] || d == 0 {
				shape[d] = -1
			}
		}
		sig.Inputs = append(sig.Inputs, TensorInfo{Name: n, Shape: shape, DType: dtypes[i]})
	}
	for k, o := range outs {
		shape := append([]int64(nil), o...)
		for a := range shape {
			if outFree[k][a] {
				shape[a] = -1
			}
		}
		dt := Float32
		if k < len(types.Outputs) && types.Outputs[k] != DTypeUnknown {
			dt = types.Outputs[k]
		}
		sig.Outputs = append(sig.Outputs, TensorInfo{Name: outNames[k], Shape: shape, DType: dt})
	}
	sig.Complete = true
	return sig, nil
}

// inputTemplates lists candidate shapes (0: free) for a data input without
// a hint, from the first op that reads it (Note [Signature from the files]).
func inputTemplates(g *signatureGraph, name string, known map[string][]int64) [][]int64 {
	var generic [][]int64
	for r := 1; r <= 5; r++ {
		generic = append(generic, make([]int64, r))
	}
	at := -1
	for i, n := range g.Nodes {
		if (n.Op == "null" || n.Op == "") && n.Name == name {
			at = i
			break
		}
	}
	if at < 0 {
		return generic
	}
	for _, n := range g.Nodes {
		if len(n.Inputs) == 0 || len(n.Inputs[0]) == 0 || n.Inputs[0][0] != int64(at) {
			continue
		}
		attrs := n.Attrs
		if attrs == nil {
			attrs = n.Param
		}
		if attrs == nil {
			attrs = n.Attr
		}
		weight := func() []int64 {
			if len(n.Inputs) < 2 || len(n.Inputs[1]) == 0 || n.Inputs[1][0] < 0 ||
				n.Inputs[1][0] >= int64(len(g.Nodes)) {
				return nil
			}
			return known[g.Nodes[n.Inputs[1][0]].Name]
		}
		switch n.Op {
		case "Convolution", "Deconvolution":
			kernel := tupleAttr(attrs["kernel"])
			w := weight()
			layout := attrs["layout"]
			if len(kernel) == 0 || len(w) < 2 || (layout != "" && layout != "None" && !strings.HasPrefix(layout, "NC")) {
				break
			}
			t := make([]int64, len(kernel)+2)
			groups := int64(1)
			if v, err := strconv.ParseInt(attrs["num_group"], 10, 64); err == nil && v > 0 {
				groups = v
			}
			if n.Op == "Convolution" {
				t[1] = w[1] * groups
			} else {
				t[1] = w[0]
			}
			return append([][]int64{t}, generic...)
		case "FullyConnected":
			if w := weight(); len(w) == 2 {
				return append([][]int64{{0, w[1]}}, generic...)
			}
		case "Embedding":
			return append([][]int64{{0, 0}}, generic...)
		case "BatchNorm":
			// Model-zoo symbolic nets normalise the data first (resnet's bn_data):
			// gamma fixes axis 1, not the rank; images (rank 4) first.
			axis := attrs["axis"]
			if w := weight(); len(w) == 1 && (axis == "" || axis == "1") {
				var ts [][]int64
				for _, r := range []int{4, 2, 3, 5} {
					t := make([]int64, r)
					t[1] = w[0]
					ts = append(ts, t)
				}
				return append(ts, generic...)
			}
		}
		break // only the first reader is asked
	}
	return generic
}

// firstAccepted tries each input's templates with trial sizes for the free
// dims, all inputs together, and gives the first concrete shapes the graph
// accepts, its outputs' shapes and the templates chosen (nils when none).
func firstAccepted(sym *Symbol, known map[string][]int64, inputs []string, templates [][][]int64) ([][]int64,
	[][]int64, [][]int64) {
	const maxTries = 400 // shape inference is cheap, but a model of many inputs must not search forever
	tries := 0
	choice := make([]int, len(inputs))
	for {
		for _, size := range trialSizes {
			shapes := make([][]int64, len(inputs))
			for i := range inputs {
				t := templates[i][choice[i]]
				shapes[i] = make([]int64, len(t))
				for d, v := range t {
					switch {
					case d == 0 && v == 0:
						shapes[i][d] = 1
					case v == 0:
						shapes[i][d] = size
					default:
						shapes[i][d] = v
					}
				}
			}
			if tries++; tries > maxTries {
				return nil, nil, nil
			}
			if outs := outputsAt(sym, known, inputs, shapes); outs != nil {
				chosen := make([][]int64, len(inputs))
				for i := range inputs {
					chosen[i] = templates[i][choice[i]]
				}
				return shapes, outs, chosen
			}
		}
		// The next combination of templates (odometer order, the first input's fastest).
		i := 0
		for ; i < len(inputs); i++ {
			if choice[i]++; choice[i] < len(templates[i]) {
				break
			}
			choice[i] = 0
		}
		if i == len(inputs) {
			return nil, nil, nil
		}
	}
}

// outputsAt gives the output shapes when the graph accepts the inputs at
// these shapes and every output is then known; else nil.
func outputsAt(sym *Symbol, known map[string][]int64, inputs []string, shapes [][]int64) [][]int64 {
	given := make(map[string][]int64, len(known)+len(inputs))
	for n, s := range known {
		given[n] = s
	}
	for i, n := range inputs {
		given[n] = shapes[i]
	}
	res, err := sym.InferShapePartial(given)
	if err != nil || len(res.Outputs) == 0 {
		return nil
	}
	for _, o := range res.Outputs {
		if o == nil {
			return nil
		}
		for _, d := range o {
			if d <= 0 {
				return nil
			}
		}
	}
	return res.Outputs
}

func cloneShapes(s [][]int64) [][]int64 {
	out := make([][]int64, len(s))
	for i, v := range s {
		out[i] = append([]int64(nil), v...)
	}
	return out
}

func dtypeMap(names []string, dtypes []DType) map[string]DType {
	m := make(map[string]DType, len(names))
	for i, n := range names {
		m[n] = dtypes[i]
	}
	return m
}

// tupleAttr reads an MXNet tuple attribute, "(3, 3)" or "[3,3]" (nil when
// absent or malformed).
func tupleAttr(text string) []int64 {
	text = strings.Trim(strings.TrimSpace(text), "()[]")
	if text == "" {
		return nil
	}
	var out []int64
	for _, f := range strings.Split(text, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// String prints a signature as weft-predict -info does.
func (s *Signature) String() string {
	var b strings.Builder
	for _, t := range s.Inputs {
		fmt.Fprintf(&b, "input  %s %s %v\n", t.Name, t.DType, t.Shape)
	}
	for _, t := range s.Outputs {
		fmt.Fprintf(&b, "output %s %s %v\n", t.Name, t.DType, t.Shape)
	}
	return b.String()
}
