package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"weft.dev/weft"
)

// config is what main reads from its flags.
type config struct {
	modelDir     string
	grpcAddr     string        // the gRPC API's listen address ("": off; Note [gRPC API])
	poolSize     int           // predictions running at once per model version
	queueMax     int           // requests waiting beyond those, per model version; more get 429
	batchMax     int           // >1 turns dynamic batching on
	batchDelay   time.Duration // how long a batch waits for more requests
	maxBody      int64         // bytes
	maxShapes    int           // input shapes with cached predictors, per model version
	maxVersions  int           // newest epochs served per model
	timeout      time.Duration // default request deadline
	poll         time.Duration // model directory rescan interval (0: never)
	shapes       shapeFlags    // optional shape hints
	probeTimeout time.Duration // longest load probe of a new version (Note [Load probe])
	probeMemory  int64         // address space a load probe may add, bytes; < 0: no limit
	logger       *slog.Logger  // nil: no logs
	quiet        bool          // no per-request log lines
}

func (c *config) defaults() {
	if c.poolSize < 1 {
		c.poolSize = 2
	}
	if c.queueMax < 0 {
		c.queueMax = 0
	}
	if c.maxBody < 1 {
		c.maxBody = 16 << 20
	}
	if c.maxShapes < 1 {
		c.maxShapes = 16
	}
	if c.maxVersions < 1 {
		c.maxVersions = 3
	}
	if c.timeout <= 0 {
		c.timeout = 30 * time.Second
	}
	if c.shapes == nil {
		c.shapes = shapeFlags{}
	}
	if c.probeTimeout <= 0 {
		c.probeTimeout = time.Minute
	}
	if c.probeMemory == 0 {
		c.probeMemory = 8 << 30
	}
	if c.logger == nil {
		c.logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
}

// server answers the HTTP API over the registry.
type server struct {
	cfg     config
	reg     *registry
	metrics *metrics
	log     *slog.Logger
}

func newServer(cfg config) (*server, error) {
	cfg.defaults()
	mt := newMetrics()
	s := &server{cfg: cfg, metrics: mt, log: cfg.logger, reg: newRegistry(cfg, mt, cfg.logger)}
	if err := s.reg.scan(); err != nil {
		return nil, err
	}
	for name := range cfg.shapes {
		if s.reg.entry(name) == nil {
			s.close()
			return nil, fmt.Errorf("-shape names model %s, which is not in %s", name, cfg.modelDir)
		}
	}
	if len(s.reg.names()) == 0 {
		s.log.Warn("no models yet (want NAME-symbol.json with NAME-NNNN.params); watching the directory",
			"dir", cfg.modelDir)
	}
	return s, nil
}

// close frees the models; call it after the HTTP server has stopped.
func (s *server) close() { s.reg.close() }

// handler routes the API; every request gets an id, a log line and, for
// inference, metrics.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", s.healthz)
	mux.HandleFunc("/metrics", s.serveMetrics)
	mux.HandleFunc("/v1/models", s.listModels)
	mux.HandleFunc("/v1/models/", s.modelRoute)
	mux.HandleFunc("/v2", s.v2ServerMetadata)
	mux.HandleFunc("/v2/", s.v2Route)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint %s (see GET /v1/models or GET /v2)", r.URL.Path)
	})
	return s.instrument(mux)
}

func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "models": len(s.reg.names()), "ready": s.reg.ready()})
}

