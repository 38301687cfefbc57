// The predict API (c_predict_api.h): a thin C shell over weft::Predictor
// (core/executor/predictor.h). Errors follow c_api.h's conventions.
#include "weft/c_predict_api.h"

#include <memory>
#include <string>
#include <vector>

#include "capi/src/c_api_common.h"
#include "core/executor/predictor.h"
#include "core/graph/json.h"

struct weft_predictor {
  std::unique_ptr<weft::Predictor> pred;
  // Shapes handed out through the API stay valid while the predictor lives.
  std::vector<std::vector<int64_t>> input_shapes, output_shapes;
};

using namespace weft;  // NOLINT: C ABI implementation file

namespace {

NamedShapes ReadShapes(int num_inputs, const char** names, const int64_t* indptr, const int64_t* data) {
  WEFT_CHECK(num_inputs >= 0, kInvalidArgument) << "num_inputs is " << num_inputs;
  if (num_inputs == 0) return {};
  WEFT_CHECK(names && indptr && data, kInvalidArgument) << "input names, shape indptr and shape data must be given";
  WEFT_CHECK(indptr[0] == 0, kInvalidArgument) << "input_shape_indptr[0] must be 0, got " << indptr[0];
  NamedShapes shapes;
  for (int i = 0; i < num_inputs; ++i) {
    WEFT_CHECK(names[i] != nullptr, kInvalidArgument) << "input name " << i << " is NULL";
    const int64_t b = indptr[i], e = indptr[i + 1];
    WEFT_CHECK(e >= b && e - b <= 32, kInvalidArgument)
        << "input '" << names[i] << "': bad shape range [" << b << ", " << e << ") in input_shape_indptr";
    shapes.emplace_back(names[i], Shape(data + b, data + e));
  }
  return shapes;
}

weft_predictor* Wrap(std::unique_ptr<Predictor> p) {
  auto* h = new weft_predictor();
  for (size_t i = 0; i < p->num_inputs(); ++i) h->input_shapes.push_back(p->input(i).shape().dims());
  for (size_t i = 0; i < p->num_outputs(); ++i) h->output_shapes.push_back(p->output(i).shape().dims());
  h->pred = std::move(p);
  return h;
}

weft_predictor* Create(const char* symbol_json, const void* param_bytes, size_t param_size, int dev_type,
                       int dev_id, int num_inputs, const char** input_names, const int64_t* input_shape_indptr,
                       const int64_t* input_shape_data, int num_outputs, const char** output_names) {
  WEFT_CHECK(symbol_json != nullptr, kInvalidArgument) << "symbol_json is NULL";
  const Context ctx = Context::Make(dev_type, dev_id);
  const NamedShapes shapes = ReadShapes(num_inputs, input_names, input_shape_indptr, input_shape_data);
  Symbol sym = LoadSymbolJSON(symbol_json, "<symbol json>");
  if (output_names != nullptr) {
    std::vector<std::string> wanted;
    for (int i = 0; i < num_outputs; ++i) {
      WEFT_CHECK(output_names[i] != nullptr, kInvalidArgument) << "output name " << i << " is NULL";
      wanted.push_back(output_names[i]);
    }
    sym = SelectOutputs(sym, wanted);
  }
  auto params = LoadParamArrays(param_bytes, param_size, ctx);
  return Wrap(std::make_unique<Predictor>(sym, std::move(params), ctx, shapes));
}

}  // namespace

