// Operator part of the C ABI: listing, schema JSON, invoke by handle.
#include <mutex>
#include <unordered_map>

#include "capi/src/c_api_common.h"
#include "core/autograd/autograd.h"
#include "core/ndarray/imperative.h"
#include "core/opdef/op_def.h"
#include "core/opdef/params_cache.h"

using namespace weft;  // NOLINT: C ABI implementation file

namespace {
// One static handle per registry entry, created on first lookup.
const weft_op* HandleFor(const OpDef* def) {
  static std::mutex mu;
  static auto* handles = new std::unordered_map<const OpDef*, weft_op*>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = handles->find(def);
  if (it != handles->end()) return it->second;
  auto* h = new weft_op{def};
  (*handles)[def] = h;
  return h;
}
}  // namespace

extern "C" {

int weft_op_list(int* n, const char*** names) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(n);
  WEFT_CHECK_ARG(names);
  auto& s = capi::Scratch();
  s.strings = OpRegistry::Get()->ListNames();
  s.cstrs.clear();
  for (const auto& k : s.strings) s.cstrs.push_back(k.c_str());
  *n = static_cast<int>(s.cstrs.size());
  *names = s.cstrs.data();
  WEFT_API_END();
}

int weft_op_find(const char* name, const weft_op** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(name);
  WEFT_CHECK_ARG(out);
  *out = HandleFor(&OpRegistry::Get()->FindOrThrow(name));
  WEFT_API_END();
}

int weft_op_schema(const weft_op* op, const char** json) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(op);
  WEFT_CHECK_ARG(json);
  auto& s = capi::Scratch();
  s.str = op->def->SchemaJSON();
  *json = s.str.c_str();
  WEFT_API_END();
}

int weft_op_invoke(const weft_op* op, int num_inputs, weft_ndarray* const* inputs, int* num_outputs,
                   weft_ndarray*** outputs, int num_attrs, const char* const* keys, const char* const* vals) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(op);
  WEFT_CHECK_ARG(num_outputs);
  WEFT_CHECK_ARG(outputs);
  const OpDef& def = *op->def;
  WEFT_CHECK(num_inputs >= 0 && (num_inputs == 0 || inputs != nullptr), kInvalidArgument)
      << def.name << ": bad input list";
  WEFT_CHECK(num_attrs >= 0 && (num_attrs == 0 || (keys != nullptr && vals != nullptr)), kInvalidArgument)
      << def.name << ": bad attribute list";
  std::vector<NDArray> in;
  in.reserve(static_cast<size_t>(num_inputs));
  for (int i = 0; i < num_inputs; ++i) {
    WEFT_CHECK(inputs[i] != nullptr, kInvalidArgument) << def.name << ": input " << i << " is NULL";
    in.push_back(inputs[i]->arr);
  }
  for (int i = 0; i < num_attrs; ++i)
    WEFT_CHECK(keys[i] != nullptr && vals[i] != nullptr, kInvalidArgument)
        << def.name << ": attribute " << i << " is NULL";
  std::vector<NDArray> out;
  const bool preallocated = *num_outputs > 0;
  if (preallocated) {
    WEFT_CHECK(*outputs != nullptr, kInvalidArgument) << def.name << ": out= list is NULL";
    for (int i = 0; i < *num_outputs; ++i) {
      WEFT_CHECK((*outputs)[i] != nullptr, kInvalidArgument) << def.name << ": out[" << i << "] is NULL";
      out.push_back((*outputs)[i]->arr);
    }
  }
  InvokeParsed(def, ParseCached(def, num_attrs, keys, vals), std::move(in), &out, Autograd::IsTraining());
  if (preallocated) {
    // out= arrays recorded by autograd carry their new tape entry back.
    for (int i = 0; i < *num_outputs && i < static_cast<int>(out.size()); ++i)
      if (out[static_cast<size_t>(i)].ag_node()) (*outputs)[i]->arr = out[static_cast<size_t>(i)];
  } else {
    auto& s = capi::Scratch();
    s.handles.clear();
    for (auto& a : out) s.handles.push_back(capi::NewHandle(std::move(a)));
    *num_outputs = static_cast<int>(s.handles.size());
    *outputs = s.handles.data();
  }
  WEFT_API_END();
}

}  // extern "C"
