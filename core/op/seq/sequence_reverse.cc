// SequenceReverse (MXNet 1.x): reverses the first `sequence_length[b]` steps of
// each sequence of a (max_len, batch, ...) array; steps past a sequence's
// length stay where they are. sequence_length (batch,), any dtype, is an input
// only when use_sequence_length is True. Only axis 0 is supported, as in MXNet;
// data may have any dtype.
//
// The reversal is its own inverse, so the gradient of data is SequenceReverse
// of the head gradient with the same lengths; sequence_length gets zeros.
// The CPU kernel is here, the GPU kernel in sequence_reverse.cu; both run the
// index rule of sequence_reverse_rules.h.
#include <string>
#include <type_traits>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"
#include "core/op/common/nnx_cpu.h"
#include "core/op/common/req_hd.h"
#include "core/opdef/op_def.h"
#include "core/op/op_util.h"
#include "core/op/seq/sequence_reverse_gpu.h"
#include "core/op/seq/sequence_reverse_rules.h"

namespace weft {
namespace {

bool UsesLength(const Params& p) { return p.GetBool("use_sequence_length"); }

void CheckAxis(const Params& p) {
  const int64_t a = p.GetInt("axis");
  WEFT_CHECK(a == 0, kInvalidArgument) << "SequenceReverse: parameter 'axis' must be 0 (the only supported sequence "
                                       << "axis), got " << a;
}

void ReverseCPU(const Params& p, const std::vector<TensorView>& in, OpReq req, const TensorView& y) {
  if (req == OpReq::kNull || y.Size() == 0) return;
  const Shape& s = in[0].shape;
  const nnm::ReverseLayout l{s[0], s[1], s.ProdRange(2, s.ndim())};
  std::vector<double> len;
  if (UsesLength(p)) len = nnx_cpu::ToDoubles(in[1]);
  const double* lp = UsesLength(p) ? len.data() : nullptr;
  WEFT_DTYPE_SWITCH(y.dtype, T, {
    // Integers and bool move as they are; the 16-bit floats add in float.
    using A = std::conditional_t<std::is_integral<T>::value, T, nnx_cpu::Acc<T>>;
    const T* xp = in[0].ptr<T>();
    T* yp = y.ptr<T>();
    nnm::ForEachIndex(y.Size(), 1, [&](int64_t e) {
      nnm::Put(yp, e, req, static_cast<A>(xp[nnm::ReverseSource(e, l, lp)]));
    });
  })
}

[[maybe_unused]] const bool kSequenceReverseRegistered = [] {
  WEFT_REGISTER_OP(op, "SequenceReverse").set_compute_gpu(WEFT_GPU(cuda::SequenceReverseGpu));
  op.describe("Reverses the elements of each sequence.\n\n"
              "This function takes an n-dimensional input array of the form [max_sequence_length, batch_size, "
              "other_feature_dims] and returns an array of the same shape.\n\n"
              "Parameter `sequence_length` is used to handle variable-length sequences. `sequence_length` should "
              "be an input array of positive ints of dimension [batch_size]. To use this parameter, set "
              "`use_sequence_length` to `True`, otherwise each example in the batch is assumed to have the max "
              "sequence length. The steps past a sequence's length are left in place.")
      .add_input("data")
      .add_input("sequence_length")
      .add_param("use_sequence_length", ParamType::kBool, "False",
                 "If set to true, this layer takes in an extra input parameter `sequence_length` to specify "
                 "variable length sequence")
      .add_param("axis", ParamType::kInt, "0", "The sequence axis. Only 0 is currently supported.")
      .set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        CheckAxis(p);
        Shape d = (*in)[0];
        if (!d.known() && (*out)[0].known()) {
          d = (*out)[0];
          AssignShape(in, 0, d, "SequenceReverse: input 'data'");
        }
        if (!d.known()) return false;
        WEFT_CHECK(d.ndim() >= 2, kShape) << "SequenceReverse: input 'data' must have at least 2 dims "
                                          << "(max_sequence_length, batch_size, ...), got " << d.ToString();
        if (UsesLength(p)) AssignShape(in, 1, Shape{d[1]}, "SequenceReverse: input 'sequence_length'");
        AssignShape(out, 0, d, "SequenceReverse: output");
        return true;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        DType t = (*in)[0] != DType::kUnknown ? (*in)[0] : (*out)[0];
        if (t == DType::kUnknown) return false;  // any dtype, as MXNet's
        AssignType(in, 0, t, "SequenceReverse: input 'data'");
        AssignType(out, 0, t, "SequenceReverse: output");
        if (UsesLength(p) && (*in)[1] == DType::kUnknown) (*in)[1] = t;
        return true;
      })
      .set_compute_cpu([](const OpContext&, const Params& p, const std::vector<TensorView>& in,
                          const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
        ReverseCPU(p, in, req[0], out[0]);
      })
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        GradBuilder b(n);
        std::vector<NodeEntry> in = {og[0]};
        if (n->inputs.size() > 1) in.push_back(n->inputs[1]);
        std::vector<NodeEntry> g = {b("SequenceReverse", in, b.Attrs("SequenceReverse"))};
        if (n->inputs.size() > 1) g.push_back(b.Zeros(n->inputs[1]));
        return g;
      });
  op.list_input_names = [](const Params& p) {
    std::vector<std::string> n = {"data"};
    if (UsesLength(p)) n.push_back("sequence_length");
    return n;
  };
  return true;
}();

}  // namespace
}  // namespace weft
