#include "core/kvstore/mpi_plugin.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "core/base/error.h"

namespace weft {
namespace {

std::string DirOfThisLibrary() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&MpiPlugin), &info) == 0 || info.dli_fname == nullptr) return "";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

weft_mpi_api Load() {
  std::vector<std::string> tried;
  const char* env = std::getenv("WEFT_MPI_PLUGIN");
  if (env != nullptr && *env != '\0') {
    tried.emplace_back(env);
  } else {
    std::string dir = DirOfThisLibrary();
    if (!dir.empty()) tried.push_back(dir + "libweft_mpi.so");
    tried.emplace_back("libweft_mpi.so");
  }
  std::string why;
  for (const std::string& path : tried) {
    // RTLD_GLOBAL: Open MPI's own components (dlopened by libmpi) resolve
    // libmpi's symbols globally.
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (h == nullptr) {
      const char* e = dlerror();
      why += "\n  " + path + ": " + (e ? e : "not loadable");
      continue;
    }
    auto get = reinterpret_cast<weft_mpi_get_api_fn>(dlsym(h, "weft_mpi_get_api"));
    weft_mpi_api api{};
    WEFT_CHECK(get != nullptr && get(WEFT_MPI_API_VERSION, &api) == 0, kInvalidArgument)
        << "kvstore 'allreduce': " << path << " is not a weft MPI plugin of API version " << WEFT_MPI_API_VERSION
        << " (rebuild it with this libweft)";
    return api;
  }
  WEFT_THROW(kInvalidArgument) << "kvstore 'allreduce' needs the MPI plugin libweft_mpi.so, built next to "
                                  "libweft.so when CMake finds MPI (apt install libopenmpi-dev, then rebuild); "
                                  "set WEFT_MPI_PLUGIN to its path. Tried:"
                               << why;
}

}  // namespace

const weft_mpi_api& MpiPlugin() {
  static std::mutex mu;
  static weft_mpi_api api{};
  static bool ready = false;
  std::lock_guard<std::mutex> lk(mu);
  if (!ready) {
    weft_mpi_api loaded = Load();
    int rank = 0, size = 0;
    char err[512] = "";
    WEFT_CHECK(loaded.init(&rank, &size, err, sizeof err) == 0, kInvalidArgument)
        << "kvstore 'allreduce': MPI could not start: " << err;
    api = loaded;
    ready = true;
  }
  return api;
}

}  // namespace weft
