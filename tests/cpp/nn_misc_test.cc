// Neural-network ops in what the Python harness cannot reach: training mode
// (BatchNorm batch statistics and moving-statistic updates as engine writes,
// Dropout and rrelu draws reproducible after RandomState::SeedAll), state
// arrays mutated by the optimizer updates, and the kAddTo write mode of every
// kernel (called directly on host buffers).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/ndarray/imperative.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/random_state.h"

namespace weft {
namespace {

NDArray FromHost(const Shape& s, const std::vector<float>& v) {
  NDArray a(s, Context::CPU(0), DType::kFloat32);
  a.SyncCopyFromHost(v.data(), v.size() * 4);
  return a;
}

std::vector<float> Host(const NDArray& a) {
  std::vector<float> h(static_cast<size_t>(a.Size()));
  a.SyncCopyToHost(h.data(), h.size() * 4);
  return h;
}

std::vector<float> RandomVec(size_t n, uint32_t seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

std::vector<NDArray> RunNN(const char* op, const AttrList& attrs, const std::vector<NDArray>& in, bool train) {
  std::vector<NDArray> out;
  Invoke(OpRegistry::Get()->FindOrThrow(op), attrs, in, &out, train);
  return out;
}

// Per-channel batch mean and biased variance of x (N, C, S).
void ChannelStats(const std::vector<float>& x, int64_t n, int64_t c, int64_t s, std::vector<double>* mean,
                  std::vector<double>* var) {
  mean->assign(static_cast<size_t>(c), 0.0);
  var->assign(static_cast<size_t>(c), 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t j = 0; j < s; ++j) (*mean)[static_cast<size_t>(k)] += x[static_cast<size_t>((i * c + k) * s + j)];
  for (double& m : *mean) m /= static_cast<double>(n * s);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t j = 0; j < s; ++j) {
        const double d = x[static_cast<size_t>((i * c + k) * s + j)] - (*mean)[static_cast<size_t>(k)];
        (*var)[static_cast<size_t>(k)] += d * d;
      }
  for (double& v : *var) v /= static_cast<double>(n * s);
}

TEST(NNTraining, BatchNormUsesBatchStatsAndUpdatesMovingStats) {
  const int64_t n = 4, c = 3, s = 5;
  const std::vector<float> xv = RandomVec(static_cast<size_t>(n * c * s), 1, -2.0f, 3.0f);
  const std::vector<float> gv = {1.5f, 0.5f, 2.0f}, bv = {0.1f, -0.2f, 0.3f};
  NDArray x = FromHost({n, c, s}, xv), gamma = FromHost({c}, gv), beta = FromHost({c}, bv);
  NDArray mm = FromHost({c}, {0.5f, -0.5f, 0.0f}), mv = FromHost({c}, {1.0f, 2.0f, 0.5f});
  const AttrList attrs = {{"fix_gamma", "False"}, {"momentum", "0.8"}, {"eps", "1e-5"}};

  std::vector<double> mean, var;
  ChannelStats(xv, n, c, s, &mean, &var);
  // Three training steps in a row: each must see the previous update (engine writes on the aux vars).
  std::vector<NDArray> out;
  for (int step = 0; step < 3; ++step) out = RunNN("BatchNorm", attrs, {x, gamma, beta, mm, mv}, /*train=*/true);
  ASSERT_EQ(out.size(), 1u);
  const std::vector<float> y = Host(out[0]);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < c; ++k)
      for (int64_t j = 0; j < s; ++j) {
        const size_t idx = static_cast<size_t>((i * c + k) * s + j);
        const double want = (xv[idx] - mean[static_cast<size_t>(k)]) / std::sqrt(var[static_cast<size_t>(k)] + 1e-5) *
                                gv[static_cast<size_t>(k)] + bv[static_cast<size_t>(k)];
        EXPECT_NEAR(y[idx], want, 1e-4);
      }
  std::vector<double> em = {0.5, -0.5, 0.0}, ev = {1.0, 2.0, 0.5};
  for (int step = 0; step < 3; ++step)
    for (size_t k = 0; k < 3; ++k) {
      em[k] = em[k] * 0.8 + mean[k] * 0.2;
      ev[k] = ev[k] * 0.8 + var[k] * 0.2;
    }
  const std::vector<float> mmh = Host(mm), mvh = Host(mv);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_NEAR(mmh[k], em[k], 1e-5);
    EXPECT_NEAR(mvh[k], ev[k], 1e-5);
  }

