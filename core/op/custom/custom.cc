// Custom (MXNet 1.x): an operator whose definition lives in a host language
// (Note [Custom operators] in custom_op.h), and its backward, _backward_Custom.
// Parameter op_type names the registered operator; every other attribute is
// the user's keyword argument, passed to the prop as a string as MXNet does.
#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/engine/inline_push.h"
#include "core/graph/grad_builder.h"
#include "core/op/custom/custom_gpu.h"
#include "core/op/custom/custom_op.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace custom {
namespace {

using KwArgs = std::vector<std::pair<std::string, std::string>>;

// What the kernels and the declaration need of one prop, asked once.
struct PropInfo {
  std::string op_type;
  std::shared_ptr<CustomProp> prop;
  std::vector<std::string> args, outs, aux;
  bool need_top_grad = true;
  std::vector<int> bwd_deps;  // MXNet ids: out_grad i -> i, in_data i -> nout + i, out_data i -> nout + nargs + i
  std::mutex ops_mu;
  std::map<std::tuple<int, int, std::vector<std::vector<int64_t>>, std::vector<int>>, std::shared_ptr<CustomOperator>> ops;

  size_t NumOut() const { return outs.size(); }
  size_t NumArgs() const { return args.size(); }
  bool Declared(int id) const { return std::find(bwd_deps.begin(), bwd_deps.end(), id) != bwd_deps.end(); }
  bool OutGradWired(size_t i) const { return need_top_grad && Declared(static_cast<int>(i)); }
  bool OutDataWired(size_t i) const { return Declared(static_cast<int>(NumOut() + NumArgs() + i)); }

