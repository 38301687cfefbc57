// _npi_insert_scalar, _npi_insert_slice and _npi_insert_tensor: np.insert under
// MXNet 1.9.1's registered names (issue 37), for an int `obj` (int_ind), a
// slice (start, stop, step) and an integer array `obj`.
//
// Note [np.insert's three forms]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The inputs are (arr, values[, obj]), without `values` when the value is the
// number `val`; axis=None inserts into the flattened arr. The output is arr's
// dtype (values are converted). Where the values go follows NumPy's insert:
//  - an int obj (or a 0-d obj array): values made arr.ndim-dimensional by
//    leading 1s, their first axis moved to `axis`; as many slices as that axis
//    holds go in before obj;
//  - one index (a 1-element slice or obj array): the same without the move;
//  - several indices: one slice per index, the values broadcast to them, the
//    indices stably sorted and each shifted past the earlier insertions.
// An index outside [-n, n] is an error naming `obj`. MXNet 1.9.1 differs from
// this only where it fails: it refuses `val` with an int obj on a
// multi-dimensional arr ("dimension do not match") and reads a 0-d obj array
// from the wrong memory; Weft gives NumPy's result there. MXNet registers no
// gradient for these ops, and neither does Weft (weft.np.insert composes
// differentiable ops instead, Note [Insert as a gather]). The kernel moves
// elements by size after converting values once; the GPU kernel runs it on
// host copies (np_insert.cu): the positions come from obj's values on the host.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/op/axis_util.h"
#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/index/np_insert_plan.h"
#include "core/op/index/np_insert_gpu.h"
#include "core/op/op_util.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace index_np {
// Named, not anonymous: the unity build joins this file with the family's others.
namespace np_insert {

InsertForm FormOf(const Params& p) {
  const std::string& op = p.op()->name;
  if (op == "_npi_insert_slice") return InsertForm::kSlice;
  if (op == "_npi_insert_tensor") return InsertForm::kTensor;
  return InsertForm::kScalar;
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
  return s;
}

}  // namespace np_insert

SliceRange SliceRangeOf(const Params& p, int64_t n) {
  const std::string& op = p.op()->name;
  const int64_t step = p.IsNone("step") ? 1 : p.GetInt("step");
  WEFT_CHECK(step != 0, kInvalidArgument) << op << ": parameter 'step' (of slice obj) must not be zero";
  const int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
  auto bound = [&](const char* key, int64_t def) {
    if (p.IsNone(key)) return def;
    int64_t v = p.GetInt(key);
    if (v < 0) v += n;
    return std::min(std::max(v, lo), hi);
  };
  SliceRange r;
  r.start = bound("start", step > 0 ? 0 : n - 1);
  r.step = step;
  const int64_t stop = bound("stop", step > 0 ? n : -1);
  // arithmetic, never a walk: shape inference runs this with huge sentinel dims
  const uint64_t span = step > 0 ? (stop > r.start ? static_cast<uint64_t>(stop - r.start) : 0)
                                 : (r.start > stop ? static_cast<uint64_t>(r.start - stop) : 0);
  const uint64_t mag = step > 0 ? static_cast<uint64_t>(step) : 0 - static_cast<uint64_t>(step);
  r.count = span == 0 ? 0 : static_cast<int64_t>((span - 1) / mag + 1);
  return r;
}

std::vector<int64_t> SliceIndices(const Params& p, int64_t n) {
  const SliceRange r = SliceRangeOf(p, n);
  std::vector<int64_t> idx(static_cast<size_t>(r.count));
  for (int64_t k = 0; k < r.count; ++k) idx[static_cast<size_t>(k)] = r.start + k * r.step;
  return idx;
}

int ValuesInput(const Params& p) { return p.IsNone("val") ? 1 : -1; }

int ObjInput(const Params& p, InsertForm form) {
  if (form != InsertForm::kTensor) return -1;
  return p.IsNone("val") ? 2 : 1;
}

