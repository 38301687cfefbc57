// Runs a fuzz target's LLVMFuzzerTestOneInput once over every file named on
// the command line (folders: every file in them), for builds without libFuzzer
// (GCC): the corpora in tests/fuzz/corpus/ are replayed by ctest in every
// build, so each crash the fuzzer ever found stays a regression test.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int RunFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return 1;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A copy of exactly `size` bytes on the heap, as libFuzzer passes it, so an
  // overread past the input is visible to the sanitizers.
  std::vector<uint8_t> exact(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(exact.empty() ? nullptr : exact.data(), exact.size());
  return 0;
}

int main(int argc, char** argv) {
  int files = 0, failures = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> paths;
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file()) paths.push_back(entry.path());
      std::sort(paths.begin(), paths.end());
      for (const auto& p : paths) failures += RunFile(p), ++files;
    } else {
      failures += RunFile(arg), ++files;
    }
  }
  if (files == 0) {
    std::fprintf(stderr, "replay: no inputs given (an empty corpus replays nothing)\n");
    return 1;
  }
  std::printf("replayed %d inputs, %d unreadable\n", files, failures);
  return failures ? 1 : 0;
}
