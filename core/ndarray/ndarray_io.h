// Save/load of NDArray lists and dicts in MXNet 1.x's .params format
// (../shared/FORMATS.md part A), byte for byte.
#pragma once
#include <string>
#include <vector>

#include "core/ndarray/ndarray.h"

namespace weft {

// Serialises arrays (waiting for pending writes). keys empty: a list file;
// otherwise keys.size() must equal arrays.size() (a dict). Throws kInvalidArgument
// for a size mismatch. np_shape: write every record as V3, as MXNet does in
// NumPy-shape mode (Note [V3 records in NumPy-shape mode]; a none array then
// throws kInvalidArgument); false writes V2 where the shape allows it.
void SaveNDArrays(const std::vector<NDArray>& arrays, const std::vector<std::string>& keys,
                  std::string* out, bool np_shape = false);
// Parses a whole file held in memory. `source` names the file in error messages.
// Arrays are created on cpu(0) (the record's device is kept only if it is a
// CPU device that exists). Any truncation, bad magic, bad dtype flag, absurd
// shape or K not in {0, N} throws weft::Error(kIO) naming source, the record
// index and what was wrong; nothing is leaked or half-returned.
void LoadNDArrays(const char* data, size_t size, const std::string& source,
                  std::vector<NDArray>* arrays, std::vector<std::string>* keys);
// File helpers (kIO naming the path when it cannot be opened/read/written).
void SaveNDArraysToFile(const std::string& path, const std::vector<NDArray>& arrays,
                        const std::vector<std::string>& keys, bool np_shape = false);
void LoadNDArraysFromFile(const std::string& path, std::vector<NDArray>* arrays,
                          std::vector<std::string>* keys);

}  // namespace weft
