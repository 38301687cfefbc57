// Fuzz target: the symbol JSON loader (weft_symbol_from_json, MXNet 1.x
// format, incl. the upgrades of older files) through the C ABI, then what a
// loaded symbol is used for first: listing, attributes, shape and type
// inference from the file's own __shape__/__dtype__ hints. Invariant (issue
// 22's round trip): a symbol that loads writes JSON that loads again and
// writes the same JSON.
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_check.h"

namespace {

void Exercise(const weft_symbol* sym) {
  int n = 0;
  const char** names = nullptr;
  for (int which = 0; which < 4; ++which) FuzzFailed(weft_symbol_list(sym, which, &n, &names));
  FuzzFailed(weft_symbol_list_attr(sym, 1, &n, &names));
  FuzzFailed(weft_symbol_num_outputs(sym, &n));
  int complete = 0, n_arg = 0, n_out = 0, n_aux = 0;
  const int *arg_nd = nullptr, *out_nd = nullptr, *aux_nd = nullptr;
  const int64_t *const *arg_d = nullptr, *const *out_d = nullptr, *const *aux_d = nullptr;
  FuzzFailed(weft_symbol_infer_shape(sym, 0, nullptr, nullptr, nullptr, nullptr, 1, &complete, &n_arg, &arg_nd,
                                     &arg_d, &n_out, &out_nd, &out_d, &n_aux, &aux_nd, &aux_d));
  const weft_dtype *arg_t = nullptr, *out_t = nullptr, *aux_t = nullptr;
  FuzzFailed(weft_symbol_infer_type(sym, 0, nullptr, nullptr, &complete, &n_arg, &arg_t, &n_out, &out_t, &n_aux,
                                    &aux_t));
}

std::string ToJson(const weft_symbol* sym) {
  const char* json = nullptr;
  FUZZ_CHECK(weft_symbol_to_json(sym, &json) == 0, "a loaded symbol does not write JSON: %s", weft_last_error());
  return json;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);  // the C ABI takes NUL-terminated text
  weft_symbol* sym = nullptr;
  if (FuzzFailed(weft_symbol_from_json(text.c_str(), &sym))) return 0;
  Exercise(sym);
  std::string written = ToJson(sym);
  weft_symbol_free(sym);
  weft_symbol* again = nullptr;
  FUZZ_CHECK(weft_symbol_from_json(written.c_str(), &again) == 0, "the JSON written for a loaded symbol does not "
             "load: %s", weft_last_error());
  std::string rewritten = ToJson(again);
  weft_symbol_free(again);
  FUZZ_CHECK(rewritten == written, "the written JSON does not survive its own round trip (%zu vs %zu bytes)",
             rewritten.size(), written.size());
  return 0;
}
