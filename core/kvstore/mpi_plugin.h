// Finds and loads libweft_mpi.so (plugins/mpi), the only code linked against
// MPI (Note [MPI as a plugin] in docs/ARCHITECTURE.md). Looked for at
// $WEFT_MPI_PLUGIN, then next to libweft.so, then on the loader's path.
#pragma once
#include "plugins/mpi/weft_mpi_api.h"

namespace weft {

// The loaded table, initialised (MPI_Init) on the first call; later calls
// return the same table. Throws kInvalidArgument naming where it looked and
// why loading failed.
const weft_mpi_api& MpiPlugin();

}  // namespace weft
