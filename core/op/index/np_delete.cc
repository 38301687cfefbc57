// _npi_delete: np.delete under MXNet 1.9.1's registered name (issue 37).
//
// Note [np.delete as MXNet reads obj]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Inputs (arr[, obj]): `obj` is an int (int_ind), a slice (start, stop, step:
// NumPy's slice rules) or, as an input, an array of indices of any shape and
// dtype (MXNet casts it to integers, so a bool array deletes indices 0 and 1,
// not NumPy's masked positions; weft.np.delete keeps NumPy's meaning on the
// host, Note [Delete as a gather]). axis=None deletes from the flattened arr.
// An int outside [-n, n) is an error naming `obj`, as in MXNet; of an array,
// only the indices in [0, n) delete (MXNet's kernel skips the others, negative
// ones included, where NumPy counts those from the end and raises for the
// out-of-range ones). For an int or a
// slice the output's shape follows from the shapes; for an array it depends on
// its values (Note [Data-dependent output shapes]): the op then runs
// imperatively or in a hybridized block, and bind refuses it, as MXNet's
// executor does. No gradient (MXNet registers none). The kernel copies the
// kept rows by element size; the GPU kernel runs it on host copies
// (np_delete.cu), the kept rows coming from obj's values on the host.
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/index/np_delete_cpu.h"
#include "core/op/index/np_delete_gpu.h"
#include "core/op/index/np_insert_plan.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace index_np {
// Named, not anonymous: the unity build joins this file with the family's others.
namespace np_delete {

const char kOp[] = "_npi_delete";

struct DeleteGeom {
  int axis = 0;
  int64_t outer = 1, n = 0, inner = 1;
  Shape arr;  // flattened when axis is None
};

DeleteGeom GeomOf(const Params& p, const Shape& arr_in) {
  DeleteGeom g;
  g.arr = p.IsNone("axis") ? Shape{arr_in.Size()} : arr_in;
  WEFT_CHECK(g.arr.ndim() >= 1, kShape) << kOp << ": input 'arr' is 0-d: give axis=None to delete from it flattened";
  g.axis = p.IsNone("axis") ? 0 : tensor::NormalizeAxis(p.GetInt("axis"), g.arr.ndim(), kOp, "arr");
  g.outer = g.arr.ProdRange(0, g.axis);
  g.n = g.arr[g.axis];
  g.inner = g.arr.ProdRange(g.axis + 1, g.arr.ndim());
  return g;
}

bool HasObjInput(const Params& p) { return p.IsNone("int_ind") && p.IsNone("start") && p.IsNone("stop") &&
                                           p.IsNone("step"); }

// The rows kept along the axis, in order; `obj` holds the obj input's values.
std::vector<int64_t> KeptRows(const Params& p, const DeleteGeom& g, const TensorView* obj) {
  std::vector<bool> gone(static_cast<size_t>(g.n), false);
  if (!p.IsNone("int_ind")) {
    int64_t i = p.GetInt("int_ind");
    WEFT_CHECK(i >= -g.n && i < g.n, kInvalidArgument) << kOp << ": index " << i << " in 'obj' is out of bounds "
        << "for axis " << g.axis << " with size " << g.n;
    gone[static_cast<size_t>(i < 0 ? i + g.n : i)] = true;
  } else if (obj == nullptr) {
    for (int64_t i : SliceIndices(p, g.n)) gone[static_cast<size_t>(i)] = true;
  } else {
    // Note [np.delete as MXNet reads obj]: integers; those outside [0, n) skipped
    for (double v : nnx_cpu::ToDoubles(*obj)) {
      // truncated as MXNet's cast to int64 (-0.5 is index 0); NaN and the far ones never cast
      if (v > -1 && v < static_cast<double>(g.n)) gone[static_cast<size_t>(static_cast<int64_t>(v))] = true;
    }
  }
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < g.n; ++i)
    if (!gone[static_cast<size_t>(i)]) kept.push_back(i);
  return kept;
}

