#include "core/op/index/legacy_index_cpu.h"

#include <cstring>
#include <vector>

#include "core/op/common/copy_cpu.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/index/indexing_cpu.h"

namespace weft {
namespace tensor_cpu {
namespace {

int64_t Clip(int64_t i, int64_t n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

TensorView Doubles(std::vector<double>* v, const Shape& s) {
  TensorView t;
  t.data = v->data();
  t.dtype = DType::kFloat64;
  t.shape = s;
  return t;
}

}  // namespace

void FillElement0IndexCPU(const TensorView& lhs, const TensorView& val, const TensorView& idx, OpReq req,
                          const TensorView& out) {
  std::vector<double> o = nnx_cpu::ToDoubles(lhs);
  const std::vector<double> v = nnx_cpu::ToDoubles(val);
  const std::vector<int64_t> k = ReadIndices(idx);
  const int64_t rows = static_cast<int64_t>(k.size()), cols = rows > 0 ? lhs.Size() / rows : 0;
  for (int64_t i = 0; i < rows && cols > 0; ++i)
    o[static_cast<size_t>(i * cols + Clip(k[static_cast<size_t>(i)], cols))] = v[static_cast<size_t>(i)];
  ConvertCopy(Doubles(&o, out.shape), req, out);
}

void OneHotEncodeCPU(const TensorView& idx, OpReq req, const TensorView& out) {
  const std::vector<int64_t> k = ReadIndices(idx);
  std::vector<double> o(static_cast<size_t>(out.Size()), 0.0);
  const int64_t rows = static_cast<int64_t>(k.size()), cols = rows > 0 ? out.Size() / rows : 0;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t j = k[static_cast<size_t>(i)];
    if (j >= 0 && j < cols) o[static_cast<size_t>(i * cols + j)] = 1.0;
  }
  ConvertCopy(Doubles(&o, out.shape), req, out);
}

void ArgmaxChannelCPU(const TensorView& data, OpReq req, const TensorView& out) {
  const std::vector<double> v = nnx_cpu::ToDoubles(data);
  const int64_t cols = data.ndim() > 0 ? data.shape[data.ndim() - 1] : 1;
  const int64_t rows = cols > 0 ? data.Size() / cols : 0;
  std::vector<double> o(static_cast<size_t>(out.Size()), 0.0);
  for (int64_t i = 0; i < rows; ++i) {
    int64_t best = 0;
    for (int64_t j = 1; j < cols; ++j)
      if (v[static_cast<size_t>(i * cols + j)] > v[static_cast<size_t>(i * cols + best)]) best = j;
    o[static_cast<size_t>(i)] = static_cast<double>(best);
  }
  ConvertCopy(Doubles(&o, out.shape), req, out);
}

void BatchTakeCPU(const TensorView& a, const TensorView& idx, OpReq req, const TensorView& out) {
  const std::vector<int64_t> k = ReadIndices(idx);
  const int64_t rows = static_cast<int64_t>(k.size()), cols = rows > 0 ? a.Size() / rows : 0;
  WriteWithReq(req, out, [&](const TensorView& o) {
    const size_t es = DTypeSize(a.dtype);
    const char* src = static_cast<const char*>(a.data);
    char* dst = static_cast<char*>(o.data);
    for (int64_t i = 0; i < rows; ++i)
      std::memcpy(dst + i * static_cast<int64_t>(es),
                  src + (i * cols + Clip(k[static_cast<size_t>(i)], cols)) * static_cast<int64_t>(es), es);
  });
}

}  // namespace tensor_cpu
}  // namespace weft
