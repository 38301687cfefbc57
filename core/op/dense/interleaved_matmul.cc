// The interleaved multi-head attention products of MXNet 1.x contrib
// (transformer.cc), with their backward operators:
//   _contrib_interleaved_matmul_selfatt_qk(queries_keys_values)          -> (B*H, L, L)
//   _contrib_interleaved_matmul_selfatt_valatt(queries_keys_values, attention) -> (L, B, E)
//   _contrib_interleaved_matmul_encdec_qk(queries, keys_values)          -> (B*H, Lq, Lk)
//   _contrib_interleaved_matmul_encdec_valatt(keys_values, attention)    -> (Lq, B, E)
// Layouts: Note [Interleaved attention layout] in interleaved_matmul_rules.h.
// Each backward op _backward_interleaved_matmul_<x> takes (out_grad, forward
// inputs...) and returns the gradients of the forward inputs. CPU kernels run
// the plan's products with nn_cpu::Gemm (dense/gemm_cpu.h), the GPU kernel
// with gpu::GemmStridedBatched; float32 and float64.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_util.h"
#include "core/op/dense/gemm_cpu.h"
#include "core/op/dense/interleaved_matmul_rules.h"
#include "core/op/dense/interleaved_matmul_gpu.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"

namespace weft {
namespace nnm {
namespace {

const char* kPrefix = "_contrib_interleaved_matmul_";
const char* kBackwardPrefix = "_backward_interleaved_matmul_";

// "selfatt_qk" ... from either the forward or the backward op's name.
std::string KindOf(const std::string& op) {
  const std::string f = kPrefix, b = kBackwardPrefix;
  if (op.compare(0, f.size(), f) == 0) return op.substr(f.size());
  return op.substr(b.size());
}

int64_t Heads(const Params& p) {
  const int64_t h = p.GetInt("heads");
  WEFT_CHECK(h >= 1, kInvalidArgument) << p.op()->name << ": parameter 'heads' must be >= 1, got " << h;
  return h;
}

void Check3D(const std::string& op, const Shape& s, const char* name, const char* layout) {
  WEFT_CHECK(s.ndim() == 3, kShape) << op << ": input '" << name << "' must be 3-D " << layout << ", got "
                                    << s.ToString();
}

// Head size D of a projection axis holding `parts` * heads * D values.
int64_t HeadDim(const std::string& op, const char* name, int64_t width, int64_t parts, int64_t heads) {
  int64_t per = 0;  // parts * heads, checked: heads=2**62 overflowed
  WEFT_CHECK(!__builtin_mul_overflow(parts, heads, &per) && width % per == 0, kShape)
      << op << ": input '" << name << "' axis 2 (" << width << ") must be a multiple of " << parts << " * heads ("
      << heads << ")";
  return width / per;
}

StridedGemm G(bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t batch, double alpha) {
  StridedGemm g;
  g.ta = ta;
  g.tb = tb;
  g.m = m;
  g.n = n;
  g.k = k;
  g.batch = batch;
  g.alpha = alpha;
  return g;
}

void SetA(StridedGemm* g, int in, int64_t off, int64_t ld, int64_t stride) {
  g->a = in;
  g->a_off = off;
  g->lda = ld;
  g->sa = stride;
}
void SetB(StridedGemm* g, int in, int64_t off, int64_t ld, int64_t stride) {
  g->b = in;
  g->b_off = off;
  g->ldb = ld;
  g->sb = stride;
}
void SetC(StridedGemm* g, int out, int64_t off, int64_t ld, int64_t stride) {
  g->c = out;
  g->c_off = off;
  g->ldc = ld;
  g->sc = stride;
}

}  // namespace

InterleavedPlan InterleavedPlanOf(const Params& p, const std::vector<Shape>& in) {
  const std::string& op = p.op()->name;
  const bool backward = op.compare(0, std::string(kBackwardPrefix).size(), kBackwardPrefix) == 0;
  const std::string kind = KindOf(op);
  const int o = backward ? 1 : 0;  // index of the first forward input
  const int64_t H = Heads(p);
  InterleavedPlan plan;
  if (kind == "selfatt_qk" || kind == "selfatt_valatt") {
    const Shape& qkv = in[o];
    const int64_t L = qkv[0], B = qkv[1], D = HeadDim(op, "queries_keys_values", qkv[2], 3, H);
    const int64_t n = B * H, ld = B * 3 * H * D, st = 3 * D, ldo = B * H * D;
    if (kind == "selfatt_qk") {
      const double alpha = 1.0 / std::sqrt(static_cast<double>(D));
      if (!backward) {  // out_i = alpha q_i k_i^T
        StridedGemm g = G(false, true, L, L, D, n, alpha);
        SetA(&g, 0, 0, ld, st);
        SetB(&g, 0, D, ld, st);
        SetC(&g, 0, 0, L, L * L);
        plan.gemms.push_back(g);
      } else {  // gq_i = alpha g_i k_i, gk_i = alpha g_i^T q_i; gv = 0
        StridedGemm gq = G(false, false, L, D, L, n, alpha);
        SetA(&gq, 0, 0, L, L * L);
        SetB(&gq, 1, D, ld, st);
        SetC(&gq, 0, 0, ld, st);
        StridedGemm gk = G(true, false, L, D, L, n, alpha);
        SetA(&gk, 0, 0, L, L * L);
        SetB(&gk, 1, 0, ld, st);
        SetC(&gk, 0, D, ld, st);
        plan.gemms = {gq, gk};
        plan.zero_first = {0};
      }
    } else {
      if (!backward) {  // o_i = att_i v_i
        StridedGemm g = G(false, false, L, D, L, n, 1.0);
        SetA(&g, 1, 0, L, L * L);
        SetB(&g, 0, 2 * D, ld, st);
        SetC(&g, 0, 0, ldo, D);
        plan.gemms.push_back(g);
      } else {  // gv_i = att_i^T go_i, gatt_i = go_i v_i^T; gq = gk = 0
        StridedGemm gv = G(true, false, L, D, L, n, 1.0);
        SetA(&gv, 2, 0, L, L * L);
        SetB(&gv, 0, 0, ldo, D);
        SetC(&gv, 0, 2 * D, ld, st);
        StridedGemm ga = G(false, true, L, L, D, n, 1.0);
        SetA(&ga, 0, 0, ldo, D);
        SetB(&ga, 1, 2 * D, ld, st);
        SetC(&ga, 1, 0, L, L * L);
        plan.gemms = {gv, ga};
        plan.zero_first = {0};
      }
    }
    return plan;
  }
  if (kind == "encdec_qk") {
    const Shape &q = in[o], &kv = in[o + 1];
    const int64_t Lq = q[0], B = q[1], Lk = kv[0], D = HeadDim(op, "queries", q[2], 1, H);
    const int64_t n = B * H, ldq = B * H * D, ldkv = 2 * B * H * D;
    const double alpha = 1.0 / std::sqrt(static_cast<double>(D));
    if (!backward) {  // out_i = alpha q_i k_i^T
      StridedGemm g = G(false, true, Lq, Lk, D, n, alpha);
      SetA(&g, 0, 0, ldq, D);
      SetB(&g, 1, 0, ldkv, 2 * D);
      SetC(&g, 0, 0, Lk, Lq * Lk);
      plan.gemms.push_back(g);
    } else {  // gq_i = alpha g_i k_i, gk_i = alpha g_i^T q_i; gv = 0
      StridedGemm gq = G(false, false, Lq, D, Lk, n, alpha);
      SetA(&gq, 0, 0, Lk, Lq * Lk);
      SetB(&gq, 2, 0, ldkv, 2 * D);
      SetC(&gq, 0, 0, ldq, D);
      StridedGemm gk = G(true, false, Lk, D, Lq, n, alpha);
      SetA(&gk, 0, 0, Lk, Lq * Lk);
      SetB(&gk, 1, 0, ldq, D);
      SetC(&gk, 1, 0, ldkv, 2 * D);
      plan.gemms = {gq, gk};
      plan.zero_first = {1};
    }
    return plan;
  }
  // encdec_valatt
  const Shape &kv = in[o], &att = in[o + 1];
  const int64_t Lk = kv[0], B = kv[1], D = HeadDim(op, "keys_values", kv[2], 2, H), Lq = att[1];
  const int64_t n = B * H, ldkv = 2 * B * H * D, ldo = B * H * D;
  if (!backward) {  // o_i = att_i v_i
    StridedGemm g = G(false, false, Lq, D, Lk, n, 1.0);
    SetA(&g, 1, 0, Lk, Lq * Lk);
    SetB(&g, 0, D, ldkv, 2 * D);
    SetC(&g, 0, 0, ldo, D);
    plan.gemms.push_back(g);
  } else {  // gv_i = att_i^T go_i, gatt_i = go_i v_i^T; gk = 0
    StridedGemm gv = G(true, false, Lk, D, Lq, n, 1.0);
    SetA(&gv, 2, 0, Lk, Lq * Lk);
    SetB(&gv, 0, 0, ldo, D);
    SetC(&gv, 0, D, ldkv, 2 * D);
    StridedGemm ga = G(false, true, Lq, Lk, D, n, 1.0);
    SetA(&ga, 0, 0, ldo, D);
    SetB(&ga, 1, D, ldkv, 2 * D);
    SetC(&ga, 1, 0, Lk, Lq * Lk);
    plan.gemms = {gv, ga};
    plan.zero_first = {0};
  }
  return plan;
}

}  // namespace nnm

namespace {

// Forward output shapes (and the checks naming the op), from the forward inputs.
Shape ForwardShape(const Params& p, const std::string& kind, const std::vector<Shape>& x) {
  const std::string& op = p.op()->name;
  const int64_t H = nnm::Heads(p);
  if (kind == "selfatt_qk") {
    nnm::Check3D(op, x[0], "queries_keys_values", "(seq_length, batch, 3 * heads * head_dim)");
    nnm::HeadDim(op, "queries_keys_values", x[0][2], 3, H);
    return Shape{x[0][1] * H, x[0][0], x[0][0]};
  }
  if (kind == "selfatt_valatt") {
    nnm::Check3D(op, x[0], "queries_keys_values", "(seq_length, batch, 3 * heads * head_dim)");
    nnm::Check3D(op, x[1], "attention", "(batch * heads, seq_length, seq_length)");
    const int64_t D = nnm::HeadDim(op, "queries_keys_values", x[0][2], 3, H);
    WEFT_CHECK(x[1][0] == x[0][1] * H && x[1][1] == x[0][0] && x[1][2] == x[0][0], kShape)
        << op << ": input 'attention' must be (batch * heads, seq_length, seq_length) = ("
        << x[0][1] * H << ", " << x[0][0] << ", " << x[0][0] << "), got " << x[1].ToString();
    return Shape{x[0][0], x[0][1], H * D};
  }
  if (kind == "encdec_qk") {
    nnm::Check3D(op, x[0], "queries", "(q_seq_length, batch, heads * head_dim)");
    nnm::Check3D(op, x[1], "keys_values", "(kv_seq_length, batch, 2 * heads * head_dim)");
    nnm::HeadDim(op, "queries", x[0][2], 1, H);
    // Halved rather than doubled: 2 * a 2**62 width overflows int64.
    WEFT_CHECK(x[1][2] % 2 == 0 && x[1][2] / 2 == x[0][2] && x[1][1] == x[0][1], kShape)
        << op << ": input 'keys_values' must be (kv_seq_length, " << x[0][1] << ", 2 * " << x[0][2]
        << ") for queries " << x[0].ToString() << ", got " << x[1].ToString();
    return Shape{x[0][1] * H, x[0][0], x[1][0]};
  }
  nnm::Check3D(op, x[0], "keys_values", "(kv_seq_length, batch, 2 * heads * head_dim)");
  nnm::Check3D(op, x[1], "attention", "(batch * heads, q_seq_length, kv_seq_length)");
  const int64_t D = nnm::HeadDim(op, "keys_values", x[0][2], 2, H);
  WEFT_CHECK(x[1][0] == x[0][1] * H && x[1][2] == x[0][0], kShape)
      << op << ": input 'attention' must be (batch * heads, q_seq_length, kv_seq_length) = (" << x[0][1] * H
      << ", q_seq_length, " << x[0][0] << "), got " << x[1].ToString();
  return Shape{x[1][1], x[0][1], H * D};
}

bool InferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const std::string& op = p.op()->name;
  DType t = DType::kUnknown;
  for (DType d : *in)
    if (d != DType::kUnknown) t = d;
  if (t == DType::kUnknown) return false;
  // float16/bfloat16: the GPU kernel's (16-bit gpu::GemmStridedBatched); the CPU kernel refuses them when run.
  WEFT_CHECK(IsFloating(t), kDType) << op << ": inputs must be float32, float64, float16 or bfloat16, got "
                                    << DTypeName(t);
  for (size_t i = 0; i < in->size(); ++i) AssignType(in, i, t, op + ": input '" + nnx::InputName(p, i) + "'");
  for (size_t i = 0; i < out->size(); ++i) AssignType(out, i, t, op + ": output " + std::to_string(i));
  return true;
}

template <typename T>
void RunPlanCPU(const nnm::InterleavedPlan& plan, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
                const std::vector<TensorView>& out) {
  for (int o : plan.zero_first)
    if (req[o] != OpReq::kNull && req[o] != OpReq::kAddTo)
      out[o].ZeroFill();
  for (const nnm::StridedGemm& g : plan.gemms) {
    // k == 0: an empty product, already written by the zero fill above (and an empty input may
    // have no buffer, so its offsets below would be applied to a null pointer).
    if (req[g.c] == OpReq::kNull || g.m == 0 || g.n == 0 || g.k == 0) continue;
    const bool add = req[g.c] == OpReq::kAddTo;
    const T* a = in[g.a].ptr<T>() + g.a_off;
    const T* b = in[g.b].ptr<T>() + g.b_off;
    T* c = out[g.c].ptr<T>() + g.c_off;
    // nn_cpu::Gemm has no alpha: scaled products go through a (m, n) buffer.
    T* tmp = g.alpha == 1.0 ? nullptr : static_cast<T*>(nn_cpu::ThreadScratch(0, static_cast<size_t>(g.m * g.n) * sizeof(T)));
    for (int64_t i = 0; i < g.batch; ++i) {
      T* ci = c + i * g.sc;
      if (tmp == nullptr) {
        nn_cpu::Gemm(g.ta, g.tb, g.m, g.n, g.k, a + i * g.sa, g.lda, b + i * g.sb, g.ldb, add ? T(1) : T(0), ci, g.ldc);
        continue;
      }
      nn_cpu::Gemm(g.ta, g.tb, g.m, g.n, g.k, a + i * g.sa, g.lda, b + i * g.sb, g.ldb, T(0), tmp, g.n);
      const T alpha = static_cast<T>(g.alpha);
      for (int64_t r = 0; r < g.m; ++r)
        for (int64_t s = 0; s < g.n; ++s) {
          T& dst = ci[r * g.ldc + s];
          dst = (add ? dst : T(0)) + alpha * tmp[r * g.n + s];
        }
    }
  }
}

void InterleavedCPU(const OpContext&, const Params& p, const std::vector<TensorView>& in,
                    const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  std::vector<Shape> shapes;
  for (const TensorView& v : in) shapes.push_back(v.shape);
  const nnm::InterleavedPlan plan = nnm::InterleavedPlanOf(p, shapes);
  switch (in[0].dtype) {
    case DType::kFloat32: RunPlanCPU<float>(plan, in, req, out); break;
    case DType::kFloat64: RunPlanCPU<double>(plan, in, req, out); break;
    default:
      WEFT_THROW(kDType) << p.op()->name << ": dtype " << DTypeName(in[0].dtype)
                         << " is not supported on CPU (float32 or float64; float16/bfloat16 run on GPU)";
  }
}

void Register(const std::string& kind, std::vector<std::string> inputs, const std::string& doc) {
  const std::string name = std::string("_contrib_interleaved_matmul_") + kind;
  const std::string bname = std::string("_backward_interleaved_matmul_") + kind;
  WEFT_REGISTER_OP(fwd, name).set_compute_gpu(WEFT_GPU(cuda::InterleavedMatmulGpu));
  fwd.describe(doc);
  for (const std::string& i : inputs) fwd.add_input(i);
  fwd.add_required_param("heads", ParamType::kInt, "Set number of heads")
      .set_infer_shape([kind](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        for (const Shape& s : *in)
          if (!s.known()) return false;
        AssignShape(out, 0, ForwardShape(p, kind, *in), p.op()->name + ": output");
        return true;
      })
      .set_infer_type(InferType)
      .set_compute_cpu(InterleavedCPU)
      .set_gradient([bname](const NodePtr& n, const std::vector<NodeEntry>& og) {
        std::vector<NodeEntry> in = {og[0]};
        for (const NodeEntry& e : n->inputs) in.push_back(e);
        return ViaBackwardOp(n, bname, in);
      });

  WEFT_REGISTER_OP(bwd, bname).set_compute_gpu(WEFT_GPU(cuda::InterleavedMatmulGpu));
  bwd.describe("Gradient of " + name + " from (out_grad, " + inputs[0] + (inputs.size() > 1 ? ", " + inputs[1] : "") +
               "): the gradients of its inputs.");
  bwd.add_input("out_grad");
  for (const std::string& i : inputs) bwd.add_input(i);
  bwd.add_required_param("heads", ParamType::kInt, "Set number of heads")
      .set_num_outputs(static_cast<int>(inputs.size()))
      .set_infer_shape([kind](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        std::vector<Shape> x(in->begin() + 1, in->end());
        for (const Shape& s : x)
          if (!s.known()) return false;
        AssignShape(in, 0, ForwardShape(p, kind, x), p.op()->name + ": input 'out_grad'");
        for (size_t i = 0; i < x.size(); ++i) AssignShape(out, i, x[i], p.op()->name + ": output " + std::to_string(i));
        return true;
      })
      .set_infer_type(InferType)
      .set_compute_cpu(InterleavedCPU);
  bwd.list_output_names = [inputs](const Params&) {
    std::vector<std::string> n;
    for (const std::string& i : inputs) n.push_back(i + "_grad");
    return n;
  };
}

[[maybe_unused]] const bool kInterleavedRegistered = [] {
  Register("selfatt_qk", {"queries_keys_values"},
           "Compute the matrix multiplication between the projections of queries and keys in multihead attention "
           "use as self attention.\n\n"
           "the input must be a single tensor of interleaved projections of queries, keys and values following "
           "the layout: (seq_length, batch_size, num_heads * head_dim * 3)\n\n"
           "the equivalent code would be::\n\n"
           "  tmp = mx.nd.reshape(queries_keys_values, shape=(0, 0, num_heads, 3, -1))\n"
           "  q_proj = mx.nd.transpose(tmp[:,:,:,0,:], axes=(1, 2, 0, 3))\n"
           "  q_proj = mx.nd.reshape(q_proj, shape=(-1, 0, 0), reverse=True)\n"
           "  q_proj = mx.nd.contrib.div_sqrt_dim(q_proj)\n"
           "  k_proj = mx.nd.transpose(tmp[:,:,:,1,:], axes=(1, 2, 0, 3))\n"
           "  k_proj = mx.nd.reshape(k_proj, shape=(-1, 0, 0), reverse=True)\n"
           "  output = mx.nd.batch_dot(q_proj, k_proj, transpose_b=True)");
  Register("selfatt_valatt", {"queries_keys_values", "attention"},
           "Compute the matrix multiplication between the projections of values and the attention weights in "
           "multihead attention use as self attention.\n\n"
           "the inputs must be a tensor of interleaved projections of queries, keys and values following the "
           "layout: (seq_length, batch_size, num_heads * head_dim * 3) and the attention weights following the "
           "layout: (batch_size * num_heads, seq_length, seq_length)\n\n"
           "the equivalent code would be::\n\n"
           "  tmp = mx.nd.reshape(queries_keys_values, shape=(0, 0, num_heads, 3, -1))\n"
           "  v_proj = mx.nd.transpose(tmp[:,:,:,2,:], axes=(1, 2, 0, 3))\n"
           "  v_proj = mx.nd.reshape(v_proj, shape=(-1, 0, 0), reverse=True)\n"
           "  output = mx.nd.batch_dot(attention, v_proj)\n"
           "  output = mx.nd.reshape(output, shape=(-1, num_heads, 0, 0), reverse=True)\n"
           "  output = mx.nd.transpose(output, axes=(2, 0, 1, 3))\n"
           "  output = mx.nd.reshape(output, shape=(0, 0, -1))");
  Register("encdec_qk", {"queries", "keys_values"},
           "Compute the matrix multiplication between the projections of queries and keys in multihead attention "
           "use as encoder-decoder.\n\n"
           "the inputs must be a tensor of projections of queries following the layout: (seq_length, batch_size, "
           "num_heads * head_dim) and a tensor of interleaved projections of values and keys following the "
           "layout: (seq_length, batch_size, num_heads * head_dim * 2)\n\n"
           "the equivalent code would be::\n\n"
           "  q_proj = mx.nd.transpose(queries, axes=(1, 2, 0, 3))\n"
           "  q_proj = mx.nd.reshape(q_proj, shape=(-1, 0, 0), reverse=True)\n"
           "  q_proj = mx.nd.contrib.div_sqrt_dim(q_proj)\n"
           "  tmp = mx.nd.reshape(keys_values, shape=(0, 0, num_heads, 2, -1))\n"
           "  k_proj = mx.nd.transpose(tmp[:,:,:,0,:], axes=(1, 2, 0, 3))\n"
           "  k_proj = mx.nd.reshape(k_proj, shape=(-1, 0, 0), reverse=True)\n"
           "  output = mx.nd.batch_dot(q_proj, k_proj, transpose_b=True)");
  Register("encdec_valatt", {"keys_values", "attention"},
           "Compute the matrix multiplication between the projections of values and the attention weights in "
           "multihead attention use as encoder-decoder.\n\n"
           "the inputs must be a tensor of interleaved projections of keys and values following the layout: "
           "(seq_length, batch_size, num_heads * head_dim * 2) and the attention weights following the layout: "
           "(batch_size * num_heads, q_seq_length, kv_seq_length)\n\n"
           "the equivalent code would be::\n\n"
           "  tmp = mx.nd.reshape(keys_values, shape=(0, 0, num_heads, 2, -1))\n"
           "  v_proj = mx.nd.transpose(tmp[:,:,:,1,:], axes=(1, 2, 0, 3))\n"
           "  v_proj = mx.nd.reshape(v_proj, shape=(-1, 0, 0), reverse=True)\n"
           "  output = mx.nd.batch_dot(attention, v_proj)\n"
           "  output = mx.nd.reshape(output, shape=(-1, num_heads, 0, 0), reverse=True)\n"
           "  output = mx.nd.transpose(output, axes=(2, 0, 1, 3))\n"
           "  output = mx.nd.reshape(output, shape=(0, 0, -1))");
  return true;
}();

}  // namespace
}  // namespace weft
