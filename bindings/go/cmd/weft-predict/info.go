package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"weft.dev/weft"
)

// info prints what a server's metadata says of the model, computed from the
// files alone (weft.InferSignature; -1 where each request chooses):
//
//	{"inputs":[{"name":"data","datatype":"float32","shape":[-1,3,224,224]}],
//	 "outputs":[{"name":"...","datatype":"float32","shape":[-1,1000]}],"complete":true}
//
// "complete" is false when some input's rank could not be found; its shape
// is then [-1] and the outputs are left out. A shape given with -shape is
// taken as a hint for -input-name.
func info(out io.Writer, symbolPath, paramsPath, shapeText, inputName string) error {
	sym, err := os.ReadFile(symbolPath)
	if err != nil {
		return err
	}
	params, err := os.ReadFile(paramsPath)
	if err != nil {
		return err
	}
	names, err := weft.RequestInputNames(string(sym), params)
	if err != nil {
		return err
	}
	hints := map[string][]int64{}
	if shapeText != "" {
		dims, err := parseShape(shapeText)
		if err != nil {
			return err
		}
		hints[inputName] = dims
	}
	dtypes, err := inputDTypes(string(sym), names)
	if err != nil {
		return err
	}
	sig, err := weft.InferSignature(string(sym), params, names, dtypes, hints)
	if err != nil {
		return err
	}
	type tensorMeta struct {
		Name     string  `json:"name"`
		Datatype string  `json:"datatype"`
		Shape    []int64 `json:"shape"`
	}
	metas := func(ts []weft.TensorInfo) []tensorMeta {
		out := []tensorMeta{}
		for _, t := range ts {
			out = append(out, tensorMeta{t.Name, t.DType.String(), t.Shape})
		}
		return out
	}
	b, err := json.Marshal(map[string]any{"inputs": metas(sig.Inputs), "outputs": metas(sig.Outputs),
		"complete": sig.Complete})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", b)
	return err
}

// inputDTypes reads each input's __dtype__ attribute (MXNet's dtype flag), as
// weft-serve does; float32 where there is none.
func inputDTypes(symJSON string, names []string) ([]weft.DType, error) {
	sym, err := weft.SymbolFromJSON(symJSON)
	if err != nil {
		return nil, err
	}
	defer sym.Close()
	attrs, err := sym.Attrs()
	if err != nil {
		return nil, err
	}
	out := make([]weft.DType, len(names))
	for i, n := range names {
		out[i] = weft.Float32
		if flag, ok := attrs[n+"$__dtype__"]; ok {
			var f int
			if _, err := fmt.Sscan(flag, &f); err == nil {
				out[i] = weft.DType(f)
			}
		}
	}
	return out, nil
}