  std::shared_ptr<CustomOperator> Operator(Context ctx, const std::vector<Shape>& shapes,
                                           const std::vector<DType>& types) {
    std::vector<std::vector<int64_t>> dims;
    std::vector<int> ts;
    for (const Shape& s : shapes) dims.push_back(s.dims());
    for (DType t : types) ts.push_back(static_cast<int>(t));
    auto key = std::make_tuple(static_cast<int>(ctx.dev_type), ctx.dev_id, dims, ts);
    std::lock_guard<std::mutex> lk(ops_mu);
    auto it = ops.find(key);
    if (it != ops.end()) return it->second;
    std::shared_ptr<CustomOperator> op = prop->CreateOperator(ctx, shapes, types);
    WEFT_CHECK(op != nullptr, kInternal) << "Custom '" << op_type << "': create_operator returned nothing";
    ops.emplace(key, op);
    return op;
  }
};

struct Registry {
  std::mutex mu;
  std::unordered_map<std::string, CustomPropFactory> factories;
  std::map<std::string, std::shared_ptr<PropInfo>> props;  // key: op_type \0 kwargs
  static Registry& Get() {
    static Registry* r = new Registry();  // leaked: callbacks may run at exit
    return *r;
  }
};

std::string KeyOf(const std::string& op_type, const KwArgs& kw) {
  std::string k = op_type;
  for (const auto& kv : kw) k += std::string(1, '\0') + kv.first + '=' + kv.second;
  return k;
}

const std::string& OpType(const Params& p) { return p.GetString("op_type"); }

KwArgs KwargsOf(const Params& p) {
  KwArgs kw;
  for (const auto& kv : p.raw()) {
    if (kv.first == "op_type" || (kv.first.size() >= 2 && kv.first.compare(0, 2, "__") == 0)) continue;
    kw.push_back(kv);
  }
  std::sort(kw.begin(), kw.end());
  return kw;
}

// Shared: registering op_type again drops the entry while kernels may still use it.
std::shared_ptr<PropInfo> Info(const Params& p) {
  const std::string& op_type = OpType(p);
  KwArgs kw = KwargsOf(p);
  std::string key = KeyOf(op_type, kw);
  Registry& r = Registry::Get();
  CustomPropFactory factory;
  {
    std::lock_guard<std::mutex> lk(r.mu);
    auto it = r.props.find(key);
    if (it != r.props.end()) return it->second;
    auto f = r.factories.find(op_type);
    WEFT_CHECK(f != r.factories.end(), kNotFound)
        << "Custom: op_type '" << op_type << "' is not registered (register it with weft.operator.register)";
    factory = f->second;
  }
  // Outside the lock: the factory calls into the binding, which may ask for
  // other props.
  auto info = std::make_shared<PropInfo>();
  info->op_type = op_type;
  info->prop = factory(kw);
  WEFT_CHECK(info->prop != nullptr, kInternal) << "Custom '" << op_type << "': the prop factory returned nothing";
  info->args = info->prop->ListArguments();
  info->outs = info->prop->ListOutputs();
  info->aux = info->prop->ListAuxiliaryStates();
  WEFT_CHECK(!info->outs.empty(), kInvalidArgument) << "Custom '" << op_type << "': list_outputs is empty";
  info->need_top_grad = info->prop->NeedTopGrad();
  std::vector<int> og, id, od;
  const int no = static_cast<int>(info->outs.size()), na = static_cast<int>(info->args.size());
  for (int i = 0; i < no; ++i) og.push_back(i);
  for (int i = 0; i < na; ++i) id.push_back(no + i);
  for (int i = 0; i < no; ++i) od.push_back(no + na + i);
  info->bwd_deps = info->prop->DeclareBackwardDependency(info->need_top_grad ? og : std::vector<int>{}, id, od);
  for (int d : info->bwd_deps)
    WEFT_CHECK(d >= 0 && d < 2 * no + na, kInvalidArgument)
        << "Custom '" << op_type << "': declare_backward_dependency returned id " << d
        << ", not one of the ids it was given (0.." << 2 * no + na - 1 << ")";
  std::lock_guard<std::mutex> lk(r.mu);
  auto ins = r.props.emplace(key, info);  // a racing thread may have made it first: keep that one
  return ins.first->second;
}

bool Partial(const Shape& s) {
  if (!s.known()) return true;
  for (int64_t d : s.dims())
    if (d == 0) return true;
  return false;
}

bool CustomInferShape(const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
  const std::shared_ptr<PropInfo> held = Info(p);
  PropInfo& info = *held;
  const size_t na = info.NumArgs(), no = info.NumOut(), nx = info.aux.size();
  std::vector<Shape> args(in->begin(), in->begin() + static_cast<std::ptrdiff_t>(na));
  bool partial = std::any_of(args.begin(), args.end(), Partial);
  std::vector<Shape> all;
  try {
    info.prop->InferShape(args, &all);
  } catch (const Error&) {
    if (partial) return false;  // not enough known yet: inference comes back later
    throw;
  }
  WEFT_CHECK(all.size() == na + no + nx, kShape)
      << "Custom '" << info.op_type << "': infer_shape returned " << all.size() << " shapes, expected "
      << na << " argument, " << no << " output and " << nx << " aux shapes";
  auto assign = [&](Shape* dst, const Shape& s, const std::string& what) {
    if (!s.known() || Partial(s)) return;
    if (dst->known() && !Partial(*dst) && *dst != s) {
      WEFT_THROW(kShape) << "Custom '" << info.op_type << "': " << what << " has shape " << dst->ToString()
                         << " but infer_shape returned " << s.ToString();
    }
    *dst = s;
  };
  for (size_t i = 0; i < na; ++i) assign(&(*in)[i], all[i], "argument '" + info.args[i] + "'");
  for (size_t i = 0; i < nx; ++i) assign(&(*in)[na + i], all[na + no + i], "aux state '" + info.aux[i] + "'");
  for (size_t i = 0; i < no; ++i) assign(&(*out)[i], all[na + i], "output '" + info.outs[i] + "'");
  return std::none_of(in->begin(), in->end(), Partial) && std::none_of(out->begin(), out->end(), Partial);
}

bool CustomInferType(const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
  const std::shared_ptr<PropInfo> held = Info(p);
  PropInfo& info = *held;
  const size_t na = info.NumArgs(), no = info.NumOut(), nx = info.aux.size();
  std::vector<DType> args(in->begin(), in->begin() + static_cast<std::ptrdiff_t>(na));
  bool partial = std::any_of(args.begin(), args.end(), [](DType t) { return t == DType::kUnknown; });
  std::vector<DType> all;
  try {
    info.prop->InferType(args, &all);
  } catch (const Error&) {
    if (partial) return false;
    throw;
  }
  WEFT_CHECK(all.size() == na + no + nx, kDType)
      << "Custom '" << info.op_type << "': infer_type returned " << all.size() << " dtypes, expected " << na + no + nx;
  auto assign = [&](DType* dst, DType t, const std::string& what) {
    if (t == DType::kUnknown) return;
    if (*dst != DType::kUnknown && *dst != t) {
      WEFT_THROW(kDType) << "Custom '" << info.op_type << "': " << what << " has dtype " << DTypeName(*dst)
                         << " but infer_type returned " << DTypeName(t);
    }
    *dst = t;
  };
  for (size_t i = 0; i < na; ++i) assign(&(*in)[i], all[i], "argument '" + info.args[i] + "'");
  for (size_t i = 0; i < nx; ++i) assign(&(*in)[na + i], all[na + no + i], "aux state '" + info.aux[i] + "'");
  for (size_t i = 0; i < no; ++i) assign(&(*out)[i], all[na + i], "output '" + info.outs[i] + "'");
  auto unknown = [](DType t) { return t == DType::kUnknown; };
  return std::none_of(in->begin(), in->end(), unknown) && std::none_of(out->begin(), out->end(), unknown);
}

// _backward_Custom's inputs: the wired output gradients, every input's data
// (their shapes are the gradients' shapes), the wired output data, the aux
// states. Its outputs: one gradient per argument.
struct BackwardLayout {
  std::vector<int> out_grad, out_data;  // forward output index of each wired entry
};
BackwardLayout LayoutOf(const PropInfo& info) {
  BackwardLayout l;
  for (size_t i = 0; i < info.NumOut(); ++i) {
    if (info.OutGradWired(i)) l.out_grad.push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < info.NumOut(); ++i) {
    if (info.OutDataWired(i)) l.out_data.push_back(static_cast<int>(i));
  }
  return l;
}

std::vector<std::string> BackwardInputNames(const Params& p) {
  const std::shared_ptr<PropInfo> held = Info(p);
  PropInfo& info = *held;
  BackwardLayout l = LayoutOf(info);
  std::vector<std::string> names;
  for (int i : l.out_grad) names.push_back(info.outs[static_cast<size_t>(i)] + "_grad");
  for (const std::string& a : info.args) names.push_back(a);
  for (int i : l.out_data) names.push_back(info.outs[static_cast<size_t>(i)]);
  for (const std::string& a : info.aux) names.push_back(a);
  return names;
}

}  // namespace

