package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft"
)

// modelFiles are the files of one model found in the model directory.
type modelFiles struct {
	name       string
	symbolPath string
	paramsPath string // the highest epoch's; "" when the model has none
	epoch      int
	shapesPath string // name-shapes.json when present
}

var paramsFile = regexp.MustCompile(`^(.+)-(\d{4,})\.params$`)

// findModels lists the models of dir: every name-symbol.json, with the
// name-NNNN.params of the highest epoch NNNN.
func findModels(dir string) ([]modelFiles, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("model directory: %w", err)
	}
	byName := map[string]*modelFiles{}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), "-symbol.json"); ok && name != "" && !e.IsDir() {
			byName[name] = &modelFiles{name: name, symbolPath: filepath.Join(dir, e.Name()), epoch: -1}
		}
	}
	for _, e := range entries {
		m := paramsFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() || byName[m[1]] == nil {
			continue
		}
		epoch, err := strconv.Atoi(m[2])
		if err != nil {
			continue
		}
		if mf := byName[m[1]]; epoch > mf.epoch {
			mf.epoch, mf.paramsPath = epoch, filepath.Join(dir, e.Name())
		}
	}
	var out []modelFiles
	for name, mf := range byName {
		if p := filepath.Join(dir, name+"-shapes.json"); fileExists(p) {
			mf.shapesPath = p
		}
		out = append(out, *mf)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(out) == 0 {
		return nil, fmt.Errorf("no models in %s (want NAME-symbol.json with NAME-NNNN.params)", dir)
	}
	return out, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// shapeFlags collects -shape NAME:INPUT=D0,D1,... flags.
type shapeFlags map[string]map[string][]int64

func (s shapeFlags) String() string { return fmt.Sprint(map[string]map[string][]int64(s)) }

func (s shapeFlags) Set(v string) error {
	model, rest, ok1 := strings.Cut(v, ":")
	input, dims, ok2 := strings.Cut(rest, "=")
	if !ok1 || !ok2 || model == "" || input == "" {
		return fmt.Errorf("want MODEL:INPUT=D0,D1,..., got %q", v)
	}
	shape, err := parseDims(dims)
	if err != nil {
		return err
	}
	if s[model] == nil {
		s[model] = map[string][]int64{}
	}
	s[model][input] = shape
	return nil
}

func parseDims(text string) ([]int64, error) {
	var dims []int64
	for _, part := range strings.Split(text, ",") {
		d, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("bad shape %q: want positive integers separated by commas", text)
		}
		dims = append(dims, d)
	}
	return dims, nil
}

// inputShapes decides the bound shape of every data input: from the -shape
// flags, else NAME-shapes.json ({"data": [1, 3, 8, 8]}), else the input
// variable's __shape__ attribute (a leading 0, MXNet's unknown batch, becomes 1).
// The leading dimension is the batch size and varies per request.
func inputShapes(mf modelFiles, inputs []string, sym *weft.Symbol, flags shapeFlags) ([]weft.Input, error) {
	fromFile := map[string][]int64{}
	if mf.shapesPath != "" {
		b, err := os.ReadFile(mf.shapesPath)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &fromFile); err != nil {
			return nil, fmt.Errorf("%s: want {\"INPUT\": [dims...]}: %v", mf.shapesPath, err)
		}
	}
	attrs, err := sym.Attrs()
	if err != nil {
		return nil, err
	}
	var out []weft.Input
	for _, name := range inputs {
		shape, where := flags[mf.name][name], "flag"
		if shape == nil {
			shape, where = fromFile[name], mf.shapesPath
		}
		if shape == nil {
			shape, where = shapeAttr(attrs[name+"$__shape__"]), "the __shape__ attribute"
		}
		if shape == nil {
			return nil, fmt.Errorf("model %s: no shape for input '%s': give -shape %s:%s=1,... or write %s-shapes.json",
				mf.name, name, mf.name, name, mf.name)
		}
		if len(shape) == 0 {
			return nil, fmt.Errorf("model %s: input '%s' (from %s) has no batch axis", mf.name, name, where)
		}
		for _, d := range shape {
			if d <= 0 {
				return nil, fmt.Errorf("model %s: input '%s' has shape %v (from %s): dims must be positive",
					mf.name, name, shape, where)
			}
		}
		out = append(out, weft.Input{Name: name, Shape: shape})
	}
	for name := range flags[mf.name] {
		if !contains(inputs, name) {
			return nil, fmt.Errorf("model %s: -shape names '%s', which is not a data input (inputs: %v)",
				mf.name, name, inputs)
		}
	}
	return out, nil
}

// shapeAttr reads "(0, 3, 8, 8)"; nil when absent or any non-batch dim is unknown.
func shapeAttr(text string) []int64 {
	text = strings.Trim(strings.TrimSpace(text), "()[]")
	if text == "" {
		return nil
	}
	var dims []int64
	for i, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		d, err := strconv.ParseInt(part, 10, 64)
		if err != nil || d < 0 || (d == 0 && i > 0) {
			return nil
		}
		if d == 0 {
			d = 1
		}
		dims = append(dims, d)
	}
	return dims
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
