// The NDArray list/dict file of MXNet 1.x (../shared/FORMATS.md part A).
//
// Note [NDArray file robustness]
//  Files come from outside, so every read goes through Reader, which checks
//  bounds first and reports source, record index and byte offset. Sizes taken
//  from the file (N, K, string lengths, dims) are checked against the bytes
//  that remain *before* anything is allocated, so a garbage dim of 2^60 is an
//  error, not an allocation. Results are built in locals and handed out only
//  when the whole file parsed.
//
// Note [NDArray file choices]
//  * A "none" record (V2 ndim 0, V3 ndim -1 or a dim -1, V1/V0 ndim 0) loads as
//    a none NDArray (NDArray()), like MXNet; callers that cannot represent one
//    must check is_none(). A none array saves as MXNet 1.9.1 writes it: V2,
//    storage type -1 (undefined), ndim 0.
//  * Sparse records (row_sparse, csr) are rejected with kIO.
//  * Device: every record loads on cpu(0), as MXNet loads cpu records into
//    Context::CPU() and gpu ones on a machine without GPUs. The device id is
//    still range-checked, but never used: a file naming cpu(0)..cpu(999) made
//    one engine worker pool per id (a thousand threads from a 36 KB file).
//  * Saving writes V2 records (what mx.nd.save writes outside NumPy-shape mode:
//    Note [V3 records in NumPy-shape mode]). V2 cannot express a 0-d
//    array (ndim 0 means none) nor a zero-size one (dim 0 means unknown), so
//    those are written as V3 records, which MXNet reads in np-shape mode.
//  * bool data is normalised to 0/1 on load so no invalid bool ever exists.
//  * Like MXNet, the reserved header word is not checked and bytes after the
//    last name are ignored.
//
// Note [V3 records in NumPy-shape mode]
//  MXNet 1.9.1's NDArray::Save writes every record as V3 while np-shape
//  semantics are on (Imperative::is_np_shape), and its NDArray::Load refuses a
//  V2 record in that mode ("ndarray was not saved in np shape semantics"). So a
//  NumPy-mode export() whose parameters were V2 did not load in MXNet's NumPy
//  mode. The np-shape flag lives in the bindings (Python's thread state), so it
//  comes in as the np_shape argument: true writes V3 for every record, as
//  MXNet does, and refuses a none array as MXNet does ("only allow serializing
//  ndarray of default storage type in np shape semantics"); false keeps the
//  choices above, byte for byte.
#include "core/ndarray/ndarray_io.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "core/base/error.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "weft's .params reader/writer (ndarray_io.cc) supports little-endian hosts only");
#endif