  // Inference and use_global_stats leave the moving statistics alone and normalise with them.
  RunNN("BatchNorm", attrs, {x, gamma, beta, mm, mv}, /*train=*/false);
  AttrList global = attrs;
  global.emplace_back("use_global_stats", "True");
  const std::vector<float> yg = Host(RunNN("BatchNorm", global, {x, gamma, beta, mm, mv}, /*train=*/true)[0]);
  EXPECT_EQ(Host(mm), mmh);
  EXPECT_EQ(Host(mv), mvh);
  EXPECT_NEAR(yg[0], (xv[0] - mmh[0]) / std::sqrt(mvh[0] + 1e-5) * gv[0] + bv[0], 1e-4);
}

// Training-mode BatchNorm in double on the host (for finite differences).
std::vector<double> BatchNormTrain(const std::vector<double>& x, const std::vector<double>& g,
                                   const std::vector<double>& b, int64_t n, int64_t c, int64_t s) {
  std::vector<double> y(x.size());
  for (int64_t k = 0; k < c; ++k) {
    double m = 0, v = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < s; ++j) m += x[static_cast<size_t>((i * c + k) * s + j)];
    m /= static_cast<double>(n * s);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < s; ++j) v += std::pow(x[static_cast<size_t>((i * c + k) * s + j)] - m, 2);
    v /= static_cast<double>(n * s);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < s; ++j) {
        const size_t idx = static_cast<size_t>((i * c + k) * s + j);
        y[idx] = (x[idx] - m) / std::sqrt(v + 1e-3) * g[static_cast<size_t>(k)] + b[static_cast<size_t>(k)];
      }
  }
  return y;
}

TEST(NNTraining, BatchNormBackwardMatchesFiniteDifferences) {
  const int64_t n = 3, c = 2, s = 3;
  const size_t sz = static_cast<size_t>(n * c * s);
  std::vector<double> x(sz), gy(sz), g = {1.3, 0.7}, b = {0.2, -0.1};
  std::vector<float> xf = RandomVec(sz, 7, -2, 2), gyf = RandomVec(sz, 8);
  for (size_t i = 0; i < sz; ++i) x[i] = xf[i], gy[i] = gyf[i];
  std::vector<double> mean, var;
  ChannelStats(xf, n, c, s, &mean, &var);
  auto to_nd = [](const Shape& sh, const std::vector<double>& v) {
    NDArray a(sh, Context::CPU(0), DType::kFloat64);
    a.SyncCopyFromHost(v.data(), v.size() * 8);
    return a;
  };
  std::vector<double> invstd(2);
  for (size_t k = 0; k < 2; ++k) invstd[k] = 1.0 / std::sqrt(var[k] + 1e-3);
  std::vector<NDArray> grads =
      RunNN("_backward_BatchNorm", {{"fix_gamma", "False"}},
          {to_nd({n, c, s}, gy), to_nd({c}, mean), to_nd({c}, invstd), to_nd({n, c, s}, x), to_nd({c}, g),
           to_nd({c}, b), to_nd({c}, {0, 0}), to_nd({c}, {1, 1})},
          /*train=*/true);
  ASSERT_EQ(grads.size(), 3u);
  auto host64 = [](const NDArray& a) {
    std::vector<double> h(static_cast<size_t>(a.Size()));
    a.SyncCopyToHost(h.data(), h.size() * 8);
    return h;
  };
  auto loss = [&](const std::vector<double>& xx, const std::vector<double>& gg, const std::vector<double>& bb) {
    std::vector<double> y = BatchNormTrain(xx, gg, bb, n, c, s);
    double l = 0;
    for (size_t i = 0; i < sz; ++i) l += y[i] * gy[i];
    return l;
  };
  const double eps = 1e-6;
  std::vector<std::vector<double>*> params = {&x, &g, &b};
  for (size_t w = 0; w < 3; ++w) {
    const std::vector<double> got = host64(grads[w]);
    std::vector<double>& p = *params[w];
    for (size_t i = 0; i < p.size(); ++i) {
      const double old = p[i];
      p[i] = old + eps;
      const double fp = loss(x, g, b);
      p[i] = old - eps;
      const double fm = loss(x, g, b);
      p[i] = old;
      EXPECT_NEAR(got[i], (fp - fm) / (2 * eps), 1e-6) << "gradient " << w << " element " << i;
    }
  }
}

