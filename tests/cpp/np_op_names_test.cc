// The NumPy-mode name table (core/opdef/np_op_names.cc, Note [NumPy-mode op
// names]): every row is attached to its target, whichever translation unit
// registered it first, and no row names an operator of its own.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/opdef/np_op_names.h"
#include "core/opdef/op_def.h"

namespace weft {
namespace {

TEST(NumpyModeNames, EveryRowIsAnAliasOfItsTarget) {
  size_t n = 0;
  const OpNameAlias* rows = NumpyModeAliases(&n);
  ASSERT_GT(n, 100u);
  std::set<std::string> seen;
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(rows[i].alias);
    EXPECT_TRUE(seen.insert(rows[i].alias).second) << "listed twice";
    const OpDef* target = OpRegistry::Get()->Find(rows[i].target);
    ASSERT_NE(target, nullptr) << "target '" << rows[i].target << "' is not registered";
    EXPECT_EQ(OpRegistry::Get()->Find(rows[i].alias), target);
    EXPECT_NE(target->name, rows[i].alias);  // an alias, never a declaration of its own
    int listed = 0;
    for (const std::string& a : target->aliases) listed += a == rows[i].alias;
    EXPECT_EQ(listed, 1);
  }
}

TEST(NumpyModeNames, SameOperatorAsTheLegacyNames) {
  // _np_copy names _copyto, as does the legacy alias _copy declared with it in another file
  EXPECT_EQ(OpRegistry::Get()->Find("_np_copy"), OpRegistry::Get()->Find("_copy"));
  EXPECT_EQ(OpRegistry::Get()->Find("_npi_add")->name, "broadcast_add");  // broadcasting, not elemwise_add
}

}  // namespace
}  // namespace weft