namespace weft {
namespace {

constexpr uint64_t kListMagic = 0x112;
constexpr uint32_t kV1Magic = 0xF993FAC8;
constexpr uint32_t kV2Magic = 0xF993FAC9;
constexpr uint32_t kV3Magic = 0xF993FACA;
constexpr int32_t kUndefinedStorage = -1;  // MXNet's kUndefinedStorage: a none array
constexpr int kMaxNDim = NDArray::kMaxNDim;  // the format's limit is every array's

bool HostIsLittleEndian() {
  const uint16_t probe = 1;
  uint8_t first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

void CheckHost() {
  WEFT_CHECK(HostIsLittleEndian(), kIO)
      << "NDArray files (.params) are little-endian and this host is big-endian: not supported";
}

// Bounds-checked little-endian reads from a buffer (Note [NDArray file robustness]).
class Reader {
 public:
  Reader(const char* data, size_t size, const std::string& source)
      : data_(data), size_(size), source_(source) {}

  size_t remaining() const { return size_ - pos_; }
  size_t pos() const { return pos_; }
  void set_where(std::string where) { where_ = std::move(where); }
  // "file.params: record 3 (offset 120): "
  std::string Where() const {
    std::ostringstream os;
    os << source_ << ": " << where_ << " (offset " << pos_ << "): ";
    return os.str();
  }

  const char* Take(size_t n, const char* what) {
    WEFT_CHECK(n <= remaining(), kIO) << Where() << "file truncated while reading " << what
                                      << " (need " << n << " bytes, " << remaining() << " left)";
    const char* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  template <typename T>
  T Read(const char* what) {
    T v;
    std::memcpy(&v, Take(sizeof(T), what), sizeof(T));
    return v;
  }

 private:
  const char* data_;
  size_t size_;
  size_t pos_ = 0;
  const std::string& source_;
  std::string where_ = "header";
};

// Reads i32 ndim + i64 dims (V1/V2/V3), or u32 dims for V0 (ndim already read).
// Returns false for a V3 "none" shape (ndim -1 or a dim -1).
bool ReadShape(Reader* r, bool v0, int64_t v0_ndim, bool v3, Shape* shape) {
  int64_t ndim = v0 ? v0_ndim : r->Read<int32_t>("ndim");
  if (v3 && ndim == -1) return false;
  WEFT_CHECK(ndim >= 0 && ndim <= kMaxNDim, kIO)
      << r->Where() << "ndim " << ndim << " out of range [0, " << kMaxNDim << "]";
  std::vector<int64_t> dims(static_cast<size_t>(ndim));
  bool none = false;
  for (auto& d : dims) {
    d = v0 ? static_cast<int64_t>(r->Read<uint32_t>("dim")) : r->Read<int64_t>("dim");
    if (v3 && d == -1) none = true;
    else WEFT_CHECK(d >= 0, kIO) << r->Where() << "negative dimension " << d;
  }
  *shape = Shape(std::move(dims));
  return !none;
}

// Reads the dev_type/dev_id pair and picks where the array is created.
Context ReadContext(Reader* r) {
  int32_t dev_type = r->Read<int32_t>("device type");
  int32_t dev_id = r->Read<int32_t>("device id");
  WEFT_CHECK(dev_type == 1 || dev_type == 2 || dev_type == 3 || dev_type == 5, kIO)
      << r->Where() << "unknown device type " << dev_type;
  WEFT_CHECK(dev_id >= 0 && dev_id < 1024, kIO) << r->Where() << "device id " << dev_id
                                                << " out of range";
  return Context::CPU(0);
}

// Byte size of shape x elem_size, after checking it fits in what remains.
size_t CheckedDataBytes(Reader* r, const Shape& shape, size_t elem_size) {
  // Nonzero dims must not overflow int64 (even for a zero-size array, so the
  // shape stays safe for everything downstream).
  int64_t nonzero = 1;
  bool zero = false;
  for (int64_t d : shape.dims()) {
    if (d == 0) {
      zero = true;
      continue;
    }
    WEFT_CHECK(!__builtin_mul_overflow(nonzero, d, &nonzero), kIO)
        << r->Where() << "shape " << shape.ToString() << " has too many elements";
  }
  if (zero) return 0;
  uint64_t limit = r->remaining() / elem_size;
  WEFT_CHECK(static_cast<uint64_t>(nonzero) <= limit, kIO)
      << r->Where() << "file truncated or corrupt: shape " << shape.ToString() << " needs " << nonzero << " elements of "
      << elem_size << " bytes but only " << r->remaining() << " bytes remain";
  return static_cast<size_t>(nonzero) * elem_size;
}

NDArray ReadRecord(Reader* r) {
  uint32_t magic = r->Read<uint32_t>("record magic");
  bool v2 = magic == kV2Magic, v3 = magic == kV3Magic, v1 = magic == kV1Magic;
  bool v0 = !(v1 || v2 || v3);
  bool undefined_storage = false;
  WEFT_CHECK(!v0 || magic <= static_cast<uint32_t>(kMaxNDim), kIO)
      << r->Where() << "bad record magic 0x" << std::hex << magic
      << " (not V1/V2/V3, and too large for a V0 ndim)";
  if (v2 || v3) {
    int32_t stype = r->Read<int32_t>("storage type");
    WEFT_CHECK(stype != 1, kIO) << r->Where() << "row_sparse arrays are not supported";
    WEFT_CHECK(stype != 2, kIO) << r->Where() << "csr arrays are not supported";
    WEFT_CHECK(stype == 0 || stype == kUndefinedStorage, kIO) << r->Where() << "unknown storage type " << stype;
    undefined_storage = stype == kUndefinedStorage;
  }
  Shape shape;
  bool known = ReadShape(r, v0, magic, v3, &shape);
  // V3: none is ndim -1 / a dim -1 and ndim 0 is a scalar; older: ndim 0 is none.
  bool none = !known || (!v3 && shape.ndim() == 0);
  WEFT_CHECK(none || !undefined_storage, kIO)
      << r->Where() << "storage type -1 (undefined) with shape " << shape.ToString()
      << ": only a none array has no storage type";
  if (none) return NDArray();
  Context ctx = ReadContext(r);
  int32_t flag = r->Read<int32_t>("dtype flag");
  WEFT_CHECK(IsValidDTypeFlag(flag), kIO)
      << r->Where() << "dtype flag " << flag << " is not a savable dtype";
  DType dtype = static_cast<DType>(flag);
  size_t nbytes = CheckedDataBytes(r, shape, DTypeSize(dtype));
  const char* src = r->Take(nbytes, "array data");
  NDArray arr(shape, ctx, dtype);
  if (nbytes == 0) return arr;
  if (dtype == DType::kBool) {
    std::vector<uint8_t> norm(nbytes);
    for (size_t i = 0; i < nbytes; ++i) norm[i] = src[i] != 0;
    arr.SyncCopyFromHost(norm.data(), nbytes);
  } else {
    arr.SyncCopyFromHost(src, nbytes);
  }
  return arr;
}

template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

void WriteRecord(const NDArray& a, size_t index, bool np_shape, std::string* out) {
  WEFT_CHECK(!(np_shape && a.is_none()), kInvalidArgument)
      << "save: array " << index << " is none (no shape, no data); MXNet 1.9.1 cannot save one in "
      << "NumPy-shape mode either (Note [V3 records in NumPy-shape mode])";
  if (a.is_none()) {
    // As MXNet 1.9.1's NDArray::Save: V2 magic, storage type -1 (undefined),
    // a shape of ndim 0, nothing else.
    Put<uint32_t>(out, kV2Magic);
    Put<int32_t>(out, kUndefinedStorage);
    Put<int32_t>(out, 0);
    return;
  }
  const Shape& s = a.shape();
  // Note [NDArray file choices]: V2 unless the shape needs V3, or NumPy-shape
  // mode asks for V3 (Note [V3 records in NumPy-shape mode]).
  bool v3 = np_shape || s.ndim() == 0 || s.Size() == 0;
  Put<uint32_t>(out, v3 ? kV3Magic : kV2Magic);
  Put<int32_t>(out, 0);  // dense storage
  Put<int32_t>(out, s.ndim());
  for (int64_t d : s.dims()) Put<int64_t>(out, d);
  Context ctx = a.ctx();
  Put<int32_t>(out, static_cast<int32_t>(ctx.dev_type));
  Put<int32_t>(out, ctx.dev_id);
  Put<int32_t>(out, static_cast<int32_t>(a.dtype()));
  size_t nbytes = a.Bytes();
  if (nbytes == 0) return;
  size_t at = out->size();
  out->resize(at + nbytes);
  a.SyncCopyToHost(&(*out)[at], nbytes);
}

void PutString(std::string* out, const std::string& s) {
  Put<uint64_t>(out, s.size());
  out->append(s);
}

}  // namespace

void SaveNDArrays(const std::vector<NDArray>& arrays, const std::vector<std::string>& keys,
                  std::string* out, bool np_shape) {
  CheckHost();
  WEFT_CHECK(keys.empty() || keys.size() == arrays.size(), kInvalidArgument)
      << "cannot save " << arrays.size() << " arrays with " << keys.size()
      << " names (need 0 names for a list or one per array for a dict)";
  std::string buf;
  Put<uint64_t>(&buf, kListMagic);
  Put<uint64_t>(&buf, 0);
  Put<uint64_t>(&buf, arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) WriteRecord(arrays[i], i, np_shape, &buf);
  Put<uint64_t>(&buf, keys.size());
  for (const auto& k : keys) PutString(&buf, k);
  out->swap(buf);
}

void LoadNDArrays(const char* data, size_t size, const std::string& source,
                  std::vector<NDArray>* arrays, std::vector<std::string>* keys) {
  CheckHost();
  Reader r(data, size, source);
  uint64_t magic = r.Read<uint64_t>("list magic");
  WEFT_CHECK(magic == kListMagic, kIO)
      << r.Where() << "not an NDArray file (list magic 0x" << std::hex << magic
      << ", expected 0x112)";
  r.Read<uint64_t>("reserved field");
  uint64_t n = r.Read<uint64_t>("array count");
  // Every record takes at least 4 bytes (a V0 none record).
  WEFT_CHECK(n <= r.remaining() / 4, kIO)
      << r.Where() << "array count " << n << " cannot fit in the " << r.remaining()
      << " bytes that remain";
  std::vector<NDArray> out_arrays;
  out_arrays.reserve(static_cast<size_t>(n));
  for (uint64_t i = 0; i < n; ++i) {
    r.set_where("record " + std::to_string(i));
    out_arrays.push_back(ReadRecord(&r));
  }
  r.set_where("names");
  uint64_t k = r.Read<uint64_t>("name count");
  WEFT_CHECK(k == 0 || k == n, kIO)
      << r.Where() << "name count " << k << " must be 0 (a list) or " << n << " (a dict)";
  std::vector<std::string> out_keys;
  out_keys.reserve(static_cast<size_t>(k));
  for (uint64_t i = 0; i < k; ++i) {
    r.set_where("name " + std::to_string(i));
    uint64_t len = r.Read<uint64_t>("name length");
    WEFT_CHECK(len <= r.remaining(), kIO)
        << r.Where() << "name length " << len << " exceeds the " << r.remaining()
        << " bytes that remain";
    const char* p = r.Take(static_cast<size_t>(len), "name");
    // Names cross the C ABI as C strings: one holding a NUL would come back cut short.
    WEFT_CHECK(std::memchr(p, 0, static_cast<size_t>(len)) == nullptr, kIO)
        << r.Where() << "the name holds a NUL byte";
    out_keys.emplace_back(p, static_cast<size_t>(len));
  }
  arrays->swap(out_arrays);
  keys->swap(out_keys);
}

void SaveNDArraysToFile(const std::string& path, const std::vector<NDArray>& arrays,
                        const std::vector<std::string>& keys, bool np_shape) {
  std::string buf;
  SaveNDArrays(arrays, keys, &buf, np_shape);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  WEFT_CHECK(f.is_open(), kIO) << "cannot open '" << path << "' for writing: "
                               << std::strerror(errno);
  f.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  f.close();
  WEFT_CHECK(!f.fail(), kIO) << "error writing '" << path << "'";
}

void LoadNDArraysFromFile(const std::string& path, std::vector<NDArray>* arrays,
                          std::vector<std::string>* keys) {
  std::ifstream f(path, std::ios::binary);
  WEFT_CHECK(f.is_open(), kIO) << "cannot open '" << path << "' for reading: "
                               << std::strerror(errno);
  std::string buf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  WEFT_CHECK(!f.bad(), kIO) << "error reading '" << path << "'";
  LoadNDArrays(buf.data(), buf.size(), path, arrays, keys);
}

}  // namespace weft
