// GPU kernels of _random_pdf_<d> and _backward_pdf_<d> (core/op/random/pdf.cc):
// one thread per density, per sample element and per parameter, each calling
// the rules of pdf_rules.h that the CPU kernels call. A parameter's gradient
// is summed by its own thread over its samples (no atomics), in the CPU's order.
#include <cmath>
#include <cstdint>

#include "core/op/common/gpu_kernel.h"
#include "core/op/random/pdf_gpu.h"
#include "core/op/random/pdf_rules.h"

namespace weft {
namespace cuda {
namespace {

using pdf::Pdf;

template <typename T>
void PdfT(const OpContext& ctx, Pdf d, const pdf::Layout l, bool is_log, const std::vector<TensorView>& in, OpReq req,
          const TensorView& out) {
  const T* xp = in[0].ptr<T>();
  const T* ap = in[1].ptr<T>();
  const T* bp = in.size() > 2 ? in[2].ptr<T>() : nullptr;
  T* op = out.ptr<T>();
  Launch(ctx, l.n_out, [=] WEFT_HD(int64_t i) {
    const int64_t j = i / l.per;
    const double lp = d == Pdf::kDirichlet
                          ? pdf::LogDirichlet(xp + i * l.k, ap + j * l.k, l.k)
                          : pdf::LogPdf(d, static_cast<double>(xp[i]), static_cast<double>(ap[j]),
                                        bp != nullptr ? static_cast<double>(bp[j]) : 0.0);
    Assign(op, i, req, static_cast<T>(is_log ? lp : std::exp(lp)));
  });
}

void PdfForward(Pdf d, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  if (req[0] == OpReq::kNull) return;
  const pdf::Layout l = pdf::LayoutOf(d, in[0], in[1]);
  const bool is_log = p.GetBool("is_log");
  WEFT_GPU_REAL_SWITCH(in[0].dtype, p.op()->name.c_str(), T, { PdfT<T>(ctx, d, l, is_log, in, req[0], out[0]); })
}

// The incoming gradient of density i times d density / d log density.
template <typename T>
WEFT_HD inline double Scaling(const T* g, const T* y, bool is_log, int64_t i) {
  return static_cast<double>(g[i]) * (is_log ? 1.0 : static_cast<double>(y[i]));
}

template <typename T>
void PdfBackwardT(const OpContext& ctx, Pdf d, const pdf::Layout l, bool is_log, const std::vector<TensorView>& in,
                  const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const bool two = out.size() > 2;
  const T* gp = in[0].ptr<T>();
  const T* xp = in[1].ptr<T>();
  const T* ap = in[2].ptr<T>();
  const T* bp = two ? in[3].ptr<T>() : nullptr;
  const T* yp = in.back().ptr<T>();
  const int64_t k = l.k, per = l.per;
  if (req[0] != OpReq::kNull) {  // the sample's gradient, per sample element
    T* ox = out[0].ptr<T>();
    const OpReq r = req[0];
    Launch(ctx, out[0].Size(), [=] WEFT_HD(int64_t e) {
      const int64_t i = e / k, c = e % k, j = i / per;
      const double s = Scaling(gp, yp, is_log, i);
      double dx = 0.0, da, db;
      if (d == Pdf::kDirichlet) {
        dx = (static_cast<double>(ap[j * k + c]) - 1.0) / static_cast<double>(xp[e]);
      } else {
        pdf::LogPdfGrad(d, static_cast<double>(xp[i]), static_cast<double>(ap[j]),
                        bp != nullptr ? static_cast<double>(bp[j]) : 0.0, &dx, &da, &db);
      }
      Assign(ox, e, r, static_cast<T>(s * dx));
    });
  }
  for (int which = 1; which < static_cast<int>(out.size()); ++which) {  // each parameter's, per element
    if (req[which] == OpReq::kNull) continue;
    T* og = out[which].ptr<T>();
    const OpReq r = req[which];
    const bool first = which == 1;
    Launch(ctx, out[which].Size(), [=] WEFT_HD(int64_t e) {
      const int64_t j = e / k, c = e % k;
      double acc = 0.0, psi_sum = 0.0;
      if (d == Pdf::kDirichlet) {
        double sum_a = 0.0;
        for (int64_t q = 0; q < k; ++q) sum_a += static_cast<double>(ap[j * k + q]);
        psi_sum = pdf::Digamma(sum_a);
      }
      for (int64_t i = j * per; i < (j + 1) * per; ++i) {
        const double s = Scaling(gp, yp, is_log, i);
        if (d == Pdf::kDirichlet) {
          acc += s * (std::log(static_cast<double>(xp[i * k + c])) + psi_sum -
                      pdf::Digamma(static_cast<double>(ap[j * k + c])));
        } else {
          double dx, da, db;
          pdf::LogPdfGrad(d, static_cast<double>(xp[i]), static_cast<double>(ap[j]),
                          bp != nullptr ? static_cast<double>(bp[j]) : 0.0, &dx, &da, &db);
          acc += s * (first ? da : db);
        }
      }
      Assign(og, e, r, static_cast<T>(acc));
    });
  }
}

void PdfBackward(Pdf d, const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                 const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const pdf::Layout l = pdf::LayoutOf(d, in[1], in[2]);
  const bool is_log = p.GetBool("is_log");
  WEFT_GPU_REAL_SWITCH(in[1].dtype, p.op()->name.c_str(), T, { PdfBackwardT<T>(ctx, d, l, is_log, in, req, out); })
}

}  // namespace

FCompute PdfGpu(Pdf d) {
  return [d](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) { PdfForward(d, ctx, p, in, req, out); };
}

FCompute PdfBackwardGpu(Pdf d) {
  return [d](const OpContext& ctx, const Params& p, const std::vector<TensorView>& in, const std::vector<OpReq>& req,
             const std::vector<TensorView>& out) { PdfBackward(d, ctx, p, in, req, out); };
}

}  // namespace cuda
}  // namespace weft