InsertGeom InsertGeomOf(const Params& p, InsertForm form, const Shape& arr_in, const Shape* values,
                        const Shape* obj) {
  const std::string& op = p.op()->name;
  const Shape arr = p.IsNone("axis") ? Shape{arr_in.Size()} : arr_in;
  InsertGeom g;
  WEFT_CHECK(arr.ndim() >= 1, kShape) << op << ": input 'arr' is 0-d: give axis=None to insert into it flattened";
  g.axis = p.IsNone("axis") ? 0 : tensor::NormalizeAxis(p.GetInt("axis"), arr.ndim(), op, "arr");
  g.outer = arr.ProdRange(0, g.axis);
  g.n = arr[g.axis];
  g.inner = arr.ProdRange(g.axis + 1, arr.ndim());
  const int nd = arr.ndim();
  const std::vector<int64_t> vs = values == nullptr ? std::vector<int64_t>{} : values->dims();
  WEFT_CHECK(static_cast<int>(vs.size()) <= nd, kShape) << op << ": input 'values' of shape "
      << Shape(vs).ToString() << " has more dimensions than 'arr' " << arr.ToString();
  std::vector<int64_t> padded(static_cast<size_t>(nd) - vs.size(), 1);
  padded.insert(padded.end(), vs.begin(), vs.end());
  const std::vector<int64_t> stride = np_insert::RowMajorStrides(padded);
  // Note [np.insert's three forms]: which of them this node is
  int64_t count = 0;
  bool one_index = false, moved = false;
  if (form == InsertForm::kScalar) {
    WEFT_CHECK(!p.IsNone("int_ind"), kInvalidArgument) << op << ": parameter 'int_ind' (the int obj) is required";
    moved = true;
  } else if (form == InsertForm::kSlice) {
    count = SliceRangeOf(p, g.n).count;
    one_index = count == 1;
  } else {
    WEFT_CHECK(obj != nullptr && obj->ndim() <= 1, kShape)
        << op << ": input 'obj' must be 0-d or 1-D, got shape " << (obj ? obj->ToString() : "?");
    moved = obj->ndim() == 0;
    count = obj->Size();
    one_index = !moved && count == 1;
  }
  std::vector<int64_t> vshape = padded, vstride = stride;
  if (moved) {  // the values' first axis moved to `axis`
    std::vector<int> order;
    for (int i = 1; i < nd; ++i) order.push_back(i);
    order.insert(order.begin() + g.axis, 0);
    for (int i = 0; i < nd; ++i) {
      vshape[static_cast<size_t>(i)] = padded[static_cast<size_t>(order[static_cast<size_t>(i)])];
      vstride[static_cast<size_t>(i)] = stride[static_cast<size_t>(order[static_cast<size_t>(i)])];
    }
  }
  g.numnew = moved || one_index ? vshape[static_cast<size_t>(g.axis)] : count;
  std::vector<int64_t> block = arr.dims();
  block[static_cast<size_t>(g.axis)] = g.numnew;
  g.value_stride.resize(static_cast<size_t>(nd));
  for (size_t d = 0; d < static_cast<size_t>(nd); ++d) {
    WEFT_CHECK(vshape[d] == block[d] || vshape[d] == 1, kShape) << op << ": input 'values' of shape "
        << Shape(vs).ToString() << " cannot be broadcast to the inserted block " << Shape(block).ToString();
    g.value_stride[d] = vshape[d] == 1 ? 0 : vstride[d];
  }
  g.block = Shape(block);
  std::vector<int64_t> out = arr.dims();
  out[static_cast<size_t>(g.axis)] += g.numnew;
  g.out = Shape(out);
  return g;
}