TEST(NNTraining, DropoutMasksAndReproducibility) {
  const std::vector<float> xv = RandomVec(4000, 3, 0.5f, 1.5f);
  NDArray x = FromHost({40, 100}, xv);
  const AttrList attrs = {{"p", "0.3"}};
  RandomState::SeedAll(42);
  const std::vector<float> a = Host(RunNN("Dropout", attrs, {x}, true)[0]);
  const std::vector<float> a2 = Host(RunNN("Dropout", attrs, {x}, true)[0]);
  RandomState::SeedAll(42);
  const std::vector<float> b = Host(RunNN("Dropout", attrs, {x}, true)[0]);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, a2);
  int kept = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != 0.0f) {
      EXPECT_NEAR(a[i], xv[i] / 0.7f, 1e-5);
      ++kept;
    }
  }
  EXPECT_NEAR(kept / 4000.0, 0.7, 0.05);
  // Not training, mode 'training': the identity.
  EXPECT_EQ(Host(RunNN("Dropout", attrs, {x}, false)[0]), xv);

  // Variational dropout: one draw per (row, column-of-axis-0) pair, shared along axis 0.
  const std::vector<float> v = Host(RunNN("Dropout", {{"p", "0.5"}, {"axes", "(0,)"}}, {x}, true)[0]);
  for (int64_t i = 1; i < 40; ++i)
    for (int64_t j = 0; j < 100; ++j)
      EXPECT_EQ(v[static_cast<size_t>(i * 100 + j)] == 0.0f, v[static_cast<size_t>(j)] == 0.0f);

  // The backward operator multiplies by the mask when training.
  NDArray gy = FromHost({2, 2}, {1, 2, 3, 4}), mask = FromHost({2, 2}, {0, 2, 2, 0});
  EXPECT_EQ(Host(RunNN("_backward_Dropout", attrs, {gy, mask}, true)[0]), (std::vector<float>{0, 4, 6, 0}));
  EXPECT_EQ(Host(RunNN("_backward_Dropout", attrs, {gy, mask}, false)[0]), (std::vector<float>{1, 2, 3, 4}));
}

TEST(NNTraining, RReLUDrawsSlopesWhenTraining) {
  NDArray x = FromHost({1000}, std::vector<float>(1000, -1.0f));
  const AttrList attrs = {{"act_type", "rrelu"}, {"lower_bound", "0.1"}, {"upper_bound", "0.3"}};
  RandomState::SeedAll(5);
  const std::vector<float> a = Host(RunNN("LeakyReLU", attrs, {x}, true)[0]);
  RandomState::SeedAll(5);
  EXPECT_EQ(Host(RunNN("LeakyReLU", attrs, {x}, true)[0]), a);
  double mean = 0;
  for (float v : a) {
    EXPECT_LE(v, -0.1f + 1e-6f);
    EXPECT_GE(v, -0.3f - 1e-6f);
    mean += v / 1000.0;
  }
  EXPECT_NEAR(mean, -0.2, 0.02);
  for (float v : Host(RunNN("LeakyReLU", attrs, {x}, false)[0])) EXPECT_FLOAT_EQ(v, -0.2f);
}

