// Executor part of the C ABI: bind, forward, backward, outputs.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include "capi/src/c_api_common.h"
#include "core/executor/graph_executor.h"
#include "core/graph/infer.h"
#include "core/graph/place_device.h"

struct weft_executor {
  std::unique_ptr<weft::GraphExecutor> exe;
};

using namespace weft;  // NOLINT: C ABI implementation file

namespace {

// group2ctx from the C arrays; a group named twice must name one context.
std::map<std::string, Context> GroupContexts(int num_groups, const char* const* names, const int* dev_types,
                                             const int* dev_ids) {
  WEFT_CHECK(num_groups >= 0 && (num_groups == 0 || (names && dev_types && dev_ids)), kInvalidArgument)
      << "group2ctx: bad group list";
  std::map<std::string, Context> out;
  for (int i = 0; i < num_groups; ++i) {
    WEFT_CHECK(names[i], kInvalidArgument) << "group2ctx: group name " << i << " is NULL";
    const Context c = Context::Make(dev_types[i], dev_ids[i]);
    auto ins = out.emplace(names[i], c);
    WEFT_CHECK(ins.second || ins.first->second == c, kInvalidArgument)
        << "group2ctx: group '" << names[i] << "' is given two contexts, " << ins.first->second.ToString()
        << " and " << c.ToString();
  }
  return out;
}

}  // namespace

extern "C" {

int weft_executor_bind(const weft_symbol* sym, weft_dev_type dev_type, int dev_id, int num_args,
                       weft_ndarray* const* args, weft_ndarray* const* arg_grads, const int* grad_reqs, int num_aux, weft_ndarray* const* aux,
                       weft_executor** out) {
  return weft_executor_bind_update(sym, dev_type, dev_id, num_args, args, arg_grads, grad_reqs, num_aux, aux, nullptr,
                                   0, nullptr, nullptr, out);
}

int weft_executor_bind_update(const weft_symbol* sym, weft_dev_type dev_type, int dev_id, int num_args,
                              weft_ndarray* const* args, weft_ndarray* const* arg_grads, const int* grad_reqs,
                              int num_aux, weft_ndarray* const* aux, const char* update_op, int num_attrs,
                              const char* const* keys, const char* const* vals, weft_executor** out) {
  return weft_executor_bind_groups(sym, dev_type, dev_id, num_args, args, arg_grads, grad_reqs, num_aux, aux,
                                   update_op, num_attrs, keys, vals, 0, nullptr, nullptr, nullptr, out);
}

int weft_executor_bind_groups(const weft_symbol* sym, weft_dev_type dev_type, int dev_id, int num_args,
                              weft_ndarray* const* args, weft_ndarray* const* arg_grads, const int* grad_reqs,
                              int num_aux, weft_ndarray* const* aux, const char* update_op, int num_attrs,
                              const char* const* keys, const char* const* vals, int num_groups,
                              const char* const* group_names, const int* group_dev_types, const int* group_dev_ids,
                              weft_executor** out) {
  WEFT_API_BEGIN();
  const std::map<std::string, Context> group2ctx =
      GroupContexts(num_groups, group_names, group_dev_types, group_dev_ids);
  WEFT_CHECK_ARG(sym);
  WEFT_CHECK_ARG(out);
  WEFT_CHECK(num_args >= 0 && (num_args == 0 || args), kInvalidArgument) << "bind: bad argument list";
  WEFT_CHECK(num_aux >= 0 && (num_aux == 0 || aux), kInvalidArgument) << "bind: bad aux list";
  WEFT_CHECK(num_attrs >= 0 && (num_attrs == 0 || (keys && vals)), kInvalidArgument) << "bind: bad update attributes";
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
  InGraphUpdate update;
  if (update_op != nullptr) update.op = update_op;
  for (int i = 0; i < num_attrs; ++i) {
    WEFT_CHECK(keys[i] && vals[i], kInvalidArgument) << "bind: update attribute " << i << " is NULL";
    update.attrs[keys[i]] = vals[i];
  }
  auto exe = std::make_unique<GraphExecutor>(sym->sym, Context::Make(dev_type, dev_id), std::move(a), std::move(g),
                                             std::move(reqs), std::move(x), update, true, group2ctx);
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

int weft_executor_debug_str(const weft_executor* exe, const char** out) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(exe);
  WEFT_CHECK_ARG(out);
  auto& s = capi::Scratch();
  s.str = exe->exe->DebugStr();
  *out = s.str.c_str();
  WEFT_API_END();
}

int weft_symbol_plan_memory(const weft_symbol* sym, int num_given, const char* const* names, const int* ndims,
                            const int64_t* shape_data, const int64_t* offsets, const char* strategy,
                            int for_training, int64_t* stats) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(sym);
  WEFT_CHECK_ARG(strategy);
  WEFT_CHECK_ARG(stats);
  WEFT_CHECK(num_given >= 0 && (num_given == 0 || (names && ndims && shape_data && offsets)), kInvalidArgument)
      << "plan_memory: bad shape list";
  const Symbol& s = sym->sym;
  std::unordered_map<std::string, Shape> shapes;
  for (int i = 0; i < num_given; ++i) {
    WEFT_CHECK(names[i], kInvalidArgument) << "plan_memory: name " << i << " is NULL";
    WEFT_CHECK(ndims[i] >= 0 && ndims[i] <= 32, kShape) << "plan_memory: bad ndim for '" << names[i] << "'";
    shapes[names[i]] = Shape(shape_data + offsets[i], shape_data + offsets[i] + ndims[i]);
  }
  IndexedGraph fg(s.outputs);
  ShapeInference si = InferShapes(fg, shapes);
  TypeInference ti = InferTypes(fg, {}, true);
  std::unordered_map<std::string, DType> types;
  for (uint32_t nid : fg.arg_nodes()) {
    const std::string& name = fg[nid].source->name;
    const uint32_t eid = fg.entry_id(nid, 0);
    WEFT_CHECK(si.entry[eid].known(), kShape) << "plan_memory: cannot infer the shape of '" << name << "'";
    shapes[name] = si.entry[eid];
    types[name] = ti.entry[eid];
  }
  ExecGraphOptions opt;
  opt.strategy = ParsePlanStrategy(strategy);
  for (const std::string& a : s.ListArguments())
    opt.arg_needs_grad.push_back(for_training != 0 && std::find_if(names, names + num_given, [&](const char* n) {
                                                        return a == n;
                                                      }) == names + num_given);
  ExecGraph eg = BuildExecGraph(s, shapes, types, opt);
  size_t ops = 0;
  for (size_t nid = 0; nid < eg.g->num_nodes(); ++nid) ops += (*eg.g)[nid].source->is_variable() ? 0 : 1;
  stats[0] = eg.plan.total_bytes;
  stats[1] = eg.plan.lower_bound_bytes;
  stats[2] = eg.naive_bytes;
  stats[3] = static_cast<int64_t>(eg.plan.storage_bytes.size());
  stats[4] = static_cast<int64_t>(ops);
  stats[5] = eg.fusion.elementwise_groups + eg.fusion.nn_act_fused + eg.fusion.conv_bn_fused;
  WEFT_API_END();
}

