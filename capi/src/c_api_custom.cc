// weft_custom_op_register: the C callbacks of a host language's custom
// operators adapted to core/op/custom/custom_op.h (Note [Custom operators]).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "c_api_common.h"
#include "core/engine/engine.h"
#include "core/op/custom/custom_op.h"

namespace weft {
namespace capi {
namespace {

thread_local std::string callback_error;

// Throws the message the failing callback left, naming op_type and the callback.
[[noreturn]] void Fail(const std::string& op_type, const char* what) {
  std::string msg = callback_error.empty() ? std::string("failed") : callback_error;
  callback_error.clear();
  WEFT_THROW(kInvalidArgument) << "Custom operator '" << op_type << "': " << what << ": " << msg;
}

struct Callbacks {
  weft_custom_op_callbacks cb;
  void* user;
  std::string op_type;
};

class COperator final : public custom::CustomOperator {
 public:
  COperator(std::shared_ptr<const Callbacks> c, void* op) : c_(std::move(c)), op_(op) {}
  ~COperator() override {
    if (c_->cb.delete_operator != nullptr) c_->cb.delete_operator(op_);
  }
  void Forward(bool is_train, Context ctx, const std::vector<TensorView>& arrays, const std::vector<int>& tags,
               const std::vector<OpReq>& reqs) override {
    WEFT_CHECK(c_->cb.forward != nullptr, kInvalidArgument)
        << "Custom operator '" << c_->op_type << "': no forward callback";
    Run(ctx, arrays, tags, reqs, [&](int n, weft_ndarray** h, const int* t, const int* r) {
      return c_->cb.forward(op_, is_train ? 1 : 0, n, h, t, r);
    }, "forward");
  }
  void Backward(Context ctx, const std::vector<TensorView>& arrays, const std::vector<int>& tags,
                const std::vector<OpReq>& reqs) override {
    WEFT_CHECK(c_->cb.backward != nullptr, kInvalidArgument)
        << "Custom operator '" << c_->op_type << "': no backward callback";
    Run(ctx, arrays, tags, reqs, [&](int n, weft_ndarray** h, const int* t, const int* r) {
      return c_->cb.backward(op_, n, h, t, r);
    }, "backward");
  }

 private:
  template <typename Fn>
  void Run(Context ctx, const std::vector<TensorView>& arrays, const std::vector<int>& tags,
           const std::vector<OpReq>& reqs, Fn call, const char* what) {
    std::vector<NDArray> wrapped(arrays.size());
    std::vector<weft_ndarray*> handles(arrays.size(), nullptr);
    std::vector<int> r(reqs.size());
    for (size_t i = 0; i < arrays.size(); ++i) {
      r[i] = static_cast<int>(reqs[i]);
      if (arrays[i].data == nullptr && arrays[i].Size() != 0) continue;  // not declared for backward
      // A non-null owner that frees nothing: the op's buffers belong to the op.
      static char not_owned;
      std::shared_ptr<void> owner(&not_owned, [](void*) {});
      wrapped[i] = NDArray::WrapExternal(arrays[i].data, arrays[i].shape, arrays[i].dtype, ctx, std::move(owner));
      handles[i] = NewHandle(wrapped[i]);  // the callee owns the handle
    }
    callback_error.clear();
    int rc = call(static_cast<int>(handles.size()), handles.data(), tags.data(), r.data());
    // Every read and write the callback queued on the arrays has finished
    // before the op completes (Note [Custom operators]).
    for (const NDArray& a : wrapped) {
      if (!a.is_none()) Engine::Get()->WaitForVar(a.var());
    }
    if (rc != 0) Fail(c_->op_type, what);
  }