TEST(NNTraining, OptimizerUpdatesMutateStatesInPlace) {
  NDArray w = FromHost({3}, {1.0f, -2.0f, 0.5f}), g = FromHost({3}, {0.5f, 0.5f, -1.0f});
  NDArray mom = FromHost({3}, {0.1f, 0.0f, -0.1f});
  std::vector<NDArray> out = {w};  // out=weight, as MXNet's optimizers call it
  Invoke(OpRegistry::Get()->FindOrThrow("sgd_mom_update"), {{"lr", "0.1"}, {"momentum", "0.9"}, {"wd", "0.01"}},
         {w, g, mom}, &out);
  const std::vector<float> m = Host(mom), wh = Host(w);
  const float w0[3] = {1.0f, -2.0f, 0.5f}, g0[3] = {0.5f, 0.5f, -1.0f}, m0[3] = {0.1f, 0.0f, -0.1f};
  for (size_t i = 0; i < 3; ++i) {
    const float em = 0.9f * m0[i] - 0.1f * 0.01f * w0[i] - 0.1f * g0[i];
    EXPECT_NEAR(m[i], em, 1e-6);
    EXPECT_NEAR(wh[i], w0[i] + em, 1e-6);
  }

  NDArray w2 = FromHost({2}, {1.0f, 2.0f}), g2 = FromHost({2}, {0.1f, -0.2f});
  NDArray mean = FromHost({2}, {0, 0}), var = FromHost({2}, {0, 0});
  for (int step = 0; step < 2; ++step) {
    std::vector<NDArray> o = {w2};
    Invoke(OpRegistry::Get()->FindOrThrow("adam_update"), {{"lr", "0.01"}}, {w2, g2, mean, var}, &o);
  }
  const std::vector<float> mh = Host(mean), vh = Host(var);
  EXPECT_NEAR(mh[0], 0.1 * (1 - 0.81), 1e-6);             // 0.1 * (0.1 + 0.09)
  EXPECT_NEAR(vh[1], 0.04 * (1 - 0.999 * 0.999), 1e-8);    // g^2 * (0.001 + 0.000999)

  NDArray wf = FromHost({2}, {0.3f, -0.4f}), gf = FromHost({2}, {1.0f, -1.0f});
  NDArray z = FromHost({2}, {0, 0}), nn = FromHost({2}, {0, 0});
  RunNN("ftrl_update", {{"lr", "0.1"}}, {wf, gf, z, nn}, false);
  const std::vector<float> zh = Host(z), nh = Host(nn);
  EXPECT_NEAR(zh[0], 1.0 - (1.0 - 0.0) * 0.3 / 0.1, 1e-5);
  EXPECT_NEAR(nh[1], 1.0, 1e-6);
}

// ---- kAddTo: every kernel, called directly on host buffers ----

struct AddToCase {
  const char* op;
  AttrList attrs;
  std::vector<Shape> inputs;
};

// Runs the op's kernel with kWriteTo into zeros and with kAddTo into a buffer
// of 0.5s; the second must be the first plus 0.5 for every output.
void CheckAddTo(const AddToCase& c) {
  const OpDef& op = OpRegistry::Get()->FindOrThrow(c.op);
  const Params p = Params::Parse(op, c.attrs);
  std::vector<Shape> in_shapes = c.inputs, out_shapes(static_cast<size_t>(op.NumOutputs(p)), Shape::Unknown());
  ASSERT_TRUE(op.InferShape(p, &in_shapes, &out_shapes)) << c.op;
  auto run = [&](OpReq req, float init) {
    // Fresh inputs per run: optimizer updates write their states.
    // Positive values: valid labels/indices/lengths (truncated), variances, probabilities.
    std::vector<std::vector<float>> in_bufs;
    std::vector<TensorView> in_views;
    for (size_t i = 0; i < in_shapes.size(); ++i)
      in_bufs.push_back(RandomVec(static_cast<size_t>(in_shapes[i].Size()), static_cast<uint32_t>(11 + i), 0.2f, 0.9f));
    for (size_t i = 0; i < in_shapes.size(); ++i)
      in_views.push_back(TensorView{in_bufs[i].data(), DType::kFloat32, in_shapes[i]});
    std::vector<std::vector<float>> outs;
    std::vector<TensorView> views;
    for (const Shape& s : out_shapes) outs.emplace_back(static_cast<size_t>(s.Size()), init);
    for (size_t i = 0; i < outs.size(); ++i) views.push_back(TensorView{outs[i].data(), DType::kFloat32, out_shapes[i]});
    OpContext ctx;
    op.compute_cpu(ctx, p, in_views, std::vector<OpReq>(outs.size(), req), views);
    return outs;
  };
  const auto base = run(OpReq::kWriteTo, 0.0f);
  const auto added = run(OpReq::kAddTo, 0.5f);
  for (size_t o = 0; o < base.size(); ++o)
    for (size_t i = 0; i < base[o].size(); ++i)
      ASSERT_NEAR(added[o][i], base[o][i] + 0.5f, 1e-5f) << c.op << " output " << o << " element " << i;
}

