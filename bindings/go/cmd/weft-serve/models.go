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
)

// modelFiles are the files of one model found in the model directory.
type modelFiles struct {
	name       string
	symbolPath string
	versions   map[int]string // epoch -> NAME-NNNN.params
	shapesPath string         // NAME-shapes.json when present
}

var paramsFile = regexp.MustCompile(`^(.+)-(\d{4,})\.params$`)

// findModels lists the models of dir: every NAME-symbol.json, with its
// NAME-NNNN.params files (each epoch NNNN a version).
func findModels(dir string) (map[string]*modelFiles, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("model directory: %w", err)
	}
	byName := map[string]*modelFiles{}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), "-symbol.json"); ok && name != "" && !e.IsDir() {
			byName[name] = &modelFiles{name: name, symbolPath: filepath.Join(dir, e.Name()), versions: map[int]string{}}
		}
	}
	for _, e := range entries {
		m := paramsFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() || byName[m[1]] == nil {
			continue
		}
		if epoch, err := strconv.Atoi(m[2]); err == nil {
			byName[m[1]].versions[epoch] = filepath.Join(dir, e.Name())
		}
	}
	for name, mf := range byName {
		if p := filepath.Join(dir, name+"-shapes.json"); fileExists(p) {
			mf.shapesPath = p
		}
	}
	return byName, nil
}

// epochs gives the versions newest first.
func (mf *modelFiles) epochs() []int {
	out := make([]int, 0, len(mf.versions))
	for v := range mf.versions {
		out = append(out, v)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// stamp identifies a file's content cheaply (size and modification time), so
// the poller notices a file that appears, changes or goes.
func stamp(path string) string {
	if path == "" {
		return "-"
	}
	st, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d@%d", st.Size(), st.ModTime().UnixNano())
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

// shapeHints reads the optional shapes a model is first bound at: the -shape
// flags, else NAME-shapes.json ({"data": [1, 3, 8, 8]}); the input's
// __shape__ attribute is the last resort (in newModel). Requests bring their
// own shapes; a hint only lets the model be checked fully at load.
func shapeHints(mf *modelFiles, flags shapeFlags) (map[string][]int64, error) {
	if f := flags[mf.name]; f != nil {
		return f, nil
	}
	out := map[string][]int64{}
	if mf.shapesPath == "" {
		return out, nil
	}
	b, err := os.ReadFile(mf.shapesPath)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: want {\"INPUT\": [dims...]}: %v", mf.shapesPath, err)
	}
	for name, shape := range out {
		for _, d := range shape {
			if d <= 0 || len(shape) == 0 {
				return nil, fmt.Errorf("%s: input '%s' has shape %v: dims must be positive", mf.shapesPath, name, shape)
			}
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