std::vector<int64_t> InsertPositions(const Params& p, InsertForm form, const InsertGeom& g,
                                     const std::vector<int64_t>& obj) {
  const std::string& op = p.op()->name;
  std::vector<int64_t> idx;
  if (form == InsertForm::kScalar) {
    idx = {p.GetInt("int_ind")};
  } else if (form == InsertForm::kSlice) {
    idx = SliceIndices(p, g.n);
  } else {
    idx = obj;
  }
  for (int64_t& i : idx) {
    WEFT_CHECK(i >= -g.n && i <= g.n, kInvalidArgument) << op << ": index " << i << " in 'obj' is out of bounds for "
        << "axis " << g.axis << " with size " << g.n;
    if (i < 0) i += g.n;
  }
  if (idx.size() == 1 || (form == InsertForm::kScalar)) {  // one index: a block of numnew slices
    std::vector<int64_t> pos(static_cast<size_t>(g.numnew));
    for (int64_t k = 0; k < g.numnew; ++k) pos[static_cast<size_t>(k)] = idx.empty() ? 0 : idx[0] + k;
    return pos;
  }
  std::vector<size_t> order(idx.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return idx[a] < idx[b]; });
  for (size_t j = 0; j < order.size(); ++j) idx[order[j]] += static_cast<int64_t>(j);
  return idx;
}

void InsertCompute(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                   const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const InsertForm form = np_insert::FormOf(p);
  const int vi = ValuesInput(p), oi = ObjInput(p, form);
  const InsertGeom g = InsertGeomOf(p, form, in[0].shape, vi >= 0 ? &in[static_cast<size_t>(vi)].shape : nullptr,
                                    oi >= 0 ? &in[static_cast<size_t>(oi)].shape : nullptr);
  std::vector<int64_t> obj;
  if (oi >= 0) {
    const TensorView& o = in[static_cast<size_t>(oi)];
    WEFT_CHECK(!IsFloating(o.dtype) && o.dtype != DType::kBool, kDType)
        << p.op()->name << ": input 'obj' must hold integers, got " << DTypeName(o.dtype);
    for (double v : nnx_cpu::ToDoubles(o)) obj.push_back(static_cast<int64_t>(v));
  }
  const std::vector<int64_t> pos = InsertPositions(p, form, g, obj);
  // the values in arr's dtype, once
  const DType dt = out[0].dtype;
  const size_t es = DTypeSize(dt);
  std::vector<uint64_t> vbuf;
  TensorView values;
  if (vi >= 0) {
    const TensorView& v = in[static_cast<size_t>(vi)];
    vbuf.assign((static_cast<size_t>(v.Size()) * es + 7) / 8 + 1, 0);
    values = TensorView{vbuf.data(), dt, v.shape};
    tensor_cpu::ConvertCopy(v, OpReq::kWriteTo, values);
  } else {
    vbuf.assign(1, 0);
    values = TensorView{vbuf.data(), dt, Shape(std::vector<int64_t>{})};
    tensor_cpu::FillCPU(values, OpReq::kWriteTo, p.GetFloat("val"));
  }
  // slot[j] >= 0: output row j of the axis is inserted slice slot[j]; else the next arr row
  const int64_t rows = g.n + g.numnew;
  std::vector<int64_t> slot(static_cast<size_t>(rows), -1);
  for (size_t k = 0; k < pos.size(); ++k) slot[static_cast<size_t>(pos[k])] = static_cast<int64_t>(k);
  const std::vector<int64_t>& bshape = g.block.dims();
  const char* a = static_cast<const char*>(in[0].data);
  const char* vals = static_cast<const char*>(values.data);
  tensor_cpu::WriteWithReq(req[0], out[0], [&](const TensorView& dst) {
    char* y = static_cast<char*>(dst.data);
    std::vector<int64_t> coord(bshape.size());
    for (int64_t o = 0; o < g.outer; ++o) {
      int64_t src_row = 0;
      for (int64_t j = 0; j < rows; ++j) {
        char* yrow = y + static_cast<size_t>((o * rows + j) * g.inner) * es;
        const int64_t k = slot[static_cast<size_t>(j)];
        if (k < 0) {
          std::memcpy(yrow, a + static_cast<size_t>((o * g.n + src_row++) * g.inner) * es,
                      static_cast<size_t>(g.inner) * es);
          continue;
        }
        for (int64_t i = 0; i < g.inner; ++i) {
          int64_t b = (o * g.numnew + k) * g.inner + i, off = 0;  // block element -> values element
          for (size_t d = bshape.size(); d-- > 0;) {
            off += (b % bshape[d]) * g.value_stride[d];
            b /= bshape[d];
          }
          std::memcpy(yrow + static_cast<size_t>(i) * es, vals + static_cast<size_t>(off) * es, es);
        }
      }
    }
  });
}

}  // namespace index_np

