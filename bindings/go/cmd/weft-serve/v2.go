package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"weft.dev/weft"
)

// The KServe / Open Inference Protocol v2 REST API:
//
//	GET  /v2                                     server metadata
//	GET  /v2/health/live, /v2/health/ready       200 or 503
//	GET  /v2/models/NAME[/versions/V]            model metadata
//	GET  /v2/models/NAME[/versions/V]/ready      200 or 503
//	POST /v2/models/NAME[/versions/V]/infer      inference (JSON tensors, or the binary-data extension;
//	                                             an output's "classification": K gives its top K, classify.go)
//	GET  /v2/models/NAME[/versions/V]/config     Triton's model configuration (triton_config.go)
//	GET  /v2/models[/NAME[/versions/V]]/stats    Triton's statistics (stats.go)
//	POST /v2/repository/index                    every model version with its state (repository extension)
//	POST /v2/repository/models/NAME/load         rescan the folder now; 200 when NAME then serves
//
// A version is an epoch (NAME-0003.params is version "3"); without one the
// newest version that loaded answers.

const headerInferenceLength = "Inference-Header-Content-Length"

var v2DTypes = map[string]weft.DType{
	"BOOL": weft.Bool, "UINT8": weft.Uint8, "INT8": weft.Int8, "INT32": weft.Int32, "INT64": weft.Int64,
	"FP16": weft.Float16, "FP32": weft.Float32, "FP64": weft.Float64, "BF16": weft.BFloat16,
}

func v2DTypeName(d weft.DType) string {
	for name, dt := range v2DTypes {
		if dt == d {
			return name
		}
	}
	return strings.ToUpper(d.String())
}

// v2ServerMeta is the server metadata (GET /v2; gRPC ServerMetadata).
type v2ServerMeta struct {
	Name       string   `json:"name"`
	Version    string   `json:"version"`
	Extensions []string `json:"extensions"`
}

func serverMetadata() v2ServerMeta {
	return v2ServerMeta{Name: "weft-serve", Version: "1", Extensions: []string{"binary_tensor_data", "model_repository",
		"metrics", "model_configuration", "statistics", "classification"}}
}

func (s *server) v2ServerMetadata(w http.ResponseWriter, r *http.Request) {
	if allowMethod(w, r, http.MethodGet) {
		writeJSON(w, http.StatusOK, serverMetadata())
	}
}

func (s *server) v2Route(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/v2/")
	switch path {
	case "":
		s.v2ServerMetadata(w, r)
		return
	case "health/live":
		if allowMethod(w, r, http.MethodGet) {
			writeJSON(w, http.StatusOK, map[string]bool{"live": true})
		}
		return
	case "health/ready":
		if allowMethod(w, r, http.MethodGet) {
			status := http.StatusOK
			if !s.reg.ready() {
				status = http.StatusServiceUnavailable
			}
			writeJSON(w, status, map[string]bool{"ready": status == http.StatusOK})
		}
		return
	}
	if path == "repository/index" {
		if allowMethod(w, r, http.MethodPost) {
			s.v2RepositoryIndex(w)
		}
		return
	}
	if name, ok := strings.CutPrefix(path, "repository/models/"); ok && strings.HasSuffix(name, "/load") {
		if allowMethod(w, r, http.MethodPost) {
			s.v2RepositoryLoad(w, strings.TrimSuffix(name, "/load"))
		}
		return
	}
	if path == "models/stats" { // every model's statistics (Triton's extension; stats.go)
		if allowMethod(w, r, http.MethodGet) {
			s.v2Stats(w, "", "")
		}
		return
	}
	rest, ok := strings.CutPrefix(path, "models/")
	if !ok {
		writeError(w, http.StatusNotFound, "no such endpoint %s (see the v2 protocol: /v2/models/NAME/infer)", r.URL.Path)
		return
	}
	parts := strings.Split(rest, "/")
	name, version, action := parts[0], "", ""
	parts = parts[1:]
	if len(parts) >= 2 && parts[0] == "versions" && parts[1] != "" {
		version, parts = parts[1], parts[2:]
	}
	if len(parts) == 1 {
		action, parts = parts[0], nil
	}
	if name == "" || len(parts) != 0 {
		writeError(w, http.StatusNotFound, "no such endpoint %s (want /v2/models/NAME[/versions/V][/ready|/infer|/config|/stats])",
			r.URL.Path)
		return
	}
	if s.reg.entry(name) == nil {
		writeError(w, http.StatusNotFound, "unknown model '%s' (models: %s)", name, strings.Join(s.reg.names(), ", "))
		return
	}
	switch action {
	case "":
		if allowMethod(w, r, http.MethodGet) {
			s.v2ModelMetadata(w, name, version)
		}
	case "ready":
		if allowMethod(w, r, http.MethodGet) {
			s.v2ModelReady(w, name, version)
		}
	case "infer":
		if allowMethod(w, r, http.MethodPost) {
			s.v2Infer(w, r, name, version)
		}
	case "config":
		if allowMethod(w, r, http.MethodGet) {
			s.v2ModelConfig(w, name, version)
		}
	case "stats":
		if allowMethod(w, r, http.MethodGet) {
			s.v2Stats(w, name, version)
		}
	default:
		writeError(w, http.StatusNotFound, "unknown model endpoint '%s' (want ready, infer, config or stats)", action)
	}
}

