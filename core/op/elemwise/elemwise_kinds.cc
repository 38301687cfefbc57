// Names and costs of the elementwise kinds, from the rows of Note [Elementwise
// kinds] (core/op/elemwise/elemwise_cpu.h).
#include <string>

#include "core/op/elemwise/elemwise_cpu.h"

namespace weft {
namespace elemwise_cpu {
namespace {

struct KindRow {
  const char* name;
  int cost;
};

#define WEFT_KIND_ROW(e, name, cost) {name, cost},
#define WEFT_MATH_ROW(e, name, fluent, value, gradient, doc) {name, 8},
const KindRow kUnaryRows[] = {WEFT_UNARY_EXACT_KINDS(WEFT_KIND_ROW) WEFT_UNARY_MATH_OPS(WEFT_MATH_ROW)};
#undef WEFT_MATH_ROW
const KindRow kBinaryRows[] = {WEFT_BINARY_KINDS(WEFT_KIND_ROW)};
#undef WEFT_KIND_ROW

template <typename Kind, size_t N>
bool ByName(const KindRow (&rows)[N], const std::string& name, Kind* k) {
  for (size_t i = 0; i < N; ++i)
    if (name == rows[i].name) {
      *k = static_cast<Kind>(i);
      return true;
    }
  return false;
}

}  // namespace

const char* KindName(UnaryKind k) { return kUnaryRows[static_cast<int>(k)].name; }
const char* KindName(BinaryKind k) { return kBinaryRows[static_cast<int>(k)].name; }
int KindCost(UnaryKind k) { return kUnaryRows[static_cast<int>(k)].cost; }
int KindCost(BinaryKind k) { return kBinaryRows[static_cast<int>(k)].cost; }
bool UnaryKindByName(const std::string& name, UnaryKind* k) { return ByName(kUnaryRows, name, k); }
bool BinaryKindByName(const std::string& name, BinaryKind* k) { return ByName(kBinaryRows, name, k); }

}  // namespace elemwise_cpu
}  // namespace weft