extern "C" {

int weft_pred_create(const char* symbol_json, const void* param_bytes, size_t param_size, int dev_type,
                     int dev_id, int num_inputs, const char** input_names, const int64_t* input_shape_indptr,
                     const int64_t* input_shape_data, weft_predictor** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = nullptr;
  *out = Create(symbol_json, param_bytes, param_size, dev_type, dev_id, num_inputs, input_names,
                input_shape_indptr, input_shape_data, 0, nullptr);
  WEFT_API_END();
}

int weft_pred_create_partial(const char* symbol_json, const void* param_bytes, size_t param_size, int dev_type,
                             int dev_id, int num_inputs, const char** input_names,
                             const int64_t* input_shape_indptr, const int64_t* input_shape_data, int num_outputs,
                             const char** output_names, weft_predictor** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(out);
  *out = nullptr;
  WEFT_CHECK(num_outputs > 0 && output_names != nullptr, kInvalidArgument)
      << "create_partial: needs at least one output name (got " << num_outputs << ")";
  *out = Create(symbol_json, param_bytes, param_size, dev_type, dev_id, num_inputs, input_names,
                input_shape_indptr, input_shape_data, num_outputs, output_names);
  WEFT_API_END();
}

int weft_pred_reshape(weft_predictor* pred, int num_inputs, const char** input_names,
                      const int64_t* input_shape_indptr, const int64_t* input_shape_data, weft_predictor** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(out);
  *out = nullptr;
  *out = Wrap(pred->pred->Reshape(ReadShapes(num_inputs, input_names, input_shape_indptr, input_shape_data)));
  WEFT_API_END();
}

void weft_pred_free(weft_predictor* pred) { delete pred; }

int weft_pred_num_inputs(weft_predictor* pred, int* out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(out);
  *out = static_cast<int>(pred->pred->num_inputs());
  WEFT_API_END();
}

int weft_pred_input_name(weft_predictor* pred, int index, const char** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(index >= 0 && static_cast<size_t>(index) < pred->pred->num_inputs(), kInvalidArgument)
      << "input index " << index << " out of range: the predictor has " << pred->pred->num_inputs() << " inputs";
  *out = pred->pred->input_name(static_cast<size_t>(index)).c_str();
  WEFT_API_END();
}

int weft_pred_input_shape(weft_predictor* pred, int index, const int64_t** shape, int* ndim) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(shape);
  WEFT_CHECK_ARG(ndim);
  WEFT_CHECK(index >= 0 && static_cast<size_t>(index) < pred->input_shapes.size(), kInvalidArgument)
      << "input index " << index << " out of range: the predictor has " << pred->input_shapes.size() << " inputs";
  const auto& s = pred->input_shapes[static_cast<size_t>(index)];
  *shape = s.data();
  *ndim = static_cast<int>(s.size());
  WEFT_API_END();
}

int weft_pred_input_dtype(weft_predictor* pred, int index, int* dtype) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(dtype);
  WEFT_CHECK(index >= 0 && static_cast<size_t>(index) < pred->pred->num_inputs(), kInvalidArgument)
      << "input index " << index << " out of range: the predictor has " << pred->pred->num_inputs() << " inputs";
  *dtype = static_cast<int>(pred->pred->input(static_cast<size_t>(index)).dtype());
  WEFT_API_END();
}

int weft_pred_set_input(weft_predictor* pred, const char* name, const void* data, size_t nbytes) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(name);
  pred->pred->SetInput(name, data, nbytes);
  WEFT_API_END();
}

int weft_pred_forward(weft_predictor* pred) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  pred->pred->Forward();
  WEFT_API_END();
}

int weft_pred_num_outputs(weft_predictor* pred, int* out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(out);
  *out = static_cast<int>(pred->pred->num_outputs());
  WEFT_API_END();
}

int weft_pred_output_name(weft_predictor* pred, int index, const char** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(index >= 0, kInvalidArgument) << "output index " << index << " is negative";
  pred->pred->output(static_cast<size_t>(index));  // range check with the standard message
  *out = pred->pred->output_name(static_cast<size_t>(index)).c_str();
  WEFT_API_END();
}

int weft_pred_output_shape(weft_predictor* pred, int index, const int64_t** shape, int* ndim) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(shape);
  WEFT_CHECK_ARG(ndim);
  WEFT_CHECK(index >= 0, kInvalidArgument) << "output index " << index << " is negative";
  pred->pred->output(static_cast<size_t>(index));
  const auto& s = pred->output_shapes[static_cast<size_t>(index)];
  *shape = s.data();
  *ndim = static_cast<int>(s.size());
  WEFT_API_END();
}

int weft_pred_output_dtype(weft_predictor* pred, int index, int* dtype) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK_ARG(dtype);
  WEFT_CHECK(index >= 0, kInvalidArgument) << "output index " << index << " is negative";
  *dtype = static_cast<int>(pred->pred->output(static_cast<size_t>(index)).dtype());
  WEFT_API_END();
}

int weft_pred_get_output(weft_predictor* pred, int index, void* data, size_t nbytes) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK(index >= 0, kInvalidArgument) << "output index " << index << " is negative";
  pred->pred->GetOutput(static_cast<size_t>(index), data, nbytes);
  WEFT_API_END();
}

int weft_pred_forward_inline(weft_predictor* pred, int max_threads) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(pred);
  WEFT_CHECK(max_threads >= 0, kInvalidArgument) << "max_threads is " << max_threads << "; want 0 (the kernel team "
                                                 << "size) or a positive thread count";
  pred->pred->ForwardOnCaller(max_threads);
  WEFT_API_END();
}

}  // extern "C"
