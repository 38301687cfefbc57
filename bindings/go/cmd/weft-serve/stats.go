package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Triton's statistics extension (GET /v2/models[/NAME[/versions/V]]/stats):
// per model version, how many requests succeeded and failed and where their
// time went. Field names and meaning follow Triton's model_statistics
// protocol, so tritonclient's get_inference_statistics reads them:
//
//	success, fail     requests, and their time from admission to the reply's outputs
//	queue             waiting for a predictor slot (and, batched, for the batch to form)
//	compute_input     binding the request's shapes and copying its inputs in
//	compute_infer     the forward pass
//	compute_output    copying the outputs out
//	inference_count   rows predicted (each row of a batch is one inference, as in Triton)
//	execution_count   forward passes (dynamic batching makes fewer than requests)
//
// A batched request is charged its batch's compute times, as Triton does.

// runTiming is where one forward pass's time went (model.run).
type runTiming struct {
	started              time.Time // a predictor slot was taken
	input, infer, output time.Duration
}

// statDuration is Triton's StatisticDuration.
type statDuration struct {
	Count int64 `json:"count"`
	NS    int64 `json:"ns"`
}

func (d *statDuration) add(t time.Duration) { d.Count++; d.NS += int64(t) }

// inferenceStats is Triton's InferStatistics (the cache fields stay zero:
// weft-serve has no response cache).
type inferenceStats struct {
	Success       statDuration `json:"success"`
	Fail          statDuration `json:"fail"`
	Queue         statDuration `json:"queue"`
	ComputeInput  statDuration `json:"compute_input"`
	ComputeInfer  statDuration `json:"compute_infer"`
	ComputeOutput statDuration `json:"compute_output"`
	CacheHit      statDuration `json:"cache_hit"`
	CacheMiss     statDuration `json:"cache_miss"`
}

// modelStats accumulates one model version's statistics.
type modelStats struct {
	mu             sync.Mutex
	last           int64 // ms since the epoch of the last success, 0 before
	inferenceCount int64
	executionCount int64
	stats          inferenceStats
}

// executed counts a forward pass.
func (s *modelStats) executed() {
	s.mu.Lock()
	s.executionCount++
	s.mu.Unlock()
}

// record adds a finished request: admitted at start, with rows rows, the
// timing of the pass that served it (zero when it never ran) and its error.
func (s *modelStats) record(start time.Time, rows int64, tm runTiming, err error) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.stats.Fail.add(now.Sub(start))
		return
	}
	s.stats.Success.add(now.Sub(start))
	if !tm.started.IsZero() {
		s.stats.Queue.add(max(0, tm.started.Sub(start)))
	}
	s.stats.ComputeInput.add(tm.input)
	s.stats.ComputeInfer.add(tm.infer)
	s.stats.ComputeOutput.add(tm.output)
	s.inferenceCount += rows
	s.last = now.UnixMilli()
}

// tritonModelStats is Triton's ModelStatistics.
type tritonModelStats struct {
	Name           string         `json:"name"`
	Version        string         `json:"version"`
	LastInference  int64          `json:"last_inference"`
	InferenceCount int64          `json:"inference_count"`
	ExecutionCount int64          `json:"execution_count"`
	InferenceStats inferenceStats `json:"inference_stats"`
	BatchStats     []any          `json:"batch_stats"`
}

func (m *model) tritonStats() tritonModelStats {
	m.stats.mu.Lock()
	defer m.stats.mu.Unlock()
	return tritonModelStats{Name: m.name, Version: strconv.Itoa(m.version), LastInference: m.stats.last,
		InferenceCount: m.stats.inferenceCount, ExecutionCount: m.stats.executionCount,
		InferenceStats: m.stats.stats, BatchStats: []any{}}
}

// v2Stats answers the statistics extension (statistics).
func (s *server) v2Stats(w http.ResponseWriter, name, version string) {
	out, err := s.statistics(name, version)
	if err != nil {
		writeLookupError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"model_stats": out})
}

// statistics gives every loaded version of every model (name ""), of one
// model, or one version of it; its error is a *lookupError.
func (s *server) statistics(name, version string) ([]tritonModelStats, error) {
	out := []tritonModelStats{}
	names := s.reg.names()
	if name != "" {
		if s.reg.entry(name) == nil {
			return nil, &lookupError{http.StatusNotFound, fmt.Sprintf("unknown model '%s' (models: %s)", name,
				strings.Join(names, ", "))}
		}
		names = []string{name}
	}
	for _, n := range names {
		if version != "" {
			m, err := s.reg.acquire(n, version)
			if err != nil {
				return nil, err
			}
			out = append(out, m.tritonStats())
			m.refs.Done()
			continue
		}
		for _, m := range s.reg.loaded(n) {
			out = append(out, m.tritonStats())
			m.refs.Done()
		}
	}
	return out, nil
}