void RegisterCustomOp(const std::string& op_type, CustomPropFactory factory) {
  WEFT_CHECK(!op_type.empty(), kInvalidArgument) << "Custom: op_type must not be empty";
  WEFT_CHECK(static_cast<bool>(factory), kInvalidArgument) << "Custom: no prop factory for '" << op_type << "'";
  Registry& r = Registry::Get();
  std::lock_guard<std::mutex> lk(r.mu);
  r.factories[op_type] = std::move(factory);
  const std::string prefix = op_type + std::string(1, '\0');
  for (auto it = r.props.begin(); it != r.props.end();) {
    if (it->first == op_type || it->first.compare(0, prefix.size(), prefix) == 0) {
      it = r.props.erase(it);
    } else {
      ++it;
    }
  }
}

size_t CustomNumArgs(const Params& p) { return Info(p)->NumArgs(); }

bool CustomOpRegistered(const std::string& op_type) {
  Registry& r = Registry::Get();
  std::lock_guard<std::mutex> lk(r.mu);
  return r.factories.count(op_type) != 0;
}

void CustomForwardCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                      const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const std::shared_ptr<PropInfo> held = Info(p);
  PropInfo& info = *held;
  const size_t na = info.NumArgs(), no = info.NumOut();
  std::vector<Shape> shapes;
  std::vector<DType> types;
  for (size_t i = 0; i < na; ++i) {
    shapes.push_back(in[i].shape);
    types.push_back(in[i].dtype);
  }
  std::shared_ptr<CustomOperator> op = info.Operator(ctx.ctx, shapes, types);
  std::vector<TensorView> arrays;
  std::vector<int> tags;
  std::vector<OpReq> reqs;
  for (size_t i = 0; i < na; ++i) {
    arrays.push_back(in[i]);
    tags.push_back(kInData);
    reqs.push_back(OpReq::kNull);
  }
  for (size_t i = 0; i < no; ++i) {
    arrays.push_back(out[i]);
    tags.push_back(kOutData);
    reqs.push_back(req[i]);
  }
  for (size_t i = na; i < in.size(); ++i) {
    arrays.push_back(in[i]);
    tags.push_back(kAux);
    reqs.push_back(OpReq::kNull);
  }
  InlinePushScope inline_pushes;  // Note [Inline pushes]
  op->Forward(ctx.is_train, ctx.ctx, arrays, tags, reqs);
}

