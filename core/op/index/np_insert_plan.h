// Where np.insert puts its values: the geometry the three _npi_insert_* ops
// share (np_insert.cc), from shapes and, for a tensor `obj`, its values; and
// their CPU kernel, which the GPU kernel runs on host copies (np_insert.cu).
// Internal to core/op/index.
#pragma once
#include <cstdint>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {
namespace index_np {

enum class InsertForm { kScalar, kSlice, kTensor };

struct InsertGeom {
  int axis = 0;
  int64_t outer = 1, n = 0, inner = 1;  // arr as (outer, n, inner); n along the axis
  int64_t numnew = 0;                   // inserted slices along the axis
  Shape out;
  Shape block;                          // arr's shape with numnew along the axis
  std::vector<int64_t> value_stride;    // per block dim: the values' stride (0 where broadcast)
};

// The input positions of values and obj for an op's params (-1: absent).
int ValuesInput(const Params& p);
int ObjInput(const Params& p, InsertForm form);

// Everything but positions; `obj` is the tensor obj's shape (kTensor only).
// Throws kShape/kInvalidArgument naming the op and the argument.
InsertGeom InsertGeomOf(const Params& p, InsertForm form, const Shape& arr, const Shape* values, const Shape* obj);

// The output position along the axis of each inserted slice (NumPy's order:
// a stable sort of the indices, each shifted past the earlier insertions);
// `obj` the tensor obj's values as integers (kTensor only). Throws kInvalidArgument
// for an index outside [-n, n].
std::vector<int64_t> InsertPositions(const Params& p, InsertForm form, const InsertGeom& g,
                                     const std::vector<int64_t>& obj);

// NumPy's slice.indices(n) for the params start, stop, step (None as in
// Python): the first index, the step and how many; _npi_delete's too. O(1),
// for shape inference (which may pass huge sentinel dims).
struct SliceRange {
  int64_t start = 0, step = 1, count = 0;
};
SliceRange SliceRangeOf(const Params& p, int64_t n);

// The indices of SliceRangeOf, expanded (kernels: n is a real array's length).
std::vector<int64_t> SliceIndices(const Params& p, int64_t n);

// The kernel of all three ops (the form read from the op's name).
void InsertCompute(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out);

}  // namespace index_np
}  // namespace weft