// v2RepositoryIndex answers the model repository extension's index
// (repositoryIndex).
func (s *server) v2RepositoryIndex(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, s.repositoryIndex())
}

// repoRow is one row of the repository index.
type repoRow struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	State   string `json:"state"`
	Reason  string `json:"reason,omitempty"`
}

// repositoryIndex is every version of every model with its state (READY or
// UNAVAILABLE) and, for the latter, the reason.
func (s *server) repositoryIndex() []repoRow {
	rows := []repoRow{}
	for _, name := range s.reg.names() {
		e := s.reg.entry(name)
		if e == nil {
			continue
		}
		if e.err != nil || len(e.versions) == 0 {
			_, why := e.status()
			rows = append(rows, repoRow{Name: name, State: "UNAVAILABLE", Reason: why})
			continue
		}
		for _, v := range e.sortedVersions() {
			r := repoRow{Name: name, Version: strconv.Itoa(v), State: "READY"}
			if why := e.versions[v].unavailable(); why != nil {
				r.State, r.Reason = "UNAVAILABLE", why.Error()
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// v2RepositoryLoad rescans the folder now (instead of at the next -poll) and
// says whether the model then serves: 200, or 503 with its error, or 404.
func (s *server) v2RepositoryLoad(w http.ResponseWriter, name string) {
	if err := s.reg.scan(); err != nil {
		writeError(w, http.StatusInternalServerError, "scanning the model directory: %v", err)
		return
	}
	e := s.reg.entry(name)
	if e == nil {
		writeError(w, http.StatusNotFound, "no model '%s' in %s (models: %s)", name, s.cfg.modelDir,
			strings.Join(s.reg.names(), ", "))
		return
	}
	if ready, why := e.status(); !ready {
		writeError(w, http.StatusServiceUnavailable, "model %s is unavailable: %s", name, why)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"name": name, "version": strconv.Itoa(e.latest()), "ready": true})
}

type v2TensorMeta struct {
	Name     string  `json:"name"`
	Datatype string  `json:"datatype"`
	Shape    []int64 `json:"shape"`
}

// v2ModelMeta is a model's metadata (GET /v2/models/NAME; gRPC ModelMetadata).
type v2ModelMeta struct {
	Name     string         `json:"name"`
	Versions []string       `json:"versions"`
	Platform string         `json:"platform"`
	Inputs   []v2TensorMeta `json:"inputs"`
	Outputs  []v2TensorMeta `json:"outputs"`
}

func (s *server) v2ModelMetadata(w http.ResponseWriter, name, version string) {
	meta, err := s.modelMetadata(name, version)
	if err != nil {
		writeLookupError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, meta)
}

// modelMetadata is the metadata of a served version (the newest when version
// is ""); its error is a *lookupError.
func (s *server) modelMetadata(name, version string) (v2ModelMeta, error) {
	m, err := s.reg.acquire(name, version)
	if err != nil {
		return v2ModelMeta{}, err
	}
	defer m.refs.Done()
	e := s.reg.entry(name)
	versions := []string{}
	if e != nil {
		for _, v := range e.sortedVersions() {
			versions = append(versions, strconv.Itoa(v))
		}
	}
	return v2ModelMeta{Name: name, Versions: versions, Platform: "mxnet_symbol",
		Inputs: v2Metas(m.tensorInfos(true), m.inputDTypes()), Outputs: v2Metas(m.tensorInfos(false), nil)}, nil
}

func v2Metas(infos []weft.TensorInfo, dtypes []weft.DType) []v2TensorMeta {
	out := make([]v2TensorMeta, len(infos))
	for i, t := range infos {
		dt := t.DType
		if dtypes != nil {
			dt = dtypes[i]
		}
		out[i] = v2TensorMeta{Name: t.Name, Datatype: v2DTypeName(dt), Shape: t.Shape}
	}
	return out
}

func (s *server) v2ModelReady(w http.ResponseWriter, name, version string) {
	m, err := s.reg.acquire(name, version)
	if err != nil {
		var le *lookupError
		if errors.As(err, &le) && le.status == http.StatusServiceUnavailable {
			writeJSON(w, le.status, map[string]any{"name": name, "ready": false, "error": le.msg})
			return
		}
		writeLookupError(w, err)
		return
	}
	defer m.refs.Done()
	writeJSON(w, http.StatusOK, map[string]any{"name": name, "version": strconv.Itoa(m.version), "ready": true})
}

// v2Request is the inference request JSON object.
type v2Request struct {
	ID         string             `json:"id"`
	Parameters v2Parameters       `json:"parameters"`
	Inputs     []v2Input          `json:"inputs"`
	Outputs    []v2RequestedOuput `json:"outputs"`
}

type v2Parameters struct {
	Timeout          int64  `json:"timeout"` // microseconds
	BinaryDataOutput bool   `json:"binary_data_output"`
	BinaryDataSize   *int64 `json:"binary_data_size"`
	BinaryData       bool   `json:"binary_data"`
	// Classification asks an output for its top classes (classify.go).
	Classification int `json:"classification"`
}

type v2Input struct {
	Name       string          `json:"name"`
	Shape      []int64         `json:"shape"`
	Datatype   string          `json:"datatype"`
	Parameters v2Parameters    `json:"parameters"`
	Data       json.RawMessage `json:"data"`
}

type v2RequestedOuput struct {
	Name       string       `json:"name"`
	Parameters v2Parameters `json:"parameters"`
}

func (s *server) v2Infer(w http.ResponseWriter, r *http.Request, name, version string) {
	info := requestInfoOf(r)
	info.model, info.protocol = name, "v2"
	m, err := s.reg.acquire(name, version)
	if err != nil {
		writeLookupError(w, err)
		return
	}
	defer m.refs.Done()
	info.version = strconv.Itoa(m.version)
	ct := r.Header.Get("Content-Type")
	kind := bodyKindOf(ct)
	if kind == bodyRefused {
		writeError(w, http.StatusUnsupportedMediaType, "Content-Type %q: want application/json (or "+
			"application/octet-stream with %s)", ct, headerInferenceLength)
		return
	}
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	if kind == bodyLenient {
		if err := lenientJSON(ct, v2JSONPart(r.Header, body)); err != nil {
			writeError(w, http.StatusUnsupportedMediaType, "%v", err)
			return
		}
	}
	req, inputs, err := decodeV2Request(m, r.Header, body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	timeout, err := requestTimeout(r, req.Parameters.Timeout, s.cfg.timeout)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	outputs, status, err := s.infer(r.Context(), m, inputs, timeout)
	if err != nil {
		writeInferError(w, status, m, timeout, err)
		return
	}
	reply, binary, err := encodeV2Reply(m, req, outputs)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if binary >= 0 {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set(headerInferenceLength, strconv.Itoa(binary))
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(reply)))
	w.WriteHeader(http.StatusOK)
	w.Write(reply)
}

// v2JSONPart is the JSON header of a body: all of it, or its first
// Inference-Header-Content-Length bytes when that is a valid length (an
// invalid one is decodeV2Request's error to report).
func v2JSONPart(h http.Header, body []byte) []byte {
	if n, err := strconv.ParseInt(h.Get(headerInferenceLength), 10, 64); err == nil && n >= 0 && n <= int64(len(body)) {
		return body[:n]
	}
	return body
}

// decodeV2Request reads the JSON (and, with Inference-Header-Content-Length,
// the binary tensors after it) into tensors in m.inputs order.
func decodeV2Request(m *model, h http.Header, body []byte) (*v2Request, []tensor, error) {
	header, binary := body, []byte(nil)
	if text := h.Get(headerInferenceLength); text != "" {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil || n < 0 || n > int64(len(body)) {
			return nil, nil, fmt.Errorf("%s: %q is not a length within the body's %d bytes", headerInferenceLength,
				text, len(body))
		}
		header, binary = body[:n], body[n:]
	}
	var req v2Request
	dec := json.NewDecoder(bytes.NewReader(header))
	if err := dec.Decode(&req); err != nil {
		return nil, nil, fmt.Errorf("malformed JSON inference request: %v", err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("malformed JSON inference request: data after the object")
	}
	out := make([]tensor, len(m.inputs))
	given := make([]bool, len(m.inputs))
	for _, in := range req.Inputs {
		i, dtype, n, err := v2CheckInput(m, given, in.Name, in.Datatype, in.Shape)
		if err != nil {
			return nil, nil, err
		}
		t := tensor{shape: in.Shape, dtype: dtype}
		if size := in.Parameters.BinaryDataSize; size != nil {
			if *size != n {
				return nil, nil, fmt.Errorf("input '%s': binary_data_size %d, but shape %v of %s has %d bytes",
					in.Name, *size, in.Shape, in.Datatype, n)
			}
			if int64(len(binary)) < n {
				return nil, nil, fmt.Errorf("input '%s': %d bytes of binary data left, it needs %d", in.Name,
					len(binary), n)
			}
			t.data, binary = binary[:n], binary[n:]
			if err := checkFinite(t); err != nil {
				return nil, nil, fmt.Errorf("input '%s': %v", in.Name, err)
			}
		} else {
			if len(in.Data) == 0 {
				return nil, nil, fmt.Errorf("input '%s' has neither \"data\" nor a binary_data_size parameter", in.Name)
			}
			parsed, err := parseV2Data(in.Data, dtype)
			if err != nil {
				return nil, nil, fmt.Errorf("input '%s': %v", in.Name, err)
			}
			if int64(len(parsed.data)) != n {
				return nil, nil, fmt.Errorf("input '%s': %d values for shape %v (%d values)", in.Name,
					len(parsed.data)/dtype.Size(), in.Shape, n/int64(dtype.Size()))
			}
			t.data = parsed.data
		}
		out[i] = t
	}
	if len(binary) > 0 {
		return nil, nil, fmt.Errorf("%d bytes of binary data after the last binary input", len(binary))
	}
	return &req, out, v2CheckComplete(m, given, out)
}

// v2CheckInput checks one input of a v2 request (REST or gRPC) against m: a
// known name not given before (given records it), the model's datatype and a
// shape; it gives the input's index, dtype and byte count.
func v2CheckInput(m *model, given []bool, name, datatype string, shape []int64) (int, weft.DType, int64, error) {
	i := m.inputIndex(name)
	if i < 0 {
		return 0, 0, 0, fmt.Errorf("model %s has no input '%s' (inputs: %s)", m.name, name, m.inputNames())
	}
	if given[i] {
		return 0, 0, 0, fmt.Errorf("input '%s' is given twice", name)
	}
	given[i] = true
	dtype, ok := v2DTypes[datatype]
	if !ok {
		return 0, 0, 0, fmt.Errorf("input '%s': datatype %q is not one of BOOL, UINT8, INT8, INT32, INT64, "+
			"FP16, BF16, FP32, FP64", name, datatype)
	}
	if want := m.inputDTypes()[i]; dtype != want {
		return 0, 0, 0, fmt.Errorf("input '%s' is %s, the request says %s", name, v2DTypeName(want), datatype)
	}
	if shape == nil {
		return 0, 0, 0, fmt.Errorf("input '%s' has no \"shape\"", name)
	}
	n, err := byteCount(shape, dtype)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("input '%s': %v", name, err)
	}
	return i, dtype, n, nil
}

// v2CheckComplete checks that a request gave every input and that their
// shapes agree (model.checkInputs).
func v2CheckComplete(m *model, given []bool, ts []tensor) error {
	for i, in := range m.inputs {
		if !given[i] {
			return fmt.Errorf("input '%s' is missing (inputs: %s)", in.name, m.inputNames())
		}
	}
	return m.checkInputs(ts)
}

// parseV2Data reads "data": a flat list, a nested one (row-major), or one
// number.
func parseV2Data(raw json.RawMessage, dtype weft.DType) (tensor, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] != '[' {
		trimmed = append(append([]byte{'['}, trimmed...), ']')
	}
	return parseNested(trimmed, dtype)
}

// encodeV2Reply writes the inference response; binary is the JSON part's
// length when some outputs go as binary data after it, else -1.
func encodeV2Reply(m *model, req *v2Request, outputs []tensor) ([]byte, int, error) {
	names := outputNames(m)
	picks, err := v2PickOutputs(m, names, req.Outputs, req.Parameters.BinaryDataOutput)
	if err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	size := 256 // the JSON around the tensors
	for _, p := range picks {
		if n := len(outputs[p.i].data); p.binary {
			size += n + 64
		} else {
			size += n * 4 // a float32 as text is up to ~15 bytes for its 4
		}
	}
	buf.Grow(size) // one allocation where bytes.Buffer would grow by doubling
	buf.WriteString(`{"model_name":`)
	writeJSONString(&buf, m.name)
	buf.WriteString(`,"model_version":`)
	writeJSONString(&buf, strconv.Itoa(m.version))
	if req.ID != "" {
		buf.WriteString(`,"id":`)
		writeJSONString(&buf, req.ID)
	}
	buf.WriteString(`,"outputs":[`)
	var tail []byte
	for k, p := range picks {
		t := outputs[p.i]
		if k > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(`{"name":`)
		writeJSONString(&buf, names[p.i])
		if p.classes > 0 {
			c, err := classify(t, p.classes, m.labels)
			if err != nil {
				return nil, 0, fmt.Errorf("output '%s': %v", names[p.i], err)
			}
			fmt.Fprintf(&buf, `,"datatype":"BYTES","shape":[%s]`, intsText(c.shape))
			if p.binary {
				b := c.bytesTensor()
				fmt.Fprintf(&buf, `,"parameters":{"binary_data_size":%d}}`, len(b))
				tail = append(tail, b...)
				continue
			}
			buf.WriteString(`,"data":[`)
			for k, e := range c.elems {
				if k > 0 {
					buf.WriteByte(',')
				}
				writeJSONString(&buf, e)
			}
			buf.WriteString("]}")
			continue
		}
		fmt.Fprintf(&buf, `,"datatype":"%s","shape":[%s]`, v2DTypeName(t.dtype), intsText(t.shape))
		if p.binary {
			fmt.Fprintf(&buf, `,"parameters":{"binary_data_size":%d}}`, len(t.data))
			tail = append(tail, t.data...)
			continue
		}
		buf.WriteString(`,"data":`)
		at := 0
		n := int64(len(t.data) / max(1, t.dtype.Size()))
		writeNested(&buf, tensor{shape: []int64{n}, dtype: t.dtype, data: t.data}, 0, &at)
		buf.WriteByte('}')
	}
	buf.WriteString("]}")
	anyBinary := false
	for _, p := range picks {
		anyBinary = anyBinary || p.binary
	}
	if !anyBinary {
		buf.WriteByte('\n')
		return buf.Bytes(), -1, nil
	}
	jsonLen := buf.Len()
	buf.Write(tail)
	return buf.Bytes(), jsonLen, nil
}

// v2Pick is an output a v2 request (REST or gRPC) asked for.
type v2Pick struct {
	i       int // in outputNames order
	binary  bool
	classes int // > 0: the classification extension's top-k strings
}

// v2PickOutputs reads a request's outputs: those asked for, or all of them
// when it names none (binaryAll: all as binary data).
func v2PickOutputs(m *model, names []string, asked []v2RequestedOuput, binaryAll bool) ([]v2Pick, error) {
	var picks []v2Pick
	if len(asked) == 0 {
		for i := range names {
			picks = append(picks, v2Pick{i, binaryAll, 0})
		}
	}
	for _, o := range asked {
		i := -1
		for k, n := range names {
			if n == o.Name {
				i = k
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("model %s has no output '%s' (outputs: %s)", m.name, o.Name,
				strings.Join(names, ", "))
		}
		if o.Parameters.Classification < 0 {
			return nil, fmt.Errorf("output '%s': classification %d: want a positive class count", o.Name,
				o.Parameters.Classification)
		}
		picks = append(picks, v2Pick{i, o.Parameters.BinaryData || binaryAll, o.Parameters.Classification})
	}
	return picks, nil
}
