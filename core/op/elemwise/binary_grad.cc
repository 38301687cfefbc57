// MXNet's gradients of the arithmetic binary ops (core/op/elemwise/binary_grad.h).
#include "core/op/elemwise/binary_grad.h"
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/grad_builder.h"

#include "core/opdef/op_def.h"

namespace weft {

std::vector<NodeEntry> BinaryArithmeticGradient(const NodePtr& n, const NodeEntry& g, const std::string& what,
                                                bool broadcast) {
  GradBuilder b(n);
  const NodeEntry l = b.in(0), r = b.in(1), y = b.out();
  // Products of an output-shaped entry with an input: broadcast_* or elemwise_*.
  auto op = [&](const char* name) { return std::string(broadcast ? "broadcast_" : "elemwise_") + name; };
  auto cmp = [&](const char* name) { return std::string(broadcast ? "broadcast_" : "_") + name; };
  NodeEntry dl, dr;
  if (what == "add") {
    dl = g;
    dr = g;
  } else if (what == "sub") {
    dl = g;
    dr = b.Neg(g);
  } else if (what == "mul") {
    dl = b(op("mul"), {g, r});
    dr = b(op("mul"), {g, l});
  } else if (what == "div") {
    dl = b(op("div"), {g, r});
    dr = b.Neg(b(op("div"), {b.Mul(g, y), r}));
  } else if (what == "power") {  // d(l^r) = r l^(r-1) dl + l^r log(l) dr
    const NodeEntry lpow = b(broadcast ? "broadcast_power" : "_power", {l, b.Scalar("_minus_scalar", r, 1)});
    dl = b.Mul(g, b(op("mul"), {r, lpow}));
    dr = b(op("mul"), {b.Mul(g, y), b("log", {l})});
  } else if (what == "maximum" || what == "minimum") {
    const NodeEntry mask = b(cmp(what == "maximum" ? "greater_equal" : "lesser_equal"), {l, r});
    dl = b.Mul(g, mask);
    dr = b.Sub(g, dl);
  } else if (what == "mod") {  // l mod r = l - r floor(l / r)
    dl = g;
    dr = b.Neg(b.Mul(g, b("floor", {b(op("div"), {l, r})})));
  } else if (what == "hypot") {  // d hypot(l, r) = (l dl + r dr) / y
    dl = b(op("div"), {b(op("mul"), {g, l}), y});
    dr = b(op("div"), {b(op("mul"), {g, r}), y});
  } else {
    WEFT_THROW(kInternal) << "gradient: no arithmetic rule '" << what << "' (" << n->op->name << ")";
  }
  if (broadcast) {
    dl = SumToShapeOf(b, dl, l);
    dr = SumToShapeOf(b, dr, r);
  }
  return {dl, dr};
}

}  // namespace weft
