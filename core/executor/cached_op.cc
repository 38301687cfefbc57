#include "core/executor/cached_op.h"

#include <sstream>
#include <unordered_map>

#include "core/autograd/autograd.h"
#include "core/base/error.h"
#include "core/ndarray/imperative.h"

namespace weft {

CachedOp::CachedOp(const Symbol& sym, const std::map<std::string, std::string>& flags)
    : sym_(sym), input_names_(sym.ListInputs()), arg_names_(sym.ListArguments()),
      aux_names_(sym.ListAuxiliaryStates()) {
  for (const auto& kv : flags)
    WEFT_CHECK(kv.first == "static_alloc" || kv.first == "static_shape" || kv.first == "data_indices" ||
                   kv.first == "param_indices",
               kInvalidArgument)
        << "CachedOp: unknown flag '" << kv.first << "' (known: static_alloc, static_shape)";
}

std::vector<NDArray> CachedOp::Invoke(const std::vector<NDArray>& inputs) {
  WEFT_CHECK(inputs.size() == input_names_.size(), kInvalidArgument)
      << "CachedOp: the graph has " << input_names_.size() << " inputs, got " << inputs.size();
  for (size_t i = 0; i < inputs.size(); ++i)
    WEFT_CHECK(!inputs[i].is_none(), kInvalidArgument) << "CachedOp: input '" << input_names_[i] << "' is empty";
  const bool is_train = Autograd::IsTraining();
  if (Autograd::IsRecording()) return InvokeRecorded(inputs, is_train);

  std::unordered_map<std::string, NDArray> by_name;
  for (size_t i = 0; i < inputs.size(); ++i) by_name[input_names_[i]] = inputs[i].Detach();
  std::vector<NDArray> args, aux;
  for (const std::string& n : arg_names_) args.push_back(by_name.at(n));
  for (const std::string& n : aux_names_) aux.push_back(by_name.at(n));
  std::ostringstream key;
  key << (is_train ? "train" : "predict");
  for (const NDArray& a : inputs) key << "|" << a.shape().ToString() << DTypeName(a.dtype()) << a.ctx().ToString();
  auto it = executors_.find(key.str());
  if (it == executors_.end()) {
    auto exe = std::make_unique<GraphExecutor>(sym_, inputs.empty() ? Context::CPU(0) : inputs[0].ctx(), args,
                                               std::vector<NDArray>{}, std::vector<GradReq>{}, aux);
    it = executors_.emplace(key.str(), std::move(exe)).first;
  }
  it->second->Rebind(args, aux, /*fresh_outputs=*/true);
  it->second->Forward(is_train);
  return it->second->outputs();
}

std::vector<NDArray> CachedOp::InvokeRecorded(const std::vector<NDArray>& inputs, bool is_train) {
  std::unordered_map<std::string, NDArray> by_name;
  for (size_t i = 0; i < inputs.size(); ++i) by_name[input_names_[i]] = inputs[i];
  IndexedGraph g(sym_.outputs);
  std::vector<std::vector<NDArray>> values(g.num_nodes());
  for (size_t nid = 0; nid < g.num_nodes(); ++nid) {
    const Node* n = g[nid].source;
    if (n->is_variable()) {
      values[nid] = {by_name.at(n->name)};
      continue;
    }
    std::vector<NDArray> in;
    for (const auto& e : g[nid].inputs) {
      const auto& v = values[e.node_id];
      WEFT_CHECK(e.index < v.size(), kInternal)
          << "CachedOp: node '" << n->name << "' reads hidden output " << e.index << " of '"
          << g[e.node_id].source->name << "'";
      in.push_back(v[e.index]);
    }
    std::vector<NDArray> out;
    try {
      InvokeParsed(*n->op, n->params, std::move(in), &out, is_train);
    } catch (const Error& e) {
      throw Error(e.status(), "node '" + n->name + "': " + e.what());
    }
    values[nid] = std::move(out);
  }
  std::vector<NDArray> result;
  for (const auto& o : g.outputs()) result.push_back(values[o.node_id].at(o.index));
  return result;
}

}  // namespace weft
