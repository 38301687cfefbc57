// CachedOp part of the C ABI.
#include <map>
#include <memory>

#include "capi/src/c_api_common.h"
#include "core/executor/cached_op.h"

struct weft_cached_op {
  std::unique_ptr<weft::CachedOp> op;
};

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_cached_op_create(const weft_symbol* sym, int num_flags, const char* const* keys, const char* const* vals,
                          weft_cached_op** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(sym);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(num_flags >= 0 && (num_flags == 0 || (keys && vals)), kInvalidArgument) << "CachedOp: bad flag list";
  std::map<std::string, std::string> flags;
  for (int i = 0; i < num_flags; ++i) {
    WEFT_CHECK(keys[i] && vals[i], kInvalidArgument) << "CachedOp: flag " << i << " is NULL";
    flags[keys[i]] = vals[i];
  }
  *out = new weft_cached_op{std::make_unique<CachedOp>(sym->sym, flags)};
  WEFT_API_END();
}

void weft_cached_op_free(weft_cached_op* op) { delete op; }

int weft_cached_op_invoke(weft_cached_op* op, int num_inputs, weft_ndarray* const* inputs, int* num_outputs,
                          weft_ndarray*** outputs) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(op);
  WEFT_CHECK_ARG(num_outputs);
  WEFT_CHECK_ARG(outputs);
  WEFT_CHECK(num_inputs >= 0 && (num_inputs == 0 || inputs), kInvalidArgument) << "CachedOp: bad input list";
  std::vector<NDArray> in;
  for (int i = 0; i < num_inputs; ++i) {
    WEFT_CHECK(inputs[i], kInvalidArgument) << "CachedOp: input " << i << " is NULL";
    in.push_back(inputs[i]->arr);
  }
  std::vector<NDArray> r = op->op->Invoke(in);
  auto& s = capi::Scratch();
  s.handles.clear();
  for (auto& a : r) s.handles.push_back(capi::NewHandle(a));
  *num_outputs = static_cast<int>(s.handles.size());
  *outputs = s.handles.data();
  WEFT_API_END();
}

}  // extern "C"
