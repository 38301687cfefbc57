package weft

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfilerTracesEngineOps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	if err := ProfilerSetConfig(map[string]string{"profile_all": "True", "aggregate_stats": "True",
		"continuous_dump": "False", "filename": path}); err != nil {
		t.Fatal(err)
	}
	if err := ProfilerSetState(true); err != nil {
		t.Fatal(err)
	}
	a, err := FromSlice([]float32{1, 2, 3}, 3) // one copy_from_host op
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := WaitAll(); err != nil {
		t.Fatal(err)
	}
	if err := ProfilerSetState(false); err != nil {
		t.Fatal(err)
	}
	if err := ProfilerDump(true); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var trace struct {
		TraceEvents []struct {
			Name string `json:"name"`
			Cat  string `json:"cat"`
			Ph   string `json:"ph"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(raw, &trace); err != nil {
		t.Fatalf("trace is not JSON: %v", err)
	}
	copies := 0
	for _, e := range trace.TraceEvents {
		if e.Cat == "operator" && e.Name == "copy_from_host" && e.Ph == "X" {
			copies++
		}
	}
	if copies != 1 {
		t.Fatalf("want one copy_from_host event, got %d in %s", copies, raw)
	}
	table, err := ProfilerDumps(true, false)
	if err != nil || !strings.Contains(table, "copy_from_host") {
		t.Fatalf("aggregate table lacks the op (err %v):\n%s", err, table)
	}
	err = ProfilerSetConfig(map[string]string{"no_such_key": "1"})
	if !IsStatus(err, StatusInvalidArgument) || !strings.Contains(err.Error(), "no_such_key") {
		t.Fatalf("want an error naming the key, got %v", err)
	}
}