TEST(NNKernels, AddToAccumulates) {
  const std::vector<AddToCase> cases = {
      {"Activation", {{"act_type", "tanh"}}, {{2, 3}}},
      {"_backward_Activation", {{"act_type", "softsign"}}, {{2, 3}, {2, 3}, {2, 3}}},
      {"LeakyReLU", {{"act_type", "prelu"}}, {{2, 3, 2}, {3}}},
      {"_backward_LeakyReLU", {{"act_type", "prelu"}}, {{2, 3, 2}, {2, 3, 2}, {3}}},
      {"_backward_LeakyReLU", {{"act_type", "gelu"}}, {{2, 3}, {2, 3}}},
      {"LeakyReLU", {{"act_type", "rrelu"}}, {{2, 3}}},
      {"_backward_LeakyReLU", {{"act_type", "rrelu"}}, {{2, 3}, {2, 3}, {2, 3}}},
      {"softmax", {{"axis", "0"}}, {{3, 4}}},
      {"_backward_log_softmax", {}, {{3, 4}, {3, 4}}},
      {"SoftmaxActivation", {{"mode", "channel"}}, {{2, 3, 2}}},
      {"_backward_SoftmaxActivation", {}, {{2, 3}, {2, 3}}},
      {"softmax_cross_entropy", {}, {{3, 4}, {3}}},
      {"_backward_softmax_cross_entropy", {}, {{1}, {3, 4}, {3}}},
      {"SoftmaxOutput", {}, {{3, 4}, {3}}},
      {"_backward_SoftmaxOutput", {{"normalization", "valid"}, {"use_ignore", "True"}}, {{3, 4}, {3}}},
      {"_backward_SoftmaxOutput", {{"multi_output", "True"}}, {{2, 3, 2}, {2, 2}}},
      {"LinearRegressionOutput", {}, {{3, 2}, {3, 2}}},
      {"_backward_mae_reg_out", {}, {{3, 2}, {3, 2}}},
      {"_backward_logistic_reg_out", {}, {{3, 2}, {3, 2}}},
      {"smooth_l1", {}, {{2, 3}}},
      {"_backward_smooth_l1", {}, {{2, 3}, {2, 3}}},
      {"BlockGrad", {}, {{2, 3}}},
      {"make_loss", {}, {{2, 3}}},
      {"MakeLoss", {}, {{2, 3}}},
      {"_backward_MakeLoss", {{"normalization", "valid"}}, {{2, 3}}},
      {"add_n", {{"num_args", "3"}}, {{2, 3}, {2, 3}, {2, 3}}},
      {"Dropout", {{"p", "0.5"}}, {{2, 3}}},
      {"_backward_Dropout", {{"mode", "always"}}, {{2, 3}, {2, 3}}},
      {"Embedding", {{"input_dim", "3"}, {"output_dim", "2"}}, {{4}, {3, 2}}},
      {"_backward_Embedding", {{"input_dim", "3"}, {"output_dim", "2"}}, {{4, 2}, {4}}},
      {"Pad", {{"mode", "reflect"}, {"pad_width", "(0,0,0,0,1,1,2,1)"}}, {{1, 1, 3, 3}}},
      {"_backward_Pad", {{"mode", "edge"}, {"pad_width", "(0,0,0,0,1,1,2,1)"}}, {{1, 1, 5, 6}}},
      {"UpSampling", {{"scale", "2"}, {"sample_type", "nearest"}, {"num_args", "2"}, {"multi_input_mode", "sum"}},
       {{1, 2, 2, 2}, {1, 2, 4, 4}}},
      {"_backward_UpSampling", {{"scale", "2"}, {"sample_type", "nearest"}, {"num_args", "1"}}, {{1, 2, 4, 4}}},
      {"SequenceMask", {{"use_sequence_length", "True"}}, {{3, 2, 2}, {2}}},
      {"_backward_SequenceMask", {{"use_sequence_length", "True"}}, {{3, 2, 2}, {2}}},
      {"SequenceLast", {{"use_sequence_length", "True"}, {"axis", "1"}}, {{2, 3, 2}, {2}}},
      {"_backward_SequenceLast", {{"use_sequence_length", "True"}}, {{2, 2}, {3, 2, 2}, {2}}},
      {"BatchNorm", {{"fix_gamma", "False"}}, {{2, 3, 2}, {3}, {3}, {3}, {3}}},
      {"_backward_BatchNorm", {{"fix_gamma", "False"}}, {{2, 3, 2}, {3}, {3}, {2, 3, 2}, {3}, {3}, {3}, {3}}},
      {"LayerNorm", {}, {{2, 3}, {3}, {3}}},
      {"_backward_LayerNorm", {{"axis", "0"}}, {{2, 3}, {2, 3}, {2}, {1, 3}, {1, 3}}},
      {"InstanceNorm", {}, {{2, 3, 2}, {3}, {3}}},
      {"_backward_InstanceNorm", {}, {{2, 3, 2}, {2, 3, 2}, {3}, {2, 3}, {2, 3}}},
      {"sgd_update", {{"lr", "0.1"}}, {{4}, {4}}},
      {"adam_update", {{"lr", "0.1"}}, {{4}, {4}, {4}, {4}}},
      {"ftrl_update", {{"lr", "0.1"}}, {{4}, {4}, {4}, {4}}},
  };
  for (const AddToCase& c : cases) CheckAddTo(c);
}

