#include "core/op/op_util.h"

#include <algorithm>
#include <thread>

#include "core/base/env.h"

namespace weft {

void AssignShape(std::vector<Shape>* v, size_t i, const Shape& s, const std::string& what) {
  if (!s.known()) return;
  Shape& cur = (*v)[i];
  if (!cur.known()) {
    cur = s;
    return;
  }
  WEFT_CHECK(cur == s, kShape) << what << ": expected shape " << s.ToString() << ", got "
                               << cur.ToString();
}

void AssignType(std::vector<DType>* v, size_t i, DType t, const std::string& what) {
  if (t == DType::kUnknown) return;
  DType& cur = (*v)[i];
  if (cur == DType::kUnknown) {
    cur = t;
    return;
  }
  WEFT_CHECK(cur == t, kDType) << what << ": expected dtype " << DTypeName(t) << ", got "
                               << DTypeName(cur);
}

bool SameShapeInfer(const OpDef& op, const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  Shape known = Shape::Unknown();
  for (auto* v : {in, out})
    for (const Shape& s : *v)
      if (s.known()) { known = s; break; }
  if (!known.known()) return false;
  std::vector<std::string> names = op.InputNames(p);
  for (size_t i = 0; i < in->size(); ++i)
    AssignShape(in, i, known, op.name + ": input '" + (i < names.size() ? names[i] : std::to_string(i)) + "'");
  for (size_t i = 0; i < out->size(); ++i) AssignShape(out, i, known, op.name + ": output " + std::to_string(i));
  return true;
}

bool SameTypeInfer(const OpDef& op, const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  DType known = DType::kUnknown;
  for (auto* v : {in, out})
    for (DType t : *v)
      if (t != DType::kUnknown) { known = t; break; }
  if (known == DType::kUnknown) return false;
  std::vector<std::string> names = op.InputNames(p);
  for (size_t i = 0; i < in->size(); ++i)
    AssignType(in, i, known, op.name + ": input '" + (i < names.size() ? names[i] : std::to_string(i)) + "'");
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, known, op.name + ": output " + std::to_string(i));
  return true;
}

void ParallelFor(int64_t n, int64_t cost_per_item, const std::function<void(int64_t, int64_t)>& fn) {
  // WEFT_OMP_THREADS, else OMP_NUM_THREADS (what oneDNN and OpenBLAS's
  // OpenMP obey, so "one thread" means one thread for every kernel), else
  // every core.
  static const int max_threads = [] {
    int t = GetEnvInt("OMP_NUM_THREADS", static_cast<int>(std::thread::hardware_concurrency()));
    t = GetEnvInt("WEFT_OMP_THREADS", t);
    return std::max(1, t);
  }();
  // Below ~256k units of work a thread start costs more than it saves.
  int64_t work = n * std::max<int64_t>(cost_per_item, 1);
  int threads = static_cast<int>(std::min<int64_t>(max_threads, work / (1 << 18)));
  if (threads <= 1 || n < 2) {
    if (n > 0) fn(0, n);
    return;
  }
  threads = static_cast<int>(std::min<int64_t>(threads, n));
  std::vector<std::thread> pool;
  int64_t chunk = (n + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    int64_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&fn, b, e] { fn(b, e); });
  }
  fn(0, std::min(n, chunk));
  for (auto& th : pool) th.join();
}

}  // namespace weft
