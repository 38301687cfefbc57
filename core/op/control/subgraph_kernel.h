// The installed kernels of the control-flow operators (Note [Subgraph
// operators] in subgraph_ops.h). Apart from subgraph_ops.h so the GPU file,
// which nvcc compiles, sees only the op layer.
#pragma once
#include <string>

#include "core/opdef/op_def.h"

namespace weft {
namespace control {

// The kernel of subgraph op `op` (by canonical name), set once at load by the
// layer that can run graphs; an op whose kernel is not installed throws.
void SetSubgraphKernel(const std::string& op, FCompute kernel);
FCompute SubgraphKernel(const std::string& op);

}  // namespace control
}  // namespace weft
