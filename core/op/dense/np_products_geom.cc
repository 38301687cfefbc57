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
// The backward of C = A B is dA = dC B^T and dB = A^T dC over the same blocks;
// where a block of a (or b) served several products (dot's a for every j,
// matmul's broadcast blocks) the gradient products accumulate into it, the
// first one writing (accumulate = 0) unless the request is kAddTo. A product
// with m, n or k zero writes nothing, so such a list is empty and the kernels
// leave the output zero (dot of empty operands sums nothing).
#include "core/op/dense/np_products_geom.h"

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

NpGemmList NpDotPlan(const Shape& a, const Shape& b, Shape* out) {
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

NpGemmList NpMatmulPlan(const Shape& a, const Shape& b, Shape* out) {
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

void NpProductBackward(const NpGemmList& f, NpGemmList grads[2]) {
  // dA[m, k] = dC[m, n] * B^T (B stored [k, n])
  NpGemmList& ga = grads[0];
  ga = NpGemmList();
  ga.trans_b = true;
  ga.m = f.m;
  ga.n = f.k;
  ga.k = f.n;
  ga.lda = f.ldc;
  ga.ldb = f.ldb;
  ga.ldc = f.lda;
  ga.input_a = 0;
  ga.input_b = 2;
  ga.off_a = f.off_c;
  ga.off_b = f.off_b;
  ga.off_c = f.off_a;
  MarkAccumulation(&ga);
  // dB[k, n] = A^T (A stored [m, k]) * dC[m, n]
  NpGemmList& gb = grads[1];
  gb = NpGemmList();
  gb.trans_a = true;
  gb.m = f.k;
  gb.n = f.n;
  gb.k = f.m;
  gb.lda = f.lda;
  gb.ldb = f.ldc;
  gb.ldc = f.ldb;
  gb.input_a = 1;
  gb.input_b = 0;
  gb.off_a = f.off_a;
  gb.off_b = f.off_c;
  gb.off_c = f.off_b;
  MarkAccumulation(&gb);
}

}  // namespace tensor
}  // namespace weft
