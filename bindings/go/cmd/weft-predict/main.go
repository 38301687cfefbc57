// Command weft-predict runs one forward pass of an exported model over a raw
// tensor file and prints the outputs as JSON. The cross-language tests use it:
//
//	weft-predict -symbol P-symbol.json -params P-0000.params -input in.bin -shape 4,10 \
//	    [-input-name data] [-dtype float32]
//
// in.bin holds the input's elements in C order, little-endian, of -dtype.
// Standard output gets
//
//	{"outputs":[{"name":"...","shape":[...],"data":[flat list]}]}
//
// with every float32 printed at full precision (shortest text that reads back
// to the same float32; NaN and infinities as the strings "NaN", "+Inf",
// "-Inf"). Errors go to standard error with exit status 1 (2 for bad flags).
//
//	weft-predict -symbol P-symbol.json -params P-0000.params -info [-shape S -input-name N]
//
// prints the model's input and output names, dtypes and shapes instead, as
// weft-serve's metadata gives them (info.go).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"weft.dev/weft"
)

func main() {
	symbol := flag.String("symbol", "", "the model's prefix-symbol.json")
	params := flag.String("params", "", "the model's prefix-NNNN.params")
	input := flag.String("input", "", "raw little-endian input tensor file")
	shape := flag.String("shape", "", "input shape, comma-separated, e.g. 4,10")
	inputName := flag.String("input-name", "data", "name of the data input")
	dtypeName := flag.String("dtype", "float32", "element type of the input file")
	showInfo := flag.Bool("info", false, "print the model's inputs and outputs (names, dtypes, shapes; -1: free) and exit")
	flag.Parse()
	if *showInfo && *symbol != "" && *params != "" {
		if err := info(os.Stdout, *symbol, *params, *shape, *inputName); err != nil {
			fmt.Fprintln(os.Stderr, "weft-predict:", err)
			os.Exit(1)
		}
		return
	}
	if *symbol == "" || *params == "" || *input == "" || *shape == "" {
		fmt.Fprintln(os.Stderr, "weft-predict: -symbol, -params, -input and -shape are required (or -symbol, "+
			"-params and -info)")
		flag.Usage()
		os.Exit(2)
	}
	if err := run(os.Stdout, *symbol, *params, *input, *shape, *inputName, *dtypeName); err != nil {
		fmt.Fprintln(os.Stderr, "weft-predict:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, symbolPath, paramsPath, inputPath, shapeText, inputName, dtypeName string) error {
	dims, err := parseShape(shapeText)
	if err != nil {
		return err
	}
	dtype, err := weft.ParseDType(dtypeName)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(inputPath)
	if err != nil {
		return err
	}
	pred, err := weft.LoadPredictor(symbolPath, paramsPath, []weft.Input{{Name: inputName, Shape: dims}})
	if err != nil {
		return err
	}
	defer pred.Close()
	var want weft.DType = -1
	for _, in := range pred.Inputs() {
		if in.Name == inputName {
			want = in.DType
		}
	}
	if want != dtype {
		return fmt.Errorf("input '%s' of the model is %s, -dtype says %s", inputName, want, dtype)
	}
	if err := pred.SetInputBytes(inputName, data); err != nil {
		return err
	}
	if err := pred.Forward(); err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	w.WriteString(`{"outputs":[`)
	for i, o := range pred.Outputs() {
		values, err := outputAsFloats(pred, i, o.DType)
		if err != nil {
			return err
		}
		if i > 0 {
			w.WriteByte(',')
		}
		name, _ := json.Marshal(o.Name)
		fmt.Fprintf(w, `{"name":%s,"shape":%s,"data":[`, name, intList(o.Shape))
		for j, v := range values {
			if j > 0 {
				w.WriteByte(',')
			}
			w.WriteString(v)
		}
		w.WriteString("]}")
	}
	w.WriteString("]}\n")
	return w.Flush()
}

// outputAsFloats formats output i's elements as JSON numbers.
func outputAsFloats(pred *weft.Predictor, i int, dtype weft.DType) ([]string, error) {
	switch dtype {
	case weft.Float32:
		v, err := pred.Output(i)
		return formatAll(v, func(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }), err
	case weft.Float64:
		v, err := weft.OutputOf[float64](pred, i)
		return formatAll(v, func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }), err
	case weft.Int32:
		v, err := weft.OutputOf[int32](pred, i)
		return formatAll(v, func(x int32) string { return strconv.FormatInt(int64(x), 10) }), err
	case weft.Int64:
		v, err := weft.OutputOf[int64](pred, i)
		return formatAll(v, func(x int64) string { return strconv.FormatInt(x, 10) }), err
	case weft.Uint8, weft.Bool:
		v, err := pred.OutputBytes(i)
		return formatAll(v, func(x byte) string { return strconv.Itoa(int(x)) }), err
	case weft.Int8:
		v, err := weft.OutputOf[int8](pred, i)
		return formatAll(v, func(x int8) string { return strconv.Itoa(int(x)) }), err
	}
	return nil, fmt.Errorf("output %d has dtype %s, which weft-predict cannot print", i, dtype)
}

func formatAll[T any](v []T, f func(T) string) []string {
	out := make([]string, len(v))
	for i, x := range v {
		s := f(x)
		if s == "NaN" || strings.HasSuffix(s, "Inf") {
			s = `"` + s + `"` // JSON has no NaN/Inf literals
		}
		out[i] = s
	}
	return out
}

func parseShape(text string) ([]int64, error) {
	var dims []int64
	for _, part := range strings.Split(text, ",") {
		d, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("bad -shape %q: want non-negative integers separated by commas", text)
		}
		dims = append(dims, d)
	}
	return dims, nil
}

func intList(v []int64) string {
	parts := make([]string, len(v))
	for i, d := range v {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
