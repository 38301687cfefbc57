// Executor part of the C ABI: bind, forward, backward, outputs.
#include <memory>
#include "capi/src/c_api_common.h"
#include "core/executor/graph_executor.h"

struct weft_executor {
  std::unique_ptr<weft::GraphExecutor> exe;
};

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_executor_bind(const weft_symbol* sym, int dev_type, int dev_id, int num_args, weft_ndarray* const* args,
                       weft_ndarray* const* arg_grads, const int* grad_reqs, int num_aux, weft_ndarray* const* aux,
                       weft_executor** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(sym);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(num_args >= 0 && (num_args == 0 || args), kInvalidArgument) << "bind: bad argument list";
  WEFT_CHECK(num_aux >= 0 && (num_aux == 0 || aux), kInvalidArgument) << "bind: bad aux list";
  std::vector<NDArray> a, g, x;
  std::vector<GradReq> reqs;
  for (int i = 0; i < num_args; ++i) {
    WEFT_CHECK(args[i], kInvalidArgument) << "bind: argument " << i << " is NULL";
    a.push_back(args[i]->arr);
    g.push_back(arg_grads && arg_grads[i] ? arg_grads[i]->arr : NDArray());
    int r = grad_reqs ? grad_reqs[i] : 0;
    WEFT_CHECK(r == 0 || r == 1 || r == 3, kInvalidArgument) << "bind: grad_req " << r << " for argument " << i
                                                             << " (expected 0 null, 1 write, 3 add)";
    reqs.push_back(static_cast<GradReq>(r));
  }
  for (int i = 0; i < num_aux; ++i) {
    WEFT_CHECK(aux[i], kInvalidArgument) << "bind: aux state " << i << " is NULL";
    x.push_back(aux[i]->arr);
  }
  auto exe = std::make_unique<GraphExecutor>(sym->sym, Context::Make(dev_type, dev_id), std::move(a), std::move(g),
                                             std::move(reqs), std::move(x));
  *out = new weft_executor{std::move(exe)};
  WEFT_API_END();
}

void weft_executor_free(weft_executor* exe) { delete exe; }

int weft_executor_forward(weft_executor* exe, int is_train) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(exe);
  exe->exe->Forward(is_train != 0);
  WEFT_API_END();
}

int weft_executor_backward(weft_executor* exe, int num_head_grads, weft_ndarray* const* head_grads) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(exe);
  std::vector<NDArray> hg;
  for (int i = 0; i < num_head_grads; ++i) {
    WEFT_CHECK(head_grads && head_grads[i], kInvalidArgument) << "backward: head gradient " << i << " is NULL";
    hg.push_back(head_grads[i]->arr);
  }
  exe->exe->Backward(hg);
  WEFT_API_END();
}

int weft_executor_outputs(const weft_executor* exe, int* n, weft_ndarray*** outputs) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(exe);
  WEFT_CHECK_ARG(n);
  WEFT_CHECK_ARG(outputs);
  auto& s = capi::Scratch();
  s.handles.clear();
  for (const NDArray& a : exe->exe->outputs()) s.handles.push_back(capi::NewHandle(a));
  *n = static_cast<int>(s.handles.size());
  *outputs = s.handles.data();
  WEFT_API_END();
}

int weft_executor_internal_bytes(const weft_executor* exe, int64_t* bytes) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(exe);
  WEFT_CHECK_ARG(bytes);
  *bytes = exe->exe->internal_bytes();
  WEFT_API_END();
}

}  // extern "C"