func (s *server) listModels(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	names := s.reg.names()
	list := make([]modelInfo, 0, len(names))
	for _, name := range names {
		if e := s.reg.entry(name); e != nil {
			list = append(list, s.describe(e))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": list})
}

// modelRoute serves /v1/models/{name} and /v1/models/{name}:predict.
func (s *server) modelRoute(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/v1/models/")
	name, verb, hasVerb := strings.Cut(rest, ":")
	e := s.reg.entry(name)
	if e == nil || strings.Contains(name, "/") {
		writeError(w, http.StatusNotFound, "unknown model '%s' (models: %s)", name, strings.Join(s.reg.names(), ", "))
		return
	}
	switch {
	case !hasVerb:
		if allowMethod(w, r, http.MethodGet) {
			writeJSON(w, http.StatusOK, s.describe(e))
		}
	case verb == "predict":
		if allowMethod(w, r, http.MethodPost) {
			s.predictV1(w, r, name)
		}
	default:
		writeError(w, http.StatusNotFound, "unknown action ':%s' (want :predict)", verb)
	}
}

type tensorInfo struct {
	Name  string  `json:"name"`
	Shape []int64 `json:"shape"` // -1: given by each request
	DType string  `json:"dtype"`
}

type modelInfo struct {
	Name      string       `json:"name"`
	Epoch     int          `json:"epoch"` // the default version; -1 when none can answer
	Versions  []int        `json:"versions"`
	Ready     bool         `json:"ready"`
	Error     string       `json:"error,omitempty"`
	Inputs    []tensorInfo `json:"inputs"`
	Outputs   []tensorInfo `json:"outputs"`
	BatchAxis int          `json:"batch_axis"`       // axis 0 of every input takes any size
	MaxBatch  int          `json:"dynamic_batching"` // rows per dynamic batch, 0 when off
	PoolSize  int          `json:"pool_size"`
}

func (s *server) describe(e *modelEntry) modelInfo {
	ready, why := e.status()
	info := modelInfo{Name: e.name, Epoch: e.latest(), Versions: e.sortedVersions(), Ready: ready, Error: why,
		Inputs: []tensorInfo{}, Outputs: []tensorInfo{}, PoolSize: s.cfg.poolSize}
	if ready {
		m := e.versions[info.Epoch].m
		for i, t := range m.tensorInfos(true) {
			info.Inputs = append(info.Inputs, tensorInfo{t.Name, t.Shape, m.inputDTypes()[i].String()})
		}
		for _, t := range m.tensorInfos(false) {
			info.Outputs = append(info.Outputs, tensorInfo{t.Name, t.Shape, t.DType.String()})
		}
		if m.batcher != nil {
			info.MaxBatch = int(m.batcher.maxRows)
		}
	}
	return info
}

// tensorInfos gives the inputs (or outputs) for metadata: the signature
// computed at load when it is complete; else the shapes of the shape hint
// (or of the first request), with the batch axis -1 (any size), and dims -1
// throughout for inputs whose shape no one gave yet.
func (m *model) tensorInfos(inputs bool) []weft.TensorInfo {
	if m.sig != nil && m.sig.Complete { // computed at load: free dims are -1, not the first request's
		src := m.sig.Outputs
		if inputs {
			src = m.sig.Inputs
		}
		out := make([]weft.TensorInfo, len(src))
		for i, t := range src {
			out[i] = weft.TensorInfo{Name: t.Name, Shape: append([]int64(nil), t.Shape...), DType: t.DType}
		}
		return out
	}
	m.rootMu.RLock()
	defer m.rootMu.RUnlock()
	fixed := m.fixed.Load()
	var src []weft.TensorInfo
	switch {
	case m.root != nil && inputs:
		src = m.root.Inputs()
	case m.root != nil:
		src = fixed.outputs
	case inputs:
		for i, in := range m.inputs {
			src = append(src, weft.TensorInfo{Name: in.name, Shape: []int64{-1}, DType: fixed.dtypes[i]})
		}
	}
	out := make([]weft.TensorInfo, 0, len(src))
	for _, t := range src {
		shape := append([]int64(nil), t.Shape...)
		if len(shape) > 0 {
			shape[0] = -1
		}
		out = append(out, weft.TensorInfo{Name: t.Name, Shape: shape, DType: t.DType})
	}
	return out
}

// readBody reads the request body within -max-body, answering the error.
func (s *server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	limited := http.MaxBytesReader(w, r.Body, s.cfg.maxBody)
	var body []byte
	var err error
	if n := r.ContentLength; n > 0 && n <= s.cfg.maxBody {
		// One buffer of the declared size: io.ReadAll starts at 512 bytes and
		// doubles, a dozen allocations and copies for a 600 KB image (issue 42
		// point 7). net/http holds the body to its Content-Length, so a short
		// body is an error here and a longer one is never read.
		body = make([]byte, n)
		_, err = io.ReadFull(limited, body)
	} else {
		body, err = io.ReadAll(limited)
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body over the limit of %d bytes", tooBig.Limit)
		} else {
			writeError(w, http.StatusBadRequest, "reading the request body: %v", err)
		}
		return nil, false
	}
	return body, true
}

func (s *server) predictV1(w http.ResponseWriter, r *http.Request, name string) {
	info := requestInfoOf(r)
	info.model, info.protocol = name, "v1"
	contentType := r.Header.Get("Content-Type")
	kind := bodyKindOf(contentType)
	if kind == bodyRefused {
		writeError(w, http.StatusUnsupportedMediaType,
			"Content-Type %q: want application/json or application/octet-stream", contentType)
		return
	}
	m, err := s.reg.acquire(name, "")
	if err != nil {
		writeLookupError(w, err)
		return
	}
	defer m.refs.Done()
	info.version = strconv.Itoa(m.version)
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	if kind == bodyLenient {
		if err := lenientJSON(contentType, body); err != nil {
			writeError(w, http.StatusUnsupportedMediaType, "%v", err)
			return
		}
	}
	raw := kind == bodyOctet
	var inputs []tensor
	if raw {
		inputs, err = decodeRawInput(m, r.Header, body)
	} else {
		inputs, err = decodeJSONInputs(m, body)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	timeout, err := requestTimeout(r, 0, s.cfg.timeout)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	outputs, status, err := s.infer(r.Context(), m, inputs, timeout)
	if err != nil {
		writeInferError(w, status, m, timeout, err)
		return
	}
	names := outputNames(m)
	if raw {
		i, err := rawOutputIndex(m, names, r)
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		writeRawOutput(w, names[i], outputs[i])
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(encodeJSONOutputs(m, names, outputs))
}

func outputNames(m *model) []string {
	infos := m.outputInfos()
	names := make([]string, len(infos))
	for i, o := range infos {
		names[i] = o.Name
	}
	return names
}

// infer admits a validated request to m's queue and predicts it within
// timeout. status is the HTTP status for err.
func (s *server) infer(ctx context.Context, m *model, inputs []tensor, timeout time.Duration) ([]tensor, int, error) {
	start := time.Now()
	if err := m.admit(); err != nil {
		m.stats.record(start, 0, runTiming{}, err)
		return nil, http.StatusTooManyRequests, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	outputs, tm, err := m.predict(ctx, inputs) // leaves the queue when the work ends
	m.stats.record(start, inputs[0].rows(), tm, err)
	var bad badShapeError
	var broken errVersionBroken
	switch {
	case err == nil:
		return outputs, http.StatusOK, nil
	case errors.As(err, &bad):
		return nil, http.StatusBadRequest, err
	case errors.As(err, &broken):
		return nil, http.StatusServiceUnavailable, err
	case errors.Is(err, context.DeadlineExceeded):
		return nil, http.StatusGatewayTimeout, err
	case errors.Is(err, context.Canceled), errors.Is(err, weft.ErrPoolClosed), errors.Is(err, errBatcherStopped):
		return nil, http.StatusServiceUnavailable, err
	}
	return nil, http.StatusInternalServerError, err
}

func writeInferError(w http.ResponseWriter, status int, m *model, timeout time.Duration, err error) {
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	writeError(w, status, "%s", inferErrorText(status, m, timeout, err))
}

// inferErrorText is the message for server.infer's error (REST and gRPC).
func inferErrorText(status int, m *model, timeout time.Duration, err error) string {
	switch status {
	case http.StatusTooManyRequests:
		return fmt.Sprintf("model %s is busy: %d requests are running or waiting (the most it queues); retry later",
			m.name, m.poolSize+m.queueMax)
	case http.StatusGatewayTimeout:
		return fmt.Sprintf("model %s: the request's deadline of %s passed before its prediction was done",
			m.name, timeout)
	case http.StatusServiceUnavailable:
		return fmt.Sprintf("model %s: no predictor answered: %v", m.name, err)
	}
	return fmt.Sprintf("model %s: %v", m.name, err)
}

func writeLookupError(w http.ResponseWriter, err error) {
	var le *lookupError
	if errors.As(err, &le) {
		writeError(w, le.status, "%s", le.msg)
		return
	}
	writeError(w, http.StatusInternalServerError, "%v", err)
}

// headerTimeout names the request header that sets a request's deadline.
const headerTimeout = "X-Request-Timeout"

// requestTimeout is the request's deadline: the v2 "timeout" parameter
// (microseconds, as Triton's) when given, else the X-Request-Timeout header
// (a Go duration, "250ms", or a number of milliseconds), else the default.
func requestTimeout(r *http.Request, v2Micros int64, def time.Duration) (time.Duration, error) {
	if v2Micros < 0 {
		return 0, fmt.Errorf(`parameter "timeout" must be positive microseconds, got %d`, v2Micros)
	}
	if v2Micros > 0 {
		return time.Duration(v2Micros) * time.Microsecond, nil
	}
	text := strings.TrimSpace(r.Header.Get(headerTimeout))
	if text == "" {
		return def, nil
	}
	if ms, err := strconv.ParseFloat(text, 64); err == nil {
		if !(ms > 0) || ms > 1e12 {
			return 0, fmt.Errorf("%s: %q milliseconds: want a positive number", headerTimeout, text)
		}
		return time.Duration(ms * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: %q: want a positive duration (250ms, 2s) or milliseconds", headerTimeout, text)
	}
	return d, nil
}

func allowMethod(w http.ResponseWriter, r *http.Request, method string) bool {
	if r.Method == method || (method == http.MethodGet && r.Method == http.MethodHead) {
		return true
	}
	w.Header().Set("Allow", method)
	writeError(w, http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, method)
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the reply failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}

// requestInfo is what handlers tell the instrumenting wrapper about a request.
type requestInfo struct {
	id       string
	model    string // set by inference handlers (a model of the folder: bounded label values)
	version  string // "" until a version is chosen
	protocol string
}

type requestInfoKey struct{}

func requestInfoOf(r *http.Request) *requestInfo {
	if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// headerRequestID carries a request's id: taken from the client when given
// (printable, at most 128 bytes), else generated; echoed in the reply.
const headerRequestID = "X-Request-Id"

func requestID(r *http.Request) string {
	if id := r.Header.Get(headerRequestID); id != "" && len(id) <= 128 && printable(id) {
		return id
	}
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func printable(s string) bool {
	for _, c := range s {
		if c < 0x21 || c > 0x7e {
			return false
		}
	}
	return true
}

// instrument gives every request an id (echoed in X-Request-Id), writes one
// JSON log line per request and records inference metrics.
func (s *server) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: requestID(r)}
		w.Header().Set(headerRequestID, info.id)
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info)))
		elapsed := time.Since(start)
		if info.model != "" {
			s.metrics.observeRequest(info.model, info.version, info.protocol, rec.status, elapsed)
		}
		if s.cfg.quiet {
			return
		}
		attrs := []any{"request_id", info.id, "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"bytes", rec.bytes, "duration_ms", float64(elapsed.Microseconds()) / 1000}
		if info.model != "" {
			attrs = append(attrs, "model", info.model, "version", info.version)
		}
		s.log.Info("request", attrs...)
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// serveMetrics writes /metrics in the Prometheus text format.
func (s *server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	queue := gauge{name: "weft_queue_depth", help: "Requests admitted and waiting for a predictor, per model."}
	running := gauge{name: "weft_predictors_in_use", help: "Predictions running now, per model."}
	capacity := gauge{name: "weft_predictors_capacity", help: "Predictions that may run at once, per model."}
	cached := gauge{name: "weft_predictors_cached", help: "Reshaped predictors kept (idle and in use), per model."}
	shapes := gauge{name: "weft_predictor_shapes", help: "Input shapes with cached predictors, per model."}
	ready := gauge{name: "weft_model_ready", help: "1 when the model version can answer, else 0."}
	for _, name := range s.reg.names() {
		e := s.reg.entry(name)
		if e == nil {
			continue
		}
		var depth, inUse, nCached, nShapes float64
		for _, v := range e.sortedVersions() {
			vs := e.versions[v]
			up := 0.0
			if vs.m != nil && e.err == nil {
				up = 1
				depth += float64(vs.m.queueDepth())
				inUse += float64(vs.m.running.Load())
				sh, used, idle := vs.m.cache.stats()
				nShapes += float64(sh)
				nCached += float64(used + idle)
			}
			ready.rows = append(ready.rows, gaugeRow{[]string{"model", name, "version", strconv.Itoa(v)}, up})
		}
		if len(e.versions) == 0 {
			ready.rows = append(ready.rows, gaugeRow{[]string{"model", name, "version", ""}, 0})
		}
		l := []string{"model", name}
		queue.rows = append(queue.rows, gaugeRow{l, depth})
		running.rows = append(running.rows, gaugeRow{l, inUse})
		capacity.rows = append(capacity.rows, gaugeRow{l, float64(s.cfg.poolSize * max(1, len(e.versions)))})
		cached.rows = append(cached.rows, gaugeRow{l, nCached})
		shapes.rows = append(shapes.rows, gaugeRow{l, nShapes})
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	s.metrics.write(w, []gauge{queue, running, capacity, cached, shapes, ready})
}