void CustomBackwardCPU(const OpContext& ctx, const Params& p, const std::vector<TensorView>& in,
                       const std::vector<OpReq>& req, const std::vector<TensorView>& out) {
  const std::shared_ptr<PropInfo> held = Info(p);
  PropInfo& info = *held;
  const size_t na = info.NumArgs(), no = info.NumOut();
  BackwardLayout l = LayoutOf(info);
  const size_t ng = l.out_grad.size();
  std::vector<Shape> shapes;
  std::vector<DType> types;
  for (size_t i = 0; i < na; ++i) {
    shapes.push_back(in[ng + i].shape);
    types.push_back(in[ng + i].dtype);
  }
  std::shared_ptr<CustomOperator> op = info.Operator(ctx.ctx, shapes, types);
  // MXNet's order: out_grad, in_data, out_data, in_grad, aux.
  std::vector<TensorView> og(no), od(no);
  for (size_t k = 0; k < ng; ++k) og[static_cast<size_t>(l.out_grad[k])] = in[k];
  for (size_t k = 0; k < l.out_data.size(); ++k) od[static_cast<size_t>(l.out_data[k])] = in[ng + na + k];
  std::vector<TensorView> arrays;
  std::vector<int> tags;
  std::vector<OpReq> reqs;
  for (size_t i = 0; i < no; ++i) {
    arrays.push_back(og[i]);
    tags.push_back(kOutGrad);
    reqs.push_back(OpReq::kNull);
  }
  for (size_t i = 0; i < na; ++i) {
    arrays.push_back(in[ng + i]);
    tags.push_back(kInData);
    reqs.push_back(OpReq::kNull);
  }
  for (size_t i = 0; i < no; ++i) {
    arrays.push_back(od[i]);
    tags.push_back(kOutData);
    reqs.push_back(OpReq::kNull);
  }
  for (size_t i = 0; i < na; ++i) {
    arrays.push_back(out[i]);
    tags.push_back(kInGrad);
    reqs.push_back(req[i]);
  }
  for (size_t i = ng + na + l.out_data.size(); i < in.size(); ++i) {
    arrays.push_back(in[i]);
    tags.push_back(kAux);
    reqs.push_back(OpReq::kNull);
  }
  InlinePushScope inline_pushes;
  op->Backward(ctx.ctx, arrays, tags, reqs);
}

