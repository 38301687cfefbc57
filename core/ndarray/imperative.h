// Imperative op calls: parse the attributes, infer shapes and types, allocate
// outputs and push the kernel to the engine — all checks happen here, on the
// caller's thread, before anything is pushed (bad input never reaches a worker).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/ndarray/ndarray.h"
#include "core/op/op_def.h"

namespace weft {

using AttrList = std::vector<std::pair<std::string, std::string>>;

// Runs `op` on inputs. When *outputs is non-empty its arrays are written in
// place (the `out=` argument; shapes and dtypes must match what inference
// gives); otherwise new arrays are allocated and appended. Returns the visible
// outputs through *outputs. Ops without inputs take their device from a "ctx"
// parameter (default cpu(0)); ops with inputs require all on one device.
void Invoke(const OpDef& op, const AttrList& attrs, const std::vector<NDArray>& inputs,
            std::vector<NDArray>* outputs, bool is_train = false);

// Same, with attributes already parsed (the executor and fast paths).
// `params` is taken by value so the pushed closure can own it without a copy.
void InvokeParsed(const OpDef& op, Params params, std::vector<NDArray> inputs,
                  std::vector<NDArray>* outputs, bool is_train = false);

}  // namespace weft
