// The installed kernels of the control-flow operators (Note [Subgraph
// operators] in subgraph_ops.h). Apart from subgraph_ops.h so the GPU file,
// which nvcc compiles, sees only the op layer.
#pragma once
#include <string>

#include "core/opdef/op_def.h"

namespace weft {
namespace control {

// Note [Subgraph kernel slots]
// A control-flow op's kernel runs graphs, which only the executor layer can
// do, and the op layer sits below it (docs/ARCHITECTURE.md: layers look only
// down). So each op's declaration binds its kernel to a typed slot, and the
// executor (core/executor/subgraph_kernels.cc) fills the slots once at load:
// the op names its slot, the executor names slots, neither names the other's
// op by a string. The op's name travels with the slot only to say which op
// this build cannot run.
enum class SubgraphSlot : int {
  kForeach,
  kForeachBackward,
  kWhileLoop,
  kWhileLoopBackward,
  kCond,
  kCondBackward,
  kCount  // the number of slots, not a slot
};

// Fills `slot`, once at load, from the layer that can run graphs.
void SetSubgraphKernel(SubgraphSlot slot, FCompute kernel);
// The kernel in `slot`; throws naming `op` when the slot is empty.
FCompute SubgraphKernel(SubgraphSlot slot, const std::string& op);

}  // namespace control
}  // namespace weft
