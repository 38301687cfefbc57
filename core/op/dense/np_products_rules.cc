// Note [NumPy products as GEMM lists]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// MXNet 1.9.1's _np_dot and _npi_matmul are NumPy's dot and matmul. Both are a
// list of row-major matrix products over blocks of the inputs and the output,
// with no copy of either input:
//  * dot(a, b), b of shape (J..., k, n): out[I..., J..., n] holds, for each j
//    in J, a (I, k) times b[j] (k, n), written into the columns j*n ... of the
//    output's rows: row stride ldc = |J| * n. A 1-D b is one product with n = 1
//    (out a.shape[:-1]), a 1-D a one with m = 1, both 1-D the inner product
//    (out shape ()). A 0-d operand multiplies: a 0-d a is the product (1, 1) x
//    (1, size of b), a 0-d b the product (size of a, 1) x (1, 1).
//  * matmul(a, b): a 1-D a is read as (1, k) and a 1-D b as (k, 1) (those axes
//    are not in the output); the batch axes (all but the last two) broadcast
//    as NumPy's, so a block of a or b serves every output block it broadcasts
//    to (its offset repeats). 0-d operands are refused, as NumPy does.
//  * tensordot(a, b, axes): one product. With axes=N (_npi_tensordot_int_axes)
//    a's last N axes are summed with b's first N: a (m, k) times b (k, n). With
//    axis pairs (_npi_tensordot) the pairs, ordered by a's axis, must be a run
//    of consecutive axes at a's start or end, matched by a run of increasing
//    consecutive axes at b's start or end: then a is (m, k) or (k, m) and b
//    (k, n) or (n, k) as stored, a transposed product. Other pairings need a
//    transposing copy: Note [Tensordot pairings as einsum].
// The backward of C = A B is dA = dC B^T and dB = A^T dC over the same blocks
// (with the transposes of a transposed product moved accordingly);
// where a block of a (or b) served several products (dot's a for every j,
// matmul's broadcast blocks) the gradient products accumulate into it, the
// first one writing (accumulate = 0) unless the request is kAddTo. A product
// with m, n or k zero writes nothing, so such a list is empty and the kernels
// leave the output zero (dot of empty operands sums nothing).
#include "core/op/dense/np_products_rules.h"

#include <map>
#include <string>

#include "core/base/error.h"