namespace {

[[maybe_unused]] const bool registered = [] {
  WEFT_REGISTER_OP(fwd, "Custom");
  fwd.describe("Apply a custom operator implemented in a frontend language (MXNet's mx.operator.CustomOp): "
               "op_type names the registered CustomOpProp; every other keyword argument is passed to it "
               "as a string. Inputs: the prop's list_arguments, then list_auxiliary_states.")
      .add_required_param("op_type", ParamType::kString, "Name of the custom operator, as given to register().");
  fwd.set_takes_free_attributes();
  fwd.list_input_names = [](const Params& p) {
    const std::shared_ptr<PropInfo> held = Info(p);
    PropInfo& info = *held;
    std::vector<std::string> names = info.args;
    names.insert(names.end(), info.aux.begin(), info.aux.end());
    return names;
  };
  fwd.set_num_outputs([](const Params& p) { return static_cast<int>(Info(p)->NumOut()); });
  fwd.list_output_names = [](const Params& p) { return Info(p)->outs; };
  fwd.set_mutate_inputs_fn([](const Params& p) {
    const std::shared_ptr<PropInfo> held = Info(p);
    PropInfo& info = *held;
    std::vector<int> m;
    for (size_t i = 0; i < info.aux.size(); ++i) m.push_back(static_cast<int>(info.NumArgs() + i));
    return m;
  });
  fwd.set_infer_shape(CustomInferShape)
      .set_infer_type(CustomInferType)
      .set_compute_cpu(CustomForwardCPU)
      .set_compute_gpu(WEFT_GPU(cuda::CustomGpu))
      .set_gradient([](const NodePtr& n, const std::vector<NodeEntry>& og) {
        const std::shared_ptr<PropInfo> held = Info(n->params);
        PropInfo& info = *held;
        BackwardLayout l = LayoutOf(info);
        const size_t na = info.NumArgs();
        std::vector<NodeEntry> inputs;
        for (int i : l.out_grad) inputs.push_back(og[static_cast<size_t>(i)]);
        for (size_t i = 0; i < na; ++i) inputs.push_back(n->inputs[i]);
        for (int i : l.out_data) inputs.push_back(OutputOf(n, static_cast<uint32_t>(i)));
        for (size_t i = na; i < n->inputs.size(); ++i) inputs.push_back(n->inputs[i]);
        std::map<std::string, std::string> attrs;
        for (const auto& kv : n->attrs)
          if (kv.first.size() < 2 || kv.first.compare(0, 2, "__") != 0) attrs.insert(kv);
        GradBuilder b(n);
        NodePtr g = b.Node("_backward_Custom", std::move(inputs), std::move(attrs));
        std::vector<NodeEntry> r(n->inputs.size());  // aux states get no gradient
        for (size_t i = 0; i < na; ++i) r[i] = OutputOf(g, static_cast<uint32_t>(i));
        return r;
      });

  WEFT_REGISTER_OP(bwd, "_backward_Custom");
  bwd.describe("Gradient of Custom: runs the custom operator's backward. Inputs: the output gradients "
               "backward declared it needs, every input, the declared outputs, the aux states; outputs: "
               "one gradient per argument.")
      .add_required_param("op_type", ParamType::kString, "Name of the custom operator.");
  bwd.set_takes_free_attributes();
  bwd.list_input_names = BackwardInputNames;
  bwd.set_num_outputs([](const Params& p) { return static_cast<int>(Info(p)->NumArgs()); });
  bwd.list_output_names = [](const Params& p) {
    std::vector<std::string> names;
    for (const std::string& a : Info(p)->args) names.push_back(a + "_grad");
    return names;
  };
  bwd.set_infer_shape([](const Params& p, std::vector<Shape>* in, std::vector<Shape>* out) {
        const std::shared_ptr<PropInfo> held = Info(p);
        PropInfo& info = *held;
        const size_t ng = LayoutOf(info).out_grad.size();
        bool done = true;
        for (size_t i = 0; i < info.NumArgs(); ++i) {
          const Shape& s = (*in)[ng + i];
          if (!s.known()) {
            done = false;
            continue;
          }
          (*out)[i] = s;
        }
        return done;
      })
      .set_infer_type([](const Params& p, std::vector<DType>* in, std::vector<DType>* out) {
        const std::shared_ptr<PropInfo> held = Info(p);
        PropInfo& info = *held;
        const size_t ng = LayoutOf(info).out_grad.size();
        bool done = true;
        for (size_t i = 0; i < info.NumArgs(); ++i) {
          DType t = (*in)[ng + i];
          if (t == DType::kUnknown) {
            done = false;
            continue;
          }
          (*out)[i] = t;
        }
        return done;
      })
      .set_compute_cpu(CustomBackwardCPU)
      .set_compute_gpu(WEFT_GPU(cuda::CustomBackwardGpu));
  return true;
}();

}  // namespace
}  // namespace custom
}  // namespace weft
