package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"sort"
	"strings"
	"time"

	"weft.dev/weft"
)

// config is what main reads from its flags.
type config struct {
	modelDir   string
	poolSize   int
	batchMax   int           // >1 turns dynamic batching on
	batchDelay time.Duration // how long a batch waits for more requests
	maxBody    int64         // bytes
	shapes     shapeFlags
	logger     *log.Logger // nil: no request log
}

// server holds the loaded models and answers the HTTP API.
type server struct {
	cfg    config
	models map[string]*model
	names  []string // sorted
}

func newServer(cfg config) (*server, error) {
	files, err := findModels(cfg.modelDir)
	if err != nil {
		return nil, err
	}
	s := &server{cfg: cfg, models: map[string]*model{}}
	for _, mf := range files {
		if mf.paramsPath == "" {
			s.close()
			return nil, fmt.Errorf("model %s: no %s-NNNN.params beside %s", mf.name, mf.name, mf.symbolPath)
		}
		m, err := loadModel(mf, cfg.shapes, cfg.poolSize)
		if err != nil {
			s.close()
			return nil, err
		}
		if cfg.batchMax > 1 && m.batchable {
			m.batcher = newBatcher(m, cfg.batchMax, cfg.batchDelay)
		}
		s.models[mf.name] = m
		s.names = append(s.names, mf.name)
	}
	for name := range cfg.shapes {
		if s.models[name] == nil {
			s.close()
			return nil, fmt.Errorf("-shape names model %s, which is not in %s", name, cfg.modelDir)
		}
	}
	sort.Strings(s.names)
	return s, nil
}

// close frees the models; call it after the HTTP server has stopped.
func (s *server) close() {
	for _, m := range s.models {
		m.close()
	}
}

// handler routes the API and logs one line per request.
func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", s.healthz)
	mux.HandleFunc("/v1/models", s.listModels)
	mux.HandleFunc("/v1/models/", s.modelRoute)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint %s (see GET /v1/models)", r.URL.Path)
	})
	return s.logRequests(mux)
}

func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "models": len(s.models)})
}

func (s *server) listModels(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	list := make([]modelInfo, 0, len(s.names))
	for _, name := range s.names {
		list = append(list, s.describe(s.models[name]))
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": list})
}

// modelRoute serves /v1/models/{name} and /v1/models/{name}:predict.
func (s *server) modelRoute(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/v1/models/")
	name, verb, hasVerb := strings.Cut(rest, ":")
	m := s.models[name]
	if m == nil || strings.Contains(name, "/") {
		writeError(w, http.StatusNotFound, "unknown model '%s' (models: %s)", name, strings.Join(s.names, ", "))
		return
	}
	switch {
	case !hasVerb:
		if allowMethod(w, r, http.MethodGet) {
			writeJSON(w, http.StatusOK, s.describe(m))
		}
	case verb == "predict":
		if allowMethod(w, r, http.MethodPost) {
			s.predict(w, r, m)
		}
	default:
		writeError(w, http.StatusNotFound, "unknown action ':%s' (want :predict)", verb)
	}
}

type tensorInfo struct {
	Name  string  `json:"name"`
	Shape []int64 `json:"shape"`
	DType string  `json:"dtype"`
}

type modelInfo struct {
	Name      string       `json:"name"`
	Epoch     int          `json:"epoch"`
	Inputs    []tensorInfo `json:"inputs"`
	Outputs   []tensorInfo `json:"outputs"`
	BatchAxis int          `json:"batch_axis"`       // axis 0 of every input takes any size
	MaxBatch  int          `json:"dynamic_batching"` // rows per dynamic batch, 0 when off
	PoolSize  int          `json:"pool_size"`
}

func (s *server) describe(m *model) modelInfo {
	conv := func(in []weft.TensorInfo) []tensorInfo {
		out := make([]tensorInfo, len(in))
		for i, t := range in {
			out[i] = tensorInfo{t.Name, t.Shape, t.DType.String()}
		}
		return out
	}
	info := modelInfo{Name: m.name, Epoch: m.epoch, Inputs: conv(m.inputs), Outputs: conv(m.outputs),
		PoolSize: m.pool.Size()}
	if m.batcher != nil {
		info.MaxBatch = int(m.batcher.maxRows)
	}
	return info
}

func (s *server) predict(w http.ResponseWriter, r *http.Request, m *model) {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mediaType != "application/json" && mediaType != "application/octet-stream") {
		writeError(w, http.StatusUnsupportedMediaType,
			"Content-Type %q: want application/json or application/octet-stream", r.Header.Get("Content-Type"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "request body over the limit of %d bytes", tooBig.Limit)
		} else {
			writeError(w, http.StatusBadRequest, "reading the request body: %v", err)
		}
		return
	}
	raw := mediaType == "application/octet-stream"
	var inputs []tensor
	rawOutput := 0
	if raw {
		if rawOutput, err = rawOutputIndex(m, r); err == nil {
			inputs, err = decodeRawInput(m, r.Header, body)
		}
	} else {
		inputs, err = decodeJSONInputs(m, body)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	outputs, err := m.predict(r.Context(), inputs)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
			errors.Is(err, weft.ErrPoolClosed) || errors.Is(err, errBatcherStopped) {
			writeError(w, http.StatusServiceUnavailable, "no predictor answered: %v", err)
		} else {
			writeError(w, http.StatusInternalServerError, "model %s: %v", m.name, err)
		}
		return
	}
	if raw {
		writeRawOutput(w, m.outputs[rawOutput].Name, outputs[rawOutput])
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(encodeJSONOutputs(m, outputs))
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

// logRequests writes one line per request: method, path, status, reply
// bytes, duration.
func (s *server) logRequests(next http.Handler) http.Handler {
	if s.cfg.logger == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		s.cfg.logger.Printf("%s %s %d %dB %s", r.Method, r.URL.Path, rec.status, rec.bytes,
			time.Since(start).Round(time.Microsecond))
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
