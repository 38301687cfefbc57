// MXNet 1.9.1's NumPy-mode operator names that are another name of a Weft
// operator (Note [NumPy-mode op names] in np_op_names.cc). A table of plain
// rows, constant-initialised, so the registry can read it while the ops are
// still being registered.
#pragma once
#include <cstddef>

namespace weft {

struct OpNameAlias {
  const char* alias;   // the name MXNet's NumPy-mode graphs use (_npi_add)
  const char* target;  // the Weft operator it names (broadcast_add)
};

// The rows and, in *n, their count.
const OpNameAlias* NumpyModeAliases(size_t* n);

}  // namespace weft