namespace np_insert_op {

using index_np::InsertForm;

std::vector<std::string> InputNames(const Params& p, InsertForm form) {
  std::vector<std::string> n = {"arr"};
  if (index_np::ValuesInput(p) >= 0) n.push_back("values");
  if (form == InsertForm::kTensor) n.push_back("obj");
  return n;
}

void Declare(OpDef& op, InsertForm form, const char* what) {
  op.describe(std::string("np.insert with ") + what + " (Note [np.insert's three forms]): arr with values "
              "inserted before the indices along axis (axis=None: arr flattened), in arr's dtype.");
  op.add_input("arr").add_input("values");
  if (form == InsertForm::kTensor) op.add_input("obj");
  op.add_optional_param("val", ParamType::kFloat, "A scaler to be inserted into 'array'");
  op.add_optional_param("start", ParamType::kInt, "If 'obj' is slice, 'start' is one of it's arguments.");
  op.add_optional_param("stop", ParamType::kInt, "If 'obj' is slice, 'stop' is one of it's arguments.");
  op.add_optional_param("step", ParamType::kInt, "If 'obj' is slice, 'step' is one of it's arguments.");
  op.add_optional_param("int_ind", ParamType::kInt,
                        "If 'obj' is int, 'int_ind' is the index before which'values' is inserted");
  op.add_optional_param("axis", ParamType::kInt, "Axis along which to insert 'values'.");
  op.list_input_names = [form](const Params& p) { return InputNames(p, form); };
  op.set_infer_shape([form](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
      for (const Shape& s : *in)
        if (!s.known()) return false;
      const int vi = index_np::ValuesInput(p), oi = index_np::ObjInput(p, form);
      const index_np::InsertGeom g =
          index_np::InsertGeomOf(p, form, (*in)[0], vi >= 0 ? &(*in)[static_cast<size_t>(vi)] : nullptr,
                                 oi >= 0 ? &(*in)[static_cast<size_t>(oi)] : nullptr);
      AssignShape(out, 0, g.out, p.op()->name + ": output");
      return true;
    })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        if ((*in)[0] == DType::kUnknown) return false;
        AssignType(out, 0, (*in)[0], p.op()->name + ": output");
        for (DType t : *in)
          if (t == DType::kUnknown) return false;
        return true;
      })
      .set_compute_cpu(index_np::InsertCompute)
      .set_compute_gpu(WEFT_GPU(cuda::NpInsertGpu));
}

[[maybe_unused]] const bool kInsertRegistered = [] {
  WEFT_REGISTER_OP(scalar, "_npi_insert_scalar");
  Declare(scalar, InsertForm::kScalar, "an int obj (int_ind)");
  WEFT_REGISTER_OP(slice, "_npi_insert_slice");
  Declare(slice, InsertForm::kSlice, "a slice obj (start, stop, step)");
  WEFT_REGISTER_OP(tensor, "_npi_insert_tensor");
  Declare(tensor, InsertForm::kTensor, "an integer array obj");
  return true;
}();

}  // namespace np_insert_op
}  // namespace weft
