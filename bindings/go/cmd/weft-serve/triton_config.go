package main

import (
	"net/http"

	"weft.dev/weft"
)

// Triton's model configuration extension (GET /v2/models/NAME[/versions/V]/config):
// the model's config.pbtxt as JSON, which tritonclient's get_model_config
// and perf_analyzer read to build requests. weft-serve has no config file;
// the answer is derived from the files and the flags:
//
//	max_batch_size    -batch-max when dynamic batching is on, else 0; as in
//	                  Triton, dims then leave the batch axis out
//	input, output     the signature computed at load (-1: any size)
//	dynamic_batching  present when on, with the -batch-delay as max_queue_delay
//	version_policy    {"latest": {"num_versions": -max-versions}}
//	instance_group    -pool predictors on the CPU

// tritonDataType is Triton's config enum for a dtype ("TYPE_FP32").
func tritonDataType(d weft.DType) string { return "TYPE_" + v2DTypeName(d) }

type tritonTensorConfig struct {
	Name     string  `json:"name"`
	DataType string  `json:"data_type"`
	Format   string  `json:"format,omitempty"`
	Dims     []int64 `json:"dims"`
	// LabelFilename names the labels classification reads (classify.go), on outputs.
	LabelFilename string `json:"label_filename,omitempty"`
}

// tritonConfig is Triton's ModelConfig (the fields weft-serve fills).
type tritonConfig struct {
	Name            string                `json:"name"`
	Platform        string                `json:"platform"`
	Backend         string                `json:"backend"`
	MaxBatchSize    int                   `json:"max_batch_size"`
	VersionPolicy   tritonVersionPolicy   `json:"version_policy"`
	Input           []tritonTensorConfig  `json:"input"`
	Output          []tritonTensorConfig  `json:"output"`
	InstanceGroup   []tritonInstanceGroup `json:"instance_group"`
	DynamicBatching *tritonBatching       `json:"dynamic_batching,omitempty"` // nil: batching off
}

type tritonVersionPolicy struct {
	Latest struct {
		NumVersions int `json:"num_versions"`
	} `json:"latest"`
}

type tritonInstanceGroup struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

type tritonBatching struct {
	MaxQueueDelayMicroseconds int64   `json:"max_queue_delay_microseconds"`
	PreferredBatchSize        []int64 `json:"preferred_batch_size"`
}

func (s *server) v2ModelConfig(w http.ResponseWriter, name, version string) {
	cfg, err := s.modelConfig(name, version)
	if err != nil {
		writeLookupError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, cfg)
}

// modelConfig is the configuration of a served version (the newest when
// version is ""); its error is a *lookupError.
func (s *server) modelConfig(name, version string) (tritonConfig, error) {
	m, err := s.reg.acquire(name, version)
	if err != nil {
		return tritonConfig{}, err
	}
	defer m.refs.Done()
	maxBatch := 0
	if m.batcher != nil {
		maxBatch = int(m.batcher.maxRows)
	}
	dims := func(shape []int64) []int64 {
		if maxBatch > 0 && len(shape) > 0 { // Triton leaves the batch axis out when it batches
			shape = shape[1:]
		}
		return append([]int64{}, shape...)
	}
	cfg := tritonConfig{Name: name, Platform: "weft_mxnet", Backend: "weft", MaxBatchSize: maxBatch,
		Input: []tritonTensorConfig{}, Output: []tritonTensorConfig{},
		InstanceGroup: []tritonInstanceGroup{{Name: name, Kind: "KIND_CPU", Count: m.poolSize}}}
	cfg.VersionPolicy.Latest.NumVersions = s.cfg.maxVersions
	for i, t := range m.tensorInfos(true) {
		cfg.Input = append(cfg.Input, tritonTensorConfig{Name: t.Name, DataType: tritonDataType(m.inputDTypes()[i]),
			Format: "FORMAT_NONE", Dims: dims(t.Shape)})
	}
	for _, t := range m.tensorInfos(false) {
		cfg.Output = append(cfg.Output, tritonTensorConfig{Name: t.Name, DataType: tritonDataType(t.DType),
			Dims: dims(t.Shape), LabelFilename: m.labelFile})
	}
	if m.batcher != nil {
		cfg.DynamicBatching = &tritonBatching{MaxQueueDelayMicroseconds: m.batcher.maxDelay.Microseconds(),
			PreferredBatchSize: []int64{}}
	}
	return cfg, nil
}