TEST(NNKernels, BatchNormOutputNamesAndMutation) {
  const OpDef& bn = OpRegistry::Get()->FindOrThrow("BatchNorm");
  const Params p = Params::Parse(bn, {});
  EXPECT_EQ(bn.OutputNames(p), (std::vector<std::string>{"output", "mean", "var"}));
  EXPECT_EQ(bn.NumVisibleOutputs(p), 1);
  EXPECT_EQ(bn.NumVisibleOutputs(Params::Parse(bn, {{"output_mean_var", "True"}})), 3);
  EXPECT_EQ(bn.mutate_inputs, (std::vector<int>{3, 4}));
  // Shape inference fills the per-channel inputs from data and axis.
  std::vector<Shape> in = {Shape{2, 5, 3}, Shape::Unknown(), Shape::Unknown(), Shape::Unknown(), Shape::Unknown()};
  std::vector<Shape> out(3, Shape::Unknown());
  const Params p2 = Params::Parse(bn, {{"axis", "-1"}});
  ASSERT_TRUE(bn.InferShape(p2, &in, &out));
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(in[i], (Shape{3}));
  EXPECT_EQ(out[1], (Shape{3}));
  // Embedding fills its weight.
  const OpDef& emb = OpRegistry::Get()->FindOrThrow("Embedding");
  std::vector<Shape> ein = {Shape{4, 2}, Shape::Unknown()}, eout(1, Shape::Unknown());
  ASSERT_TRUE(emb.InferShape(Params::Parse(emb, {{"input_dim", "10"}, {"output_dim", "6"}}), &ein, &eout));
  EXPECT_EQ(ein[1], (Shape{10, 6}));
  EXPECT_EQ(eout[0], (Shape{4, 2, 6}));
}

}  // namespace
}  // namespace weft