  std::shared_ptr<const Callbacks> c_;
  void* op_;
};

std::vector<std::string> Names(int rc, int n, const char* const* names, const std::string& op_type, const char* what) {
  if (rc != 0) Fail(op_type, what);
  std::vector<std::string> r;
  for (int i = 0; i < n; ++i) r.emplace_back(names[i] != nullptr ? names[i] : "");
  return r;
}

class CProp final : public custom::CustomProp {
 public:
  CProp(std::shared_ptr<const Callbacks> c, void* prop) : c_(std::move(c)), prop_(prop) {}
  ~CProp() override {
    if (c_->cb.delete_prop != nullptr) c_->cb.delete_prop(prop_);
  }
  std::vector<std::string> ListArguments() override { return List(c_->cb.list_arguments, "list_arguments", {"data"}); }
  std::vector<std::string> ListOutputs() override { return List(c_->cb.list_outputs, "list_outputs", {"output"}); }
  std::vector<std::string> ListAuxiliaryStates() override {
    return List(c_->cb.list_auxiliary_states, "list_auxiliary_states", {});
  }
  void InferShape(const std::vector<Shape>& args, std::vector<Shape>* all) override {
    WEFT_CHECK(c_->cb.infer_shape != nullptr, kInvalidArgument)
        << "Custom operator '" << c_->op_type << "': no infer_shape callback";
    std::vector<int> nd;
    std::vector<const int64_t*> dims;
    for (const Shape& s : args) {
      nd.push_back(s.known() ? s.ndim() : -1);
      dims.push_back(s.data());
    }
    int total = 0;
    const int* ondim = nullptr;
    const int64_t* const* odims = nullptr;
    callback_error.clear();
    if (c_->cb.infer_shape(prop_, static_cast<int>(args.size()), nd.data(), dims.data(), &total, &ondim, &odims) != 0)
      Fail(c_->op_type, "infer_shape");
    all->clear();
    for (int i = 0; i < total; ++i) {
      if (ondim[i] < 0) {
        all->push_back(Shape::Unknown());
      } else {
        all->push_back(Shape(odims[i], odims[i] + ondim[i]));
      }
    }
  }
  void InferType(const std::vector<DType>& args, std::vector<DType>* all) override {
    WEFT_CHECK(c_->cb.infer_type != nullptr, kInvalidArgument)
        << "Custom operator '" << c_->op_type << "': no infer_type callback";
    // The prop's lists give the total (the caller asked for them first).
    size_t total = args.size() + ListOutputs().size() + ListAuxiliaryStates().size();
    std::vector<int> t(total, -1);
    for (size_t i = 0; i < args.size(); ++i) t[i] = static_cast<int>(args[i]);
    callback_error.clear();
    if (c_->cb.infer_type(prop_, static_cast<int>(args.size()), static_cast<int>(total), t.data()) != 0)
      Fail(c_->op_type, "infer_type");
    all->clear();
    for (int v : t) all->push_back(static_cast<DType>(v));
  }
  bool NeedTopGrad() override {
    if (c_->cb.need_top_grad == nullptr) return true;
    int out = 1;
    callback_error.clear();
    if (c_->cb.need_top_grad(prop_, &out) != 0) Fail(c_->op_type, "need_top_grad");
    return out != 0;
  }
  std::vector<int> DeclareBackwardDependency(const std::vector<int>& og, const std::vector<int>& id,
                                             const std::vector<int>& od) override {
    if (c_->cb.declare_backward_dependency == nullptr) {
      std::vector<int> all = og;
      all.insert(all.end(), id.begin(), id.end());
      all.insert(all.end(), od.begin(), od.end());
      return all;
    }
    int n = 0;
    const int* deps = nullptr;
    callback_error.clear();
    if (c_->cb.declare_backward_dependency(prop_, static_cast<int>(og.size()), og.data(), static_cast<int>(id.size()),
                                           id.data(), static_cast<int>(od.size()), od.data(), &n, &deps) != 0)
      Fail(c_->op_type, "declare_backward_dependency");
    return std::vector<int>(deps, deps + n);
  }
  std::shared_ptr<custom::CustomOperator> CreateOperator(Context ctx, const std::vector<Shape>& shapes,
                                                         const std::vector<DType>& types) override {
    WEFT_CHECK(c_->cb.create_operator != nullptr, kInvalidArgument)
        << "Custom operator '" << c_->op_type << "': no create_operator callback";
    std::vector<int> nd, t;
    std::vector<const int64_t*> dims;
    for (size_t i = 0; i < shapes.size(); ++i) {
      nd.push_back(shapes[i].ndim());
      dims.push_back(shapes[i].data());
      t.push_back(static_cast<int>(types[i]));
    }
    void* op = nullptr;
    callback_error.clear();
    if (c_->cb.create_operator(prop_, static_cast<weft_dev_type>(ctx.dev_type), ctx.dev_id,
                               static_cast<int>(shapes.size()), nd.data(), dims.data(), t.data(), &op) != 0)
      Fail(c_->op_type, "create_operator");
    return std::make_shared<COperator>(c_, op);
  }

 private:
  using ListFn = int (*)(void*, int*, const char* const**);
  std::vector<std::string> List(ListFn fn, const char* what, std::vector<std::string> dflt) {
    if (fn == nullptr) return dflt;
    int n = 0;
    const char* const* names = nullptr;
    callback_error.clear();
    int rc = fn(prop_, &n, &names);
    return Names(rc, n, names, c_->op_type, what);
  }

  std::shared_ptr<const Callbacks> c_;
  void* prop_;
};

}  // namespace
}  // namespace capi
}  // namespace weft

using namespace weft;        // NOLINT
using namespace weft::capi;  // NOLINT

int weft_custom_op_register(const char* op_type, const weft_custom_op_callbacks* callbacks, void* user) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(op_type);
  WEFT_CHECK_ARG(callbacks);
  WEFT_CHECK(callbacks->create_prop != nullptr, kInvalidArgument)
      << "weft_custom_op_register('" << op_type << "'): create_prop is NULL";
  auto c = std::make_shared<Callbacks>();
  c->cb = *callbacks;
  c->user = user;
  c->op_type = op_type;
  std::shared_ptr<const Callbacks> cc = c;
  custom::RegisterCustomOp(op_type, [cc](const std::vector<std::pair<std::string, std::string>>& kw) {
    std::vector<const char*> keys, vals;
    for (const auto& kv : kw) {
      keys.push_back(kv.first.c_str());
      vals.push_back(kv.second.c_str());
    }
    void* prop = nullptr;
    callback_error.clear();
    if (cc->cb.create_prop(cc->user, static_cast<int>(kw.size()), keys.data(), vals.data(), &prop) != 0)
      Fail(cc->op_type, "creating the CustomOpProp");
    return std::shared_ptr<custom::CustomProp>(std::make_shared<CProp>(cc, prop));
  });
  WEFT_API_END();
}

void weft_custom_op_set_error(const char* msg) { callback_error = msg != nullptr ? msg : ""; }
