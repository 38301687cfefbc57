// Autograd part of the C ABI: recording and training flags, marking
// variables, backward / grad.
#include "capi/src/c_api_common.h"
#include "core/autograd/autograd.h"

using namespace weft;  // NOLINT: C ABI implementation file

extern "C" {

int weft_autograd_set_recording(int on, int* prev) {
  WEFT_API_BEGIN();
  bool p = Autograd::SetRecording(on != 0);
  if (prev) *prev = p ? 1 : 0;
  WEFT_API_END();
}

int weft_autograd_set_training(int on, int* prev) {
  WEFT_API_BEGIN();
  bool p = Autograd::SetTraining(on != 0);
  if (prev) *prev = p ? 1 : 0;
  WEFT_API_END();
}

int weft_autograd_is_recording(int* on) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(on);
  *on = Autograd::IsRecording() ? 1 : 0;
  WEFT_API_END();
}

int weft_autograd_is_training(int* on) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(on);
  *on = Autograd::IsTraining() ? 1 : 0;
  WEFT_API_END();
}

int weft_autograd_get_fresh_grad(const weft_ndarray* var, int* fresh) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(var);
  WEFT_CHECK_ARG(fresh);
  *fresh = Autograd::FreshGrad(var->arr) ? 1 : 0;
  WEFT_API_END();
}

int weft_autograd_set_fresh_grad(const weft_ndarray* var, int fresh) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(var);
  Autograd::SetFreshGrad(var->arr, fresh != 0);
  WEFT_API_END();
}

int weft_autograd_mark_variables(int n, weft_ndarray* const* vars, const int* grad_reqs, weft_ndarray* const* grads) {
  WEFT_API_BEGIN();
  WEFT_CHECK(n >= 0 && (n == 0 || (vars && grad_reqs && grads)), kInvalidArgument) << "mark_variables: bad lists";
  for (int i = 0; i < n; ++i) {
    WEFT_CHECK(vars[i] != nullptr, kInvalidArgument) << "mark_variables: variable " << i << " is NULL";
    const int r = grad_reqs[i];
    WEFT_CHECK(r == 0 || r == 1 || r == 3, kInvalidArgument)
        << "mark_variables: grad_req " << r << " for variable " << i << " (expected 0 null, 1 write, 3 add)";
    WEFT_CHECK(r == 0 || grads[i] != nullptr, kInvalidArgument) << "mark_variables: gradient " << i << " is NULL";
    Autograd::MarkVariable(&vars[i]->arr, grads[i] ? grads[i]->arr : NDArray(), static_cast<GradReq>(r));
  }
  WEFT_API_END();
}

int weft_autograd_backward(int num_heads, weft_ndarray* const* heads, weft_ndarray* const* head_grads, int num_vars,
                           weft_ndarray* const* vars, int retain_graph, int create_graph, int is_train,
                           int* num_grads, weft_ndarray*** grads) {
  WEFT_API_BEGIN();
  WEFT_CHECK(num_heads > 0 && heads, kInvalidArgument) << "backward: no heads";
  WEFT_CHECK(num_vars >= 0 && (num_vars == 0 || vars), kInvalidArgument) << "backward: bad variable list";
  std::vector<NDArray> h, hg, v;
  for (int i = 0; i < num_heads; ++i) {
    WEFT_CHECK(heads[i] != nullptr, kInvalidArgument) << "backward: head " << i << " is NULL";
    h.push_back(heads[i]->arr);
    hg.push_back(head_grads && head_grads[i] ? head_grads[i]->arr : NDArray());
  }
  for (int i = 0; i < num_vars; ++i) {
    WEFT_CHECK(vars[i] != nullptr, kInvalidArgument) << "grad: variable " << i << " is NULL";
    v.push_back(vars[i]->arr);
  }
  std::vector<NDArray> r = Autograd::Backward(h, hg, v, retain_graph != 0, create_graph != 0, is_train != 0);
  if (num_grads) *num_grads = static_cast<int>(r.size());
  if (grads) {
    auto& s = capi::Scratch();
    s.handles.clear();
    for (auto& a : r) s.handles.push_back(capi::NewHandle(std::move(a)));
    *grads = s.handles.data();
  }
  WEFT_API_END();
}

int weft_ndarray_detach(const weft_ndarray* a, weft_ndarray** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(a);
  WEFT_CHECK_ARG(out);
  *out = capi::NewHandle(a->arr.Detach());
  WEFT_API_END();
}

int weft_ndarray_on_tape(const weft_ndarray* a, int* on) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(a);
  WEFT_CHECK_ARG(on);
  *on = a->arr.ag_node() ? 1 : 0;
  WEFT_API_END();
}

int weft_autograd_set_function_callbacks(weft_function_backward_fn backward, weft_function_release_fn release) {
  WEFT_API_BEGIN();
  if (backward == nullptr) {  // unregistered (a front end shutting down): release is not called any more
    Autograd::SetCustomCallbacks(nullptr, nullptr);
    return 0;
  }
  Autograd::SetCustomCallbacks(
      [backward](int64_t id, const std::vector<NDArray>& out_grads, size_t num_inputs) {
        std::vector<weft_ndarray*> in(out_grads.size());
        for (size_t i = 0; i < in.size(); ++i) in[i] = capi::NewHandle(out_grads[i].Detach());
        std::vector<weft_ndarray*> out(num_inputs, nullptr);
        const int rc = backward(id, static_cast<int>(in.size()), in.data(), static_cast<int>(out.size()),
                                out.data());
        for (weft_ndarray* h : in) weft_ndarray_free(h);
        std::vector<NDArray> grads;
        for (weft_ndarray* h : out) {
          grads.push_back(h ? h->arr.Detach() : NDArray());
          weft_ndarray_free(h);
        }
        WEFT_CHECK(rc == 0, kInvalidArgument) << "autograd.Function " << id << ": backward failed";
        return grads;
      },
      [release](int64_t id) {
        if (release) release(id);
      });
  WEFT_API_END();
}

int weft_autograd_record_function(int64_t id, int num_inputs, weft_ndarray* const* inputs, int num_outputs,
                                  weft_ndarray* const* outputs) {
  WEFT_API_BEGIN();
  WEFT_CHECK(num_inputs >= 0 && (num_inputs == 0 || inputs), kInvalidArgument) << "Function: bad input list";
  WEFT_CHECK(num_outputs > 0 && outputs, kInvalidArgument) << "Function: no outputs";
  std::vector<NDArray> in, out;
  for (int i = 0; i < num_inputs; ++i) {
    WEFT_CHECK(inputs[i], kInvalidArgument) << "Function: input " << i << " is NULL";
    in.push_back(inputs[i]->arr);
  }
  for (int i = 0; i < num_outputs; ++i) {
    WEFT_CHECK(outputs[i], kInvalidArgument) << "Function: output " << i << " is NULL";
    out.push_back(outputs[i]->arr);
  }
  Autograd::RecordCustom(id, in, &out);
  for (int i = 0; i < num_outputs; ++i) outputs[i]->arr = out[static_cast<size_t>(i)];
  WEFT_API_END();
}

}  // extern "C"
