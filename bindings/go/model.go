package weft

import "strings"

// DataInputNames lists the arguments of a graph that the parameter file does
// not hold: the data inputs a Predictor must be given shapes for, in argument
// order. Parameter names may carry "arg:"/"aux:" prefixes.
func DataInputNames(symbolJSON string, params []byte) ([]string, error) {
	sym, err := SymbolFromJSON(symbolJSON)
	if err != nil {
		return nil, err
	}
	defer sym.Close()
	args, err := sym.Arguments()
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	if len(params) > 0 {
		p, err := LoadParamsBytes(params)
		if err != nil {
			return nil, err
		}
		// Only the names are needed; free the arrays now, not at the next GC.
		p.Close()
		for _, n := range p.Names {
			have[strings.TrimPrefix(strings.TrimPrefix(n, "arg:"), "aux:")] = true
		}
	}
	var inputs []string
	for _, a := range args {
		if !have[a] {
			inputs = append(inputs, a)
		}
	}
	return inputs, nil
}