namespace weft {
namespace tensor {
namespace {

// Marks the products whose block of C an earlier product of the list wrote.
void MarkAccumulation(NpGemmList* g) {
  std::map<int64_t, bool> seen;
  g->accumulate.assign(g->off_c.size(), 0);
  for (size_t i = 0; i < g->off_c.size(); ++i) {
    if (seen.count(g->off_c[i])) g->accumulate[i] = 1;
    seen[g->off_c[i]] = true;
  }
}

bool Empty(const NpGemmList& g) { return g.m == 0 || g.n == 0 || g.k == 0; }

}  // namespace

NpGemmList NpDotPlan(const Params&, const Shape& a, const Shape& b, Shape* out) {
  NpGemmList g;
  const int na = a.ndim(), nb = b.ndim();
  std::vector<int64_t> dims;
  int64_t blocks = 1;
  if (na == 0 || nb == 0) {  // a scalar operand multiplies
    g.m = na == 0 ? 1 : a.Size();
    g.k = 1;
    g.n = na == 0 ? b.Size() : 1;
    dims = na == 0 ? b.dims() : a.dims();
  } else {
    const int kb = nb == 1 ? 0 : nb - 2;  // b's contracted axis
    WEFT_CHECK(a[na - 1] == b[kb], kShape) << "_np_dot: shapes " << a.ToString() << " and " << b.ToString()
                                           << " not aligned: " << a[na - 1] << " (dim " << na - 1 << ") != " << b[kb]
                                           << " (dim " << kb << ")";
    g.m = a.ProdRange(0, na - 1);
    g.k = a[na - 1];
    g.n = nb == 1 ? 1 : b[nb - 1];
    blocks = nb <= 2 ? 1 : b.ProdRange(0, nb - 2);
    dims.assign(a.dims().begin(), a.dims().end() - 1);
    for (int i = 0; i < nb; ++i)
      if (i != kb) dims.push_back(b[i]);
  }
  *out = Shape(dims);
  g.lda = g.k;
  g.ldb = g.n;
  g.ldc = blocks * g.n;
  if (!Empty(g)) {
    for (int64_t j = 0; j < blocks; ++j) {
      g.off_a.push_back(0);
      g.off_b.push_back(j * g.k * g.n);
      g.off_c.push_back(j * g.n);
    }
  }
  MarkAccumulation(&g);
  return g;
}

NpGemmList NpMatmulPlan(const Params&, const Shape& a, const Shape& b, Shape* out) {
  const int na = a.ndim(), nb = b.ndim();
  WEFT_CHECK(na > 0 && nb > 0, kShape) << "_npi_matmul: input operand " << (na == 0 ? 0 : 1)
                                       << " does not have enough dimensions (a " << a.ToString() << ", b "
                                       << b.ToString() << "; 0-d operands are not matrices)";
  NpGemmList g;
  g.m = na == 1 ? 1 : a[na - 2];
  g.k = a[na - 1];
  const int64_t kb = nb == 1 ? b[0] : b[nb - 2];
  g.n = nb == 1 ? 1 : b[nb - 1];
  WEFT_CHECK(g.k == kb, kShape) << "_npi_matmul: input operand 1 has a mismatch in its core dimension 0 (size "
                                << kb << " is different from " << g.k << "); shapes " << a.ToString() << " and "
                                << b.ToString();
  // batch axes, right-aligned as NumPy broadcasts them
  const int ba = na > 2 ? na - 2 : 0, bb = nb > 2 ? nb - 2 : 0, nbatch = ba > bb ? ba : bb;
  std::vector<int64_t> batch(static_cast<size_t>(nbatch)), da(batch.size(), 1), db(batch.size(), 1);
  for (int i = 0; i < nbatch; ++i) {
    if (i >= nbatch - ba) da[static_cast<size_t>(i)] = a[i - (nbatch - ba)];
    if (i >= nbatch - bb) db[static_cast<size_t>(i)] = b[i - (nbatch - bb)];
    const int64_t x = da[static_cast<size_t>(i)], y = db[static_cast<size_t>(i)];
    WEFT_CHECK(x == y || x == 1 || y == 1, kShape)
        << "_npi_matmul: operands could not be broadcast together: shapes " << a.ToString() << " and "
        << b.ToString() << " (batch axis " << i << ": " << x << " and " << y << ")";
    batch[static_cast<size_t>(i)] = x == 1 ? y : x;
  }
  std::vector<int64_t> dims = batch;
  if (na > 1) dims.push_back(g.m);
  if (nb > 1) dims.push_back(g.n);
  *out = Shape(dims);
  g.lda = g.k;
  g.ldb = g.n;
  g.ldc = g.n;
  const Shape bshape(batch);
  const int64_t nblocks = bshape.Size();
  if (!Empty(g)) {
    std::vector<int64_t> idx(batch.size(), 0);
    for (int64_t t = 0; t < nblocks; ++t) {
      int64_t oa = 0, ob = 0;
      for (size_t i = 0; i < batch.size(); ++i) {
        oa = oa * da[i] + (da[i] == 1 ? 0 : idx[i]);
        ob = ob * db[i] + (db[i] == 1 ? 0 : idx[i]);
      }
      g.off_a.push_back(oa * g.m * g.k);
      g.off_b.push_back(ob * g.k * g.n);
      g.off_c.push_back(t * g.m * g.n);
      for (size_t i = batch.size(); i-- > 0;) {  // next batch index, row-major
        if (++idx[i] < batch[i]) break;
        idx[i] = 0;
      }
    }
  }
  MarkAccumulation(&g);
  return g;
}

namespace {

// One product a (rows_a, k) [or (k, rows_a) when trans_a] times b (k, cols_b)
// [or (cols_b, k)], a and b contiguous.
NpGemmList OneProduct(bool ta, bool tb, int64_t m, int64_t k, int64_t n) {
  NpGemmList g;
  g.trans_a = ta;
  g.trans_b = tb;
  g.m = m;
  g.k = k;
  g.n = n;
  g.lda = ta ? m : k;
  g.ldb = tb ? k : n;
  g.ldc = n;
  if (!Empty(g)) {
    g.off_a.push_back(0);
    g.off_b.push_back(0);
    g.off_c.push_back(0);
  }
  MarkAccumulation(&g);
  return g;
}

int64_t NormalizeAxis(const char* op, const char* param, int64_t axis, int ndim) {
  WEFT_CHECK(axis >= -ndim && axis < ndim, kInvalidArgument)
      << op << ": axis " << axis << " in '" << param << "' is out of range for an array of " << ndim << " dimensions";
  return axis < 0 ? axis + ndim : axis;
}

// Note [Tensordot pairings as einsum]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A pairing of _npi_tensordot that is no run of consecutive axes in the same
// order (np.tensordot(a, b, axes=([1, 2], [1, 0])), which MXNet 1.9.1 computes
// with transposing copies) is the einsum of one letter per axis of a, b's
// summed axes taking their partners' letters, the output a's free letters then
// b's: 'abc,dcb->ad' for that example. Such a list holds no product; its
// kernels run _npi_einsum's and _backward_npi_einsum's kernels (np_einsum.cc:
// one gather per element, no GEMM) with those subscripts. At most 20 distinct
// axes (the einsum kernel's bound), refused by name beyond.
NpGemmList TensordotAsEinsum(const Shape& a, const Shape& b, const std::map<int64_t, int64_t>& pairs) {
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const int na = a.ndim(), nb = b.ndim();
  WEFT_CHECK(na + nb - static_cast<int>(pairs.size()) <= 20, kInvalidArgument)
      << "_npi_tensordot: a " << a.ToString() << " and b " << b.ToString() << " have more than 20 distinct axes "
      << "for a pairing that is no single matrix product";
  std::string sa, sb, free_a, free_b;
  std::vector<char> b_letter(static_cast<size_t>(nb), 0);
  int next = 0;
  for (int i = 0; i < na; ++i) {
    const char c = kLetters[next++];
    sa += c;
    auto it = pairs.find(i);
    if (it == pairs.end()) free_a += c;
    else b_letter[static_cast<size_t>(it->second)] = c;
  }
  for (int j = 0; j < nb; ++j) {
    if (!b_letter[static_cast<size_t>(j)]) {
      b_letter[static_cast<size_t>(j)] = kLetters[next++];
      free_b += b_letter[static_cast<size_t>(j)];
    }
    sb += b_letter[static_cast<size_t>(j)];
  }
  NpGemmList g;
  g.as_einsum = true;
  g.subscripts = sa + "," + sb + "->" + free_a + free_b;
  return g;
}

}  // namespace

void RunTensordotAsEinsum(const NpGemmList& g, bool backward, bool gpu, const OpContext& ctx,
                          const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                          const std::vector<TensorView>& out) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(backward ? "_backward_npi_einsum" : "_npi_einsum");
  const Params p = Params::Parse(op, {{"num_args", "2"}, {"subscripts", g.subscripts}});
  const FCompute& run = gpu ? op.compute_gpu : op.compute_cpu;
  WEFT_CHECK(static_cast<bool>(run), kInternal) << op.name << " has no " << (gpu ? "GPU" : "CPU") << " kernel";
  run(ctx, p, in, req, out);
}

NpGemmList NpTensordotIntPlan(const Params& p, const Shape& a, const Shape& b, Shape* out) {
  const int64_t n = p.GetInt("axes");
  const int na = a.ndim(), nb = b.ndim();
  WEFT_CHECK(n >= 0 && n <= na && n <= nb, kInvalidArgument)
      << "_npi_tensordot_int_axes: axes = " << n << " must be in [0, min(a.ndim, b.ndim)] (a " << a.ToString()
      << ", b " << b.ToString() << ")";
  const int k = static_cast<int>(n);
  for (int i = 0; i < k; ++i)
    WEFT_CHECK(a[na - k + i] == b[i], kShape) << "_npi_tensordot_int_axes: shape mismatch for sum: a " << a.ToString()
                                              << " axis " << na - k + i << " and b " << b.ToString() << " axis " << i;
  std::vector<int64_t> dims(a.dims().begin(), a.dims().end() - k);
  dims.insert(dims.end(), b.dims().begin() + k, b.dims().end());
  *out = Shape(dims);
  return OneProduct(false, false, a.ProdRange(0, na - k), a.ProdRange(na - k, na), b.ProdRange(k, nb));
}

NpGemmList NpTensordotPlan(const Params& p, const Shape& a, const Shape& b, Shape* out) {
  const char* op = "_npi_tensordot";
  const std::vector<int64_t>& as = p.GetTuple("a_axes_summed");
  const std::vector<int64_t>& bs = p.GetTuple("b_axes_summed");
  WEFT_CHECK(as.size() == bs.size(), kInvalidArgument)
      << op << ": a_axes_summed and b_axes_summed have different lengths (" << as.size() << " and " << bs.size() << ")";
  const int na = a.ndim(), nb = b.ndim(), k = static_cast<int>(as.size());
  // pairs ordered by a's axis
  std::map<int64_t, int64_t> pairs;
  std::vector<bool> used_b(static_cast<size_t>(nb), false);
  for (int i = 0; i < k; ++i) {
    const int64_t x = NormalizeAxis(op, "a_axes_summed", as[static_cast<size_t>(i)], na);
    const int64_t y = NormalizeAxis(op, "b_axes_summed", bs[static_cast<size_t>(i)], nb);
    WEFT_CHECK(!pairs.count(x) && !used_b[static_cast<size_t>(y)], kInvalidArgument)
        << op << ": an axis is repeated in a_axes_summed or b_axes_summed";
    WEFT_CHECK(a[static_cast<int>(x)] == b[static_cast<int>(y)], kShape)
        << op << ": shape mismatch for sum: a " << a.ToString() << " axis " << x << " and b " << b.ToString()
        << " axis " << y;
    pairs[x] = y;
    used_b[static_cast<size_t>(y)] = true;
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < na; ++i)
    if (!pairs.count(i)) dims.push_back(a[i]);
  for (int i = 0; i < nb; ++i)
    if (!used_b[static_cast<size_t>(i)]) dims.push_back(b[i]);
  *out = Shape(dims);
  // Note [NumPy products as GEMM lists]: the summed axes as one run in each operand
  const int64_t a0 = k ? pairs.begin()->first : 0, b0 = k ? pairs.begin()->second : 0;
  bool runs = true;
  int i = 0;
  for (const auto& xy : pairs) {
    runs = runs && xy.first == a0 + i && xy.second == b0 + i;
    ++i;
  }
  const bool a_lead = k == 0 || a0 == 0, a_trail = k == 0 || a0 + k == na;
  const bool b_lead = k == 0 || b0 == 0, b_trail = k == 0 || b0 + k == nb;
  if (!(runs && (a_lead || a_trail) && (b_lead || b_trail))) return TensordotAsEinsum(a, b, pairs);
  const bool ta = !a_trail, tb = !b_lead;
  const int64_t ksize = ta ? a.ProdRange(0, k) : a.ProdRange(na - k, na);
  const int64_t m = ta ? a.ProdRange(k, na) : a.ProdRange(0, na - k);
  const int64_t n = tb ? b.ProdRange(0, nb - k) : b.ProdRange(k, nb);
  return OneProduct(ta, tb, m, ksize, n);
}

void NpProductBackward(const NpGemmList& f, NpGemmList grads[2]) {
  if (f.as_einsum) {  // Note [Tensordot pairings as einsum]: the backward runs as einsum too
    grads[0] = grads[1] = f;
    return;
  }
  // C[m, n] = op(A) op(B). a's gradient: dC op(B)^T, stored [m, k]; or, when
  // A is stored [k, m], its transpose op(B) dC^T.
  NpGemmList& ga = grads[0];
  ga = NpGemmList();
  if (!f.trans_a) {
    ga.trans_a = false;
    ga.trans_b = !f.trans_b;
    ga.m = f.m;
    ga.n = f.k;
    ga.input_a = 0;
    ga.input_b = 2;
    ga.lda = f.ldc;
    ga.ldb = f.ldb;
    ga.off_a = f.off_c;
    ga.off_b = f.off_b;
  } else {
    ga.trans_a = f.trans_b;
    ga.trans_b = true;
    ga.m = f.k;
    ga.n = f.m;
    ga.input_a = 2;
    ga.input_b = 0;
    ga.lda = f.ldb;
    ga.ldb = f.ldc;
    ga.off_a = f.off_b;
    ga.off_b = f.off_c;
  }
  ga.k = f.n;
  ga.ldc = f.lda;
  ga.off_c = f.off_a;
  MarkAccumulation(&ga);
  // b's gradient: op(A)^T dC, stored [k, n]; or, when B is stored [n, k],
  // its transpose dC^T op(A).
  NpGemmList& gb = grads[1];
  gb = NpGemmList();
  if (!f.trans_b) {
    gb.trans_a = !f.trans_a;
    gb.trans_b = false;
    gb.m = f.k;
    gb.n = f.n;
    gb.input_a = 1;
    gb.input_b = 0;
    gb.lda = f.lda;
    gb.ldb = f.ldc;
    gb.off_a = f.off_a;
    gb.off_b = f.off_c;
  } else {
    gb.trans_a = true;
    gb.trans_b = f.trans_a;
    gb.m = f.n;
    gb.n = f.k;
    gb.input_a = 0;
    gb.input_b = 1;
    gb.lda = f.ldc;
    gb.ldb = f.lda;
    gb.off_a = f.off_c;
    gb.off_b = f.off_a;
  }
  gb.k = f.m;
  gb.ldc = f.ldb;
  gb.off_c = f.off_b;
  MarkAccumulation(&gb);
}

}  // namespace tensor
}  // namespace weft
