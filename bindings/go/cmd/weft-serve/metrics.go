package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// metrics holds the counters and histograms of /metrics, written in the
// Prometheus text exposition format (version 0.0.4) by hand: the module has
// no dependencies. Gauges (queue depth, predictors in use, model state) are
// read from the registry at scrape time.
type metrics struct {
	mu       sync.Mutex
	requests map[[4]string]float64 // model, version, protocol, code -> count
	latency  map[[2]string]*histogram
	batches  map[string]*histogram // model -> rows per forward pass
	rejected map[string]float64    // model -> 429s
	loads    map[[2]string]float64 // model, result -> (re)loads
}

var (
	latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
	batchBuckets   = []float64{1, 2, 4, 8, 16, 32, 64, 128, 256}
)

type histogram struct {
	bounds []float64
	counts []uint64 // per bucket (not cumulative); the last is +Inf
	sum    float64
	n      uint64
}

func newHistogram(bounds []float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]uint64, len(bounds)+1)}
}

func (h *histogram) observe(v float64) {
	i := sort.SearchFloat64s(h.bounds, v) // first bound >= v: le is inclusive
	h.counts[i]++
	h.sum += v
	h.n++
}

func newMetrics() *metrics {
	return &metrics{requests: map[[4]string]float64{}, latency: map[[2]string]*histogram{},
		batches: map[string]*histogram{}, rejected: map[string]float64{}, loads: map[[2]string]float64{}}
}

// observeRequest counts one inference request of model (version, protocol
// "v1" or "v2") that ended with HTTP status code after d.
func (mt *metrics) observeRequest(model, version, protocol string, code int, d time.Duration) {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	c := strconv.Itoa(code)
	mt.requests[[4]string{model, version, protocol, c}]++
	k := [2]string{model, c}
	h := mt.latency[k]
	if h == nil {
		h = newHistogram(latencyBuckets)
		mt.latency[k] = h
	}
	h.observe(d.Seconds())
	if code == 429 {
		mt.rejected[model]++
	}
}

func (mt *metrics) observeBatch(model string, rows int64) {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	h := mt.batches[model]
	if h == nil {
		h = newHistogram(batchBuckets)
		mt.batches[model] = h
	}
	h.observe(float64(rows))
}

func (mt *metrics) observeLoad(model string, ok bool) {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	result := "ok"
	if !ok {
		result = "error"
	}
	mt.loads[[2]string{model, result}]++
}

// gaugeRow is one sample of a gauge read at scrape time.
type gaugeRow struct {
	labels []string // name, value pairs
	value  float64
}

type gauge struct {
	name, help string
	rows       []gaugeRow
}

// write renders every metric; gauges come from the caller.
func (mt *metrics) write(w io.Writer, gauges []gauge) {
	mt.mu.Lock()
	defer mt.mu.Unlock()
	var b strings.Builder
	header(&b, "weft_requests_total", "counter", "Inference requests by model, version, protocol and HTTP status code.")
	for _, k := range sortedKeys4(mt.requests) {
		sample(&b, "weft_requests_total", []string{"model", k[0], "version", k[1], "protocol", k[2], "code", k[3]},
			mt.requests[k])
	}
	header(&b, "weft_request_duration_seconds", "histogram", "Inference request latency by model and HTTP status code.")
	for _, k := range sortedKeys2(mt.latency) {
		writeHistogram(&b, "weft_request_duration_seconds", []string{"model", k[0], "code", k[1]}, mt.latency[k])
	}
	header(&b, "weft_batch_size", "histogram", "Rows per forward pass (dynamic batching makes them larger than requests).")
	for _, k := range sortedKeys1(mt.batches) {
		writeHistogram(&b, "weft_batch_size", []string{"model", k}, mt.batches[k])
	}
	header(&b, "weft_rejected_requests_total", "counter", "Requests refused with 429 because the model's queue was full.")
	for _, k := range sortedKeys1(mt.rejected) {
		sample(&b, "weft_rejected_requests_total", []string{"model", k}, mt.rejected[k])
	}
	header(&b, "weft_model_loads_total", "counter", "Model (re)loads by result (ok, error).")
	for _, k := range sortedKeys2(mt.loads) {
		sample(&b, "weft_model_loads_total", []string{"model", k[0], "result", k[1]}, mt.loads[k])
	}
	for _, g := range gauges {
		header(&b, g.name, "gauge", g.help)
		for _, r := range g.rows {
			sample(&b, g.name, r.labels, r.value)
		}
	}
	io.WriteString(w, b.String())
}

func header(b *strings.Builder, name, kind, help string) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, escapeHelp(help), name, kind)
}

func writeHistogram(b *strings.Builder, name string, labels []string, h *histogram) {
	var cum uint64
	for i, bound := range h.bounds {
		cum += h.counts[i]
		sample(b, name+"_bucket", append(append([]string(nil), labels...), "le", formatFloat(bound)), float64(cum))
	}
	sample(b, name+"_bucket", append(append([]string(nil), labels...), "le", "+Inf"), float64(h.n))
	sample(b, name+"_sum", labels, h.sum)
	sample(b, name+"_count", labels, float64(h.n))
}

func sample(b *strings.Builder, name string, labels []string, v float64) {
	b.WriteString(name)
	if len(labels) > 0 {
		b.WriteByte('{')
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(b, `%s="%s"`, labels[i], escapeLabel(labels[i+1]))
		}
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	b.WriteString(formatFloat(v))
	b.WriteByte('\n')
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// escapeLabel escapes a label value as the text format wants: \\, \" and \n.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

// escapeHelp escapes HELP text: \\ and \n.
func escapeHelp(s string) string { return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s) }

func sortedKeys1[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedKeys2[V any](m map[[2]string]V) [][2]string {
	out := make([][2]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0]+"\x00"+out[i][1] < out[j][0]+"\x00"+out[j][1] })
	return out
}

func sortedKeys4(m map[[4]string]float64) [][4]string {
	out := make([][4]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i][:], "\x00") < strings.Join(out[j][:], "\x00") })
	return out
}
