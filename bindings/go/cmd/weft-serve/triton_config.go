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

func (s *server) v2ModelConfig(w http.ResponseWriter, name, version string) {
	m, err := s.reg.acquire(name, version)
	if err != nil {
		writeLookupError(w, err)
		return
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
	inputs := []tritonTensorConfig{}
	for i, t := range m.tensorInfos(true) {
		inputs = append(inputs, tritonTensorConfig{Name: t.Name, DataType: tritonDataType(m.inputDTypes()[i]),
			Format: "FORMAT_NONE", Dims: dims(t.Shape)})
	}
	outputs := []tritonTensorConfig{}
	for _, t := range m.tensorInfos(false) {
		outputs = append(outputs, tritonTensorConfig{Name: t.Name, DataType: tritonDataType(t.DType),
			Dims: dims(t.Shape), LabelFilename: m.labelFile})
	}
	cfg := map[string]any{
		"name": name, "platform": "weft_mxnet", "backend": "weft", "max_batch_size": maxBatch,
		"version_policy": map[string]any{"latest": map[string]int{"num_versions": s.cfg.maxVersions}},
		"input":          inputs, "output": outputs,
		"instance_group": []map[string]any{{"name": name, "kind": "KIND_CPU", "count": m.poolSize}},
	}
	if m.batcher != nil {
		cfg["dynamic_batching"] = map[string]any{
			"max_queue_delay_microseconds": m.batcher.maxDelay.Microseconds(),
			"preferred_batch_size":         []int64{},
		}
	}
	writeJSON(w, http.StatusOK, cfg)
}