int weft_symbol_place_inputs(const weft_symbol* sym, weft_dev_type dev_type, int dev_id, int num_groups,
                             const char* const* group_names, const int* group_dev_types, const int* group_dev_ids,
                             int num_inputs, int* dev_types, int* dev_ids) {
  WEFT_API_BEGIN();
  WEFT_CHECK_ARG(sym);
  WEFT_CHECK_ARG(dev_types);
  WEFT_CHECK_ARG(dev_ids);
  const std::map<std::string, Context> group2ctx =
      GroupContexts(num_groups, group_names, group_dev_types, group_dev_ids);
  std::vector<std::string> names = sym->sym.ListArguments();
  for (const std::string& a : sym->sym.ListAuxiliaryStates()) names.push_back(a);
  WEFT_CHECK(num_inputs == static_cast<int>(names.size()), kInvalidArgument)
      << "place_inputs: the symbol has " << names.size() << " arguments and aux states, the arrays hold "
      << num_inputs;
  const std::unordered_map<std::string, Context> by_name =
      PlaceInputs(sym->sym.outputs, Context::Make(dev_type, dev_id), group2ctx);
  for (size_t i = 0; i < names.size(); ++i) {
    const Context c = by_name.at(names[i]);
    dev_types[i] = static_cast<int>(c.dev_type);
    dev_ids[i] = c.dev_id;
  }
  WEFT_API_END();
}

}  // extern "C"