// How many rows an int or a slice obj keeps, by arithmetic: shape inference
// runs this with huge sentinel dims (Note [Partial shapes]), so never a walk.
int64_t KeptCount(const Params& p, const DeleteGeom& g) {
  if (p.IsNone("int_ind")) return g.n - SliceRangeOf(p, g.n).count;
  const int64_t i = p.GetInt("int_ind");
  WEFT_CHECK(i >= -g.n && i < g.n, kInvalidArgument) << kOp << ": index " << i << " in 'obj' is out of bounds "
      << "for axis " << g.axis << " with size " << g.n;
  return g.n - 1;
}

Shape OutShape(const DeleteGeom& g, int64_t kept) {
  Shape s = g.arr;
  s[g.axis] = kept;
  return s;
}

}  // namespace np_delete

void DeleteCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const np_delete::DeleteGeom g = np_delete::GeomOf(p, in[0].shape);
  const std::vector<int64_t> kept = np_delete::KeptRows(p, g, in.size() > 1 ? &in[1] : nullptr);
  WEFT_CHECK(out[0].Size() == g.outer * static_cast<int64_t>(kept.size()) * g.inner, kInternal)
      << np_delete::kOp << ": output sized for another obj";
  const size_t es = DTypeSize(in[0].dtype);
  const size_t row = static_cast<size_t>(g.inner) * es;
  const char* a = static_cast<const char*>(in[0].data);
  tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& dst) {
    char* y = static_cast<char*>(dst.data);
    for (int64_t o = 0; o < g.outer; ++o)
      for (int64_t r : kept) {
        std::memcpy(y, a + static_cast<size_t>(o * g.n + r) * row, row);
        y += row;
      }
  });
}

}  // namespace index_np

namespace np_delete_op {

[[maybe_unused]] const bool kDeleteRegistered = [] {
  WEFT_REGISTER_OP(op, "_npi_delete").set_compute_gpu(WEFT_GPU(cuda::NpDeleteGpu));
  op.describe("np.delete (Note [np.delete as MXNet reads obj]): arr without the sub-arrays at obj along axis "
              "(axis=None: arr flattened); obj an int (int_ind), a slice (start, stop, step) or an index array.")
      .add_input("arr")
      .add_input("obj");
  op.add_optional_param("start", ParamType::kInt, "If 'obj' is slice, 'start' is one of it's arguments.");
  op.add_optional_param("stop", ParamType::kInt, "If 'obj' is slice, 'stop' is one of it's arguments.");
  op.add_optional_param("step", ParamType::kInt, "If 'obj' is slice, 'step' is one of it's arguments.");
  op.add_optional_param("int_ind", ParamType::kInt,
                        "If 'obj' is int, 'int_ind' is the index before which'values' is inserted");
  op.add_optional_param("axis", ParamType::kInt, "Axis along which to insert `values`.");
  op.list_input_names = [](const Params& p) {
    std::vector<std::string> n = {"arr"};
    if (index_np::np_delete::HasObjInput(p)) n.push_back("obj");
    return n;
  };
  op.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        if (!(*in)[0].known()) return false;
        const index_np::np_delete::DeleteGeom g = index_np::np_delete::GeomOf(p, (*in)[0]);
        if (index_np::np_delete::HasObjInput(p)) return false;  // Note [Data-dependent output shapes]
        AssignShape(out, 0, index_np::np_delete::OutShape(g, index_np::np_delete::KeptCount(p, g)),
                    "_npi_delete: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if ((*in)[0] == DType::kUnknown) return false;
        AssignType(out, 0, (*in)[0], "_npi_delete: output");
        return in->size() < 2 || (*in)[1] != DType::kUnknown;
      })
      .set_compute_cpu(index_np::DeleteCompute)
      .set_dynamic_shape(DynamicShapeRule{{1}, [](const Params& p, const std::vector<Shape>& in,
                                                  const std::vector<TensorView>& v) {
        const index_np::np_delete::DeleteGeom g = index_np::np_delete::GeomOf(p, in[0]);
        const int64_t kept = static_cast<int64_t>(index_np::np_delete::KeptRows(p, g, &v[1]).size());
        return std::vector<Shape>{index_np::np_delete::OutShape(g, kept)};
      }});
  return true;
}();

}  // namespace np_delete_op
}  // namespace weft
