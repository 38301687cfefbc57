package weft

// #include <stdlib.h>
// #include <weft/c_api.h>
import "C"

import (
	"encoding/json"
	"fmt"
	"unsafe"
)

// symbolGraph is the part of MXNet's symbol JSON that says who reads whom.
type symbolGraph struct {
	Nodes []struct {
		Op     string    `json:"op"`
		Name   string    `json:"name"`
		Inputs [][]int64 `json:"inputs"`
	} `json:"nodes"`
}

// LabelInputNames lists the variables of a graph that are read only as the
// "label" input of a loss output (softmax_label of SoftmaxOutput,
// LinearRegressionOutput's label, ...). The predict API binds those to zeros
// when they are not given (inference never reads them), so a server need not
// ask a client for them. Names come in node order.
func LabelInputNames(symbolJSON string) ([]string, error) {
	var g symbolGraph
	if err := json.Unmarshal([]byte(symbolJSON), &g); err != nil {
		return nil, argError("LabelInputNames", "the symbol JSON does not parse: %v", err)
	}
	inputNames := map[string][]string{} // op -> its schema's input names
	onlyLabel := map[int64]bool{}       // variable node -> every read so far is a label
	for _, n := range g.Nodes {
		if n.Op == "null" || n.Op == "" {
			continue
		}
		names, ok := inputNames[n.Op]
		if !ok {
			var err error
			if names, err = opInputNames(n.Op); err != nil {
				return nil, err
			}
			inputNames[n.Op] = names
		}
		for k, in := range n.Inputs {
			if len(in) == 0 || in[0] < 0 || in[0] >= int64(len(g.Nodes)) {
				return nil, argError("LabelInputNames", "node '%s' reads node %v, which does not exist", n.Name, in)
			}
			isLabel := k < len(names) && names[k] == "label"
			seen, was := onlyLabel[in[0]]
			onlyLabel[in[0]] = isLabel && (!was || seen)
		}
	}
	var out []string
	for i, n := range g.Nodes {
		if (n.Op == "null" || n.Op == "") && onlyLabel[int64(i)] {
			out = append(out, n.Name)
		}
	}
	return out, nil
}

// opInputNames gives the input names of a registered op's schema (empty for
// variadic ops, whose inputs are not named).
func opInputNames(op string) ([]string, error) {
	cname, err := cString("opInputNames", "the operator name", op)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cname))
	var schema struct {
		Inputs []string `json:"inputs"`
	}
	err = onThread(func() error {
		var h *C.weft_op
		if err := check("weft_op_find", C.weft_op_find(cname, &h)); err != nil {
			return err
		}
		var text *C.char
		if err := check("weft_op_schema", C.weft_op_schema(h, &text)); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(C.GoString(text)), &schema); err != nil {
			return &Error{Status: StatusInternal, Func: "weft_op_schema", Message: fmt.Sprintf("schema of %s: %v", op, err)}
		}
		return nil
	})
	return schema.Inputs, err
}

// RequestInputNames lists the inputs a client must supply to a predictor of
// this graph: DataInputNames without LabelInputNames.
func RequestInputNames(symbolJSON string, params []byte) ([]string, error) {
	data, err := DataInputNames(symbolJSON, params)
	if err != nil {
		return nil, err
	}
	labels, err := LabelInputNames(symbolJSON)
	if err != nil {
		return nil, err
	}
	isLabel := map[string]bool{}
	for _, l := range labels {
		isLabel[l] = true
	}
	var out []string
	for _, d := range data {
		if !isLabel[d] {
			out = append(out, d)
		}
	}
	return out, nil
}
