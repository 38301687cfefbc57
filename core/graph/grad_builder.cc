// GradBuilder and the small rule helpers (core/graph/grad_builder.h).
#include "core/graph/grad_builder.h"

#include <cstdio>
#include <string>
#include <vector>

#include "core/opdef/op_def.h"

namespace weft {

std::string GradBuilder::NextName() {
  const std::string n = fwd_->name + "_backward" + (count_ == 0 ? std::string() : std::to_string(count_));
  ++count_;
  return n;
}

NodeEntry GradBuilder::operator()(const std::string& op, std::vector<NodeEntry> inputs,
                                  std::map<std::string, std::string> attrs, uint32_t index) {
  return NodeEntry{Node(op, std::move(inputs), std::move(attrs)), index, 0};
}

NodePtr GradBuilder::Node(const std::string& op, std::vector<NodeEntry> inputs,
                          std::map<std::string, std::string> attrs) {
  return MakeNode(op, NextName(), std::move(inputs), std::move(attrs));
}

std::map<std::string, std::string> GradBuilder::Attrs(const std::string& op) const {
  const OpDef& def = OpRegistry::Get()->FindOrThrow(op);
  std::map<std::string, std::string> r;
  for (const auto& kv : fwd_->attrs)
    if (def.FindParam(kv.first) != nullptr) r.insert(kv);
  return r;
}

NodePtr GradBuilder::NodeWithAttrs(const std::string& op, std::vector<NodeEntry> inputs,
                                   const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> attrs = Attrs(op);
  for (const auto& kv : extra) attrs[kv.first] = kv.second;
  return Node(op, std::move(inputs), std::move(attrs));
}

NodeEntry GradBuilder::Scalar(const std::string& op, const NodeEntry& a, double scalar) {
  return (*this)(op, {a}, {{"scalar", ScalarAttr(scalar)}});
}

std::string ScalarAttr(double v) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

std::vector<NodeEntry> ZeroGradients(const NodePtr& node, const std::vector<NodeEntry>&) {
  GradBuilder b(node);
  std::vector<NodeEntry> r;
  for (const NodeEntry& in : node->inputs) r.push_back(b.Zeros(in));
  return r;
}

NodeEntry SumToShapeOf(GradBuilder& b, const NodeEntry& g, const NodeEntry& like) {
  return b("_broadcast_backward", {g, like});
}

std::vector<NodeEntry> ViaBackwardOp(const NodePtr& n, const std::string& op, std::vector<NodeEntry> inputs) {
  GradBuilder b(n);
  const NodePtr g = b.NodeWithAttrs(op, std::move(inputs));
  std::vector<NodeEntry> r(n->inputs.size());
  for (size_t i = 0; i < r.size() && static_cast<int>(i) < g->num_outputs(); ++i)
    r[i] = OutputOf(g, static_cast<uint32_t>(i));
  return r;
}

}  // namespace weft
