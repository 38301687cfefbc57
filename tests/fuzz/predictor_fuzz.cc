// Fuzz target: predictor creation from (symbol JSON, .params bytes) through
// the C predict API, the path a model server takes with a downloaded model,
// then one forward pass on zeros when the inputs are small.
//
// Input layout (text header, so seeds are readable and the mutator can edit
// the shape):
//   line 1: the data input's name, a space, its dims separated by commas
//           ("data 2,3,8,8"); at most 6 dims
//   line 2: the JSON's length in bytes (decimal)
//   then the JSON, then the .params bytes (the rest).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_check.h"
#include "weft/c_predict_api.h"

namespace {

constexpr int kMaxDims = 6;
constexpr size_t kMaxForwardBytes = 1 << 20;  // bigger inputs are created, not run

// Bytes per element of a dtype code (MXNet's: float32 0, float64 1, float16 2,
// uint8 3, int32 4, int8 5, int64 6, bool 7, bfloat16 12); 0 when unknown.
size_t DTypeBytes(int dtype) {
  switch (dtype) {
    case 0: case 4: return 4;
    case 1: case 6: return 8;
    case 2: case 12: return 2;
    case 3: case 5: case 7: return 1;
    default: return 0;
  }
}

constexpr size_t kTooBig = static_cast<size_t>(-1);

// Elements of a shape (zero-size ones run too), or kTooBig past
// kMaxForwardBytes.
size_t SmallElements(const int64_t* shape, int ndim) {
  size_t elems = 1;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] < 0) return kTooBig;
    if (shape[d] > 0 && elems > kMaxForwardBytes / static_cast<size_t>(shape[d])) return kTooBig;
    elems *= static_cast<size_t>(shape[d]);
  }
  return elems * 8 > kMaxForwardBytes ? kTooBig : elems;
}

bool NextLine(const std::string& s, size_t* pos, std::string* line) {
  size_t nl = s.find('\n', *pos);
  if (nl == std::string::npos) return false;
  *line = s.substr(*pos, nl - *pos);
  *pos = nl + 1;
  return true;
}

bool ParseDims(const std::string& text, std::vector<int64_t>* dims) {
  size_t i = 0;
  while (i < text.size()) {
    char* end = nullptr;
    long long v = std::strtoll(text.c_str() + i, &end, 10);
    if (end == text.c_str() + i) return false;
    dims->push_back(v);
    i = static_cast<size_t>(end - text.c_str());
    if (i < text.size() && text[i] != ',') return false;
    ++i;
    if (dims->size() > kMaxDims) return false;
  }
  return !dims->empty();
}

void RunOnce(weft_predictor* pred) {
  int n_in = 0, n_out = 0;
  FUZZ_CHECK(weft_pred_num_inputs(pred, &n_in) == 0 && n_in >= 1, "a created predictor has %d inputs", n_in);
  for (int i = 0; i < n_in; ++i) {
    const char* name = nullptr;
    const int64_t* shape = nullptr;
    int ndim = 0, dtype = 0;
    FUZZ_CHECK(weft_pred_input_name(pred, i, &name) == 0 && weft_pred_input_shape(pred, i, &shape, &ndim) == 0 &&
                   weft_pred_input_dtype(pred, i, &dtype) == 0,
               "input %d cannot be described: %s", i, weft_last_error());
    size_t width = DTypeBytes(dtype), elems = SmallElements(shape, ndim);
    FUZZ_CHECK(width > 0, "input '%s' has dtype code %d", name, dtype);
    if (elems == kTooBig) return;  // created, too big to run here
    std::vector<char> zeros(elems * width, 0);
    FUZZ_CHECK(weft_pred_set_input(pred, name, zeros.data(), zeros.size()) == 0, "input '%s' refuses %zu bytes: %s",
               name, zeros.size(), weft_last_error());
  }
  if (FuzzFailed(weft_pred_forward(pred))) return;
  FUZZ_CHECK(weft_pred_num_outputs(pred, &n_out) == 0, "outputs cannot be counted: %s", weft_last_error());
  for (int i = 0; i < n_out; ++i) {
    const int64_t* shape = nullptr;
    int ndim = 0;
    FUZZ_CHECK(weft_pred_output_shape(pred, i, &shape, &ndim) == 0, "output %d has no shape: %s", i,
               weft_last_error());
    int dtype = 0;
    FUZZ_CHECK(weft_pred_output_dtype(pred, i, &dtype) == 0 && DTypeBytes(dtype) > 0, "output %d has dtype %d: %s",
               i, dtype, weft_last_error());
    size_t elems = SmallElements(shape, ndim);
    if (elems == kTooBig) continue;
    std::vector<char> out(elems * DTypeBytes(dtype));
    FUZZ_CHECK(weft_pred_get_output(pred, i, out.data(), out.size()) == 0,
               "output %d of a forward that succeeded cannot be read: %s", i, weft_last_error());
  }
}

void CreateAndRun(const uint8_t* data, size_t size) {
  std::string s(reinterpret_cast<const char*>(data), size);
  size_t pos = 0;
  std::string line1, line2;
  if (!NextLine(s, &pos, &line1) || !NextLine(s, &pos, &line2)) return;
  size_t space = line1.find(' ');
  if (space == std::string::npos) return;
  std::string input_name = line1.substr(0, space);
  std::vector<int64_t> dims;
  if (!ParseDims(line1.substr(space + 1), &dims)) return;
  char* end = nullptr;
  unsigned long long json_len = std::strtoull(line2.c_str(), &end, 10);
  if (end == line2.c_str() || *end != '\0' || json_len > s.size() - pos) return;
  std::string json = s.substr(pos, json_len);
  std::string params = s.substr(pos + json_len);

  const char* names[] = {input_name.c_str()};
  int64_t indptr[] = {0, static_cast<int64_t>(dims.size())};
  weft_predictor* pred = nullptr;
  if (FuzzFailed(weft_pred_create(json.c_str(), params.data(), params.size(), 1, 0, 1, names, indptr, dims.data(),
                                  &pred)))
    return;
  RunOnce(pred);
  weft_pred_free(pred);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CreateAndRun(data, size);
  // What the predictor freed is deleted by the engine; waiting here balances
  // each input's mallocs and frees, so libFuzzer's leak check runs only after
  // an input that really leaks (otherwise after every one: 10x slower).
  weft_wait_all();
  return 0;
}
