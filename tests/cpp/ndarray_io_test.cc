// The .params format (FORMATS.md part A): MXNet 1.9.1 fixtures re-save byte for
// byte, every dtype round-trips, old record layouts load, and malformed input
// of any kind is a kIO error, never a crash or a huge allocation.
#include "core/ndarray/ndarray_io.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace weft {
namespace {

namespace fs = std::filesystem;

// ../shared/fixtures beside the repository root (WEFT_SOURCE_DIR, set by
// tests/CMakeLists.txt: __FILE__ is relative under ccache's base_dir);
// WEFT_FIXTURES_DIR overrides.
fs::path FixtureDir() {
  if (const char* env = std::getenv("WEFT_FIXTURES_DIR")) return env;
  return fs::path(WEFT_SOURCE_DIR).parent_path() / "shared" / "fixtures";
}

std::string ReadBytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::vector<fs::path> ParamsFixtures() {
  std::vector<fs::path> out;
  fs::path dir = FixtureDir();
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".params") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string HostBytes(const NDArray& a) {
  std::string s(a.Bytes(), '\0');
  if (!s.empty()) a.SyncCopyToHost(&s[0], s.size());
  return s;
}

void Load(const std::string& bytes, std::vector<NDArray>* arrays, std::vector<std::string>* keys,
          const std::string& source = "test.params") {
  LoadNDArrays(bytes.data(), bytes.size(), source, arrays, keys);
}

// Expects a kIO error whose message contains every one of `parts`.
void ExpectIOError(const std::string& bytes, std::vector<std::string> parts) {
  std::vector<NDArray> arrays;
  std::vector<std::string> keys;
  try {
    Load(bytes, &arrays, &keys, "bad.params");
    ADD_FAILURE() << "no error; expected one mentioning " << parts[0];
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kIO) << e.what();
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
        << "message '" << e.what() << "' lacks '" << p << "'";
  }
}

// Little-endian byte builder for hand-made files.
struct Bytes {
  std::string s;
  template <typename T>
  Bytes& put(T v) {
    s.append(reinterpret_cast<const char*>(&v), sizeof(T));
    return *this;
  }
  Bytes& header(uint64_t n) { return put<uint64_t>(0x112).put<uint64_t>(0).put<uint64_t>(n); }
  Bytes& raw(const void* p, size_t n) {
    s.append(static_cast<const char*>(p), n);
    return *this;
  }
  // V2 dense record header: magic, stype 0, shape, ctx, dtype.
  Bytes& v2(std::vector<int64_t> dims, int flag, int dev_type = 1, int dev_id = 0,
            uint32_t magic = 0xF993FAC9) {
    put<uint32_t>(magic).put<int32_t>(0).put<int32_t>(static_cast<int32_t>(dims.size()));
    for (int64_t d : dims) put<int64_t>(d);
    return put<int32_t>(dev_type).put<int32_t>(dev_id).put<int32_t>(flag);
  }
};

const std::vector<float> kSix = {1.5f, -2.f, 3.25f, 0.f, 7.f, -0.5f};

TEST(NDArrayIOTest, FixturesResaveByteIdentical) {
  auto files = ParamsFixtures();
  ASSERT_FALSE(files.empty()) << "no .params fixtures in " << FixtureDir();
  for (const auto& p : files) {
    SCOPED_TRACE(p.string());
    std::string bytes = ReadBytes(p);
    std::vector<NDArray> arrays;
    std::vector<std::string> keys;
    LoadNDArraysFromFile(p.string(), &arrays, &keys);
    std::string again;
    SaveNDArrays(arrays, keys, &again);
    EXPECT_TRUE(again == bytes) << "re-saved " << again.size() << " bytes vs " << bytes.size();
  }
}

TEST(NDArrayIOTest, FixtureContents) {
  fs::path dir = FixtureDir();
  if (!fs::exists(dir / "nd_list.params")) GTEST_SKIP() << "no fixtures in " << dir;
  std::vector<NDArray> arrays;
  std::vector<std::string> keys;
  LoadNDArraysFromFile((dir / "nd_list.params").string(), &arrays, &keys);
  const DType want[] = {DType::kFloat32, DType::kFloat64, DType::kFloat16,
                        DType::kUint8,   DType::kInt32,   DType::kInt8,
                        DType::kInt64,   DType::kBool,    DType::kFloat32};
  ASSERT_EQ(arrays.size(), 9u);
  EXPECT_TRUE(keys.empty());
  for (size_t i = 0; i < 9; ++i) EXPECT_EQ(arrays[i].dtype(), want[i]) << i;
  EXPECT_EQ(arrays[8].shape(), Shape({1, 1, 1, 1, 1, 1, 2}));
  EXPECT_EQ(arrays[0].ctx(), Context::CPU(0));

  LoadNDArraysFromFile((dir / "nd_dict.params").string(), &arrays, &keys);
  ASSERT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys[0], "arg:fc_weight");
  EXPECT_EQ(keys[2], "name with spaces/\xc3\xbc");
  EXPECT_EQ(arrays[1].shape(), Shape({4}));

  LoadNDArraysFromFile((dir / "nd_empty.params").string(), &arrays, &keys);
  EXPECT_TRUE(arrays.empty() && keys.empty());
}

TEST(NDArrayIOTest, WorkedExampleLayout) {  // FORMATS.md A.4
  NDArray a(Shape{2, 3}, Context::CPU(0), DType::kFloat32);
  a.SyncCopyFromHost(kSix.data(), 24);
  std::string out;
  SaveNDArrays({a}, {}, &out);
  Bytes want;
  want.header(1).v2({2, 3}, 0).raw(kSix.data(), 24).put<uint64_t>(0);
  EXPECT_TRUE(out == want.s);
  EXPECT_EQ(out.size(), 96u);
}

TEST(NDArrayIOTest, RoundTripEveryDType) {
  const DType all[] = {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kUint8,
                       DType::kInt32,   DType::kInt8,    DType::kInt64,   DType::kBool,
                       DType::kBFloat16};
  std::vector<NDArray> arrays;
  std::vector<std::string> keys;
  std::mt19937 rng(7);
  for (DType t : all) {
    Shape shape = t == DType::kFloat32 ? Shape{2, 1, 3, 1, 2, 1, 2} : Shape{3, 5};  // rank 7
    NDArray a(shape, Context::CPU(0), t);
    std::string data(a.Bytes(), '\0');
    for (auto& c : data) c = static_cast<char>(t == DType::kBool ? rng() & 1 : rng());
    a.SyncCopyFromHost(data.data(), data.size());
    arrays.push_back(a);
    keys.push_back(std::string("k_") + DTypeName(t));
  }
  // 0-d and zero-size arrays (written as V3 records).
  arrays.emplace_back(Shape{}, Context::CPU(0), DType::kFloat64);
  double pi = 3.14159;
  arrays.back().SyncCopyFromHost(&pi, 8);
  keys.push_back("scalar");
  arrays.emplace_back(Shape{4, 0, 2}, Context::CPU(0), DType::kInt32);
  keys.push_back("empty");

  for (bool dict : {false, true}) {
    std::string bytes;
    SaveNDArrays(arrays, dict ? keys : std::vector<std::string>{}, &bytes);
    std::vector<NDArray> got;
    std::vector<std::string> got_keys;
    Load(bytes, &got, &got_keys);
    ASSERT_EQ(got.size(), arrays.size());
    EXPECT_EQ(got_keys, dict ? keys : std::vector<std::string>{});
    for (size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE(keys[i]);
      EXPECT_EQ(got[i].dtype(), arrays[i].dtype());
      EXPECT_EQ(got[i].shape(), arrays[i].shape());
      EXPECT_EQ(got[i].ctx(), arrays[i].ctx());
      EXPECT_TRUE(HostBytes(got[i]) == HostBytes(arrays[i]));
    }
    std::string again;
    SaveNDArrays(got, dict ? keys : std::vector<std::string>{}, &again);
    EXPECT_TRUE(again == bytes);
  }
}

TEST(NDArrayIOTest, FileHelpers) {
  fs::path p = fs::temp_directory_path() / ("weft_ndarray_io_" + std::to_string(::getpid()));
  NDArray a(Shape{2, 3}, Context::CPU(0), DType::kFloat32);
  a.SyncCopyFromHost(kSix.data(), 24);
  SaveNDArraysToFile(p.string(), {a}, {"w"});
  std::vector<NDArray> got;
  std::vector<std::string> keys;
  LoadNDArraysFromFile(p.string(), &got, &keys);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(keys, std::vector<std::string>{"w"});
  EXPECT_TRUE(HostBytes(got[0]) == HostBytes(a));
  fs::remove(p);
  try {
    LoadNDArraysFromFile(p.string(), &got, &keys);
    ADD_FAILURE() << "missing file loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kIO);
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
  }
}

TEST(NDArrayIOTest, SaveRejectsKeyMismatch) {
  std::string out = "untouched";
  NDArray a(Shape{1}, Context::CPU(0), DType::kInt8);
  try {
    SaveNDArrays({a}, {"x", "y"}, &out);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument);
  }
  EXPECT_EQ(out, "untouched");
}

TEST(NDArrayIOTest, LegacyV1AndV0Records) {
  const float f[4] = {1, 2, 3, 4};
  const int32_t i[3] = {7, -8, 9};
  Bytes b;
  b.header(4);
  // V1: magic, i32 ndim + i64 dims, ctx, dtype, data (no storage type).
  b.put<uint32_t>(0xF993FAC8).put<int32_t>(2).put<int64_t>(2).put<int64_t>(2);
  b.put<int32_t>(1).put<int32_t>(0).put<int32_t>(0).raw(f, 16);
  // V0: u32 ndim, u32 dims, ctx, dtype, data.
  b.put<uint32_t>(1).put<uint32_t>(3).put<int32_t>(1).put<int32_t>(0).put<int32_t>(4).raw(i, 12);
  b.put<uint32_t>(0);  // V0 none
  b.put<uint32_t>(0xF993FAC8).put<int32_t>(0);  // V1 none
  b.put<uint64_t>(0);
  std::vector<NDArray> got;
  std::vector<std::string> keys;
  Load(b.s, &got, &keys);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].shape(), Shape({2, 2}));
  EXPECT_EQ(got[0].dtype(), DType::kFloat32);
  EXPECT_TRUE(HostBytes(got[0]) == std::string(reinterpret_cast<const char*>(f), 16));
  EXPECT_EQ(got[1].shape(), Shape({3}));
  EXPECT_EQ(got[1].dtype(), DType::kInt32);
  EXPECT_TRUE(HostBytes(got[1]) == std::string(reinterpret_cast<const char*>(i), 12));
  EXPECT_TRUE(got[2].is_none());
  EXPECT_TRUE(got[3].is_none());
}

TEST(NDArrayIOTest, NoneRecordsV3ScalarsAndDevices) {
  const double x = 2.5;
  Bytes b;
  b.header(6);
  b.put<uint32_t>(0xF993FAC9).put<int32_t>(0).put<int32_t>(0);  // V2 ndim 0: none
  b.put<uint32_t>(0xF993FACA).put<int32_t>(0).put<int32_t>(-1);  // V3 ndim -1: none
  b.put<uint32_t>(0xF993FACA).put<int32_t>(0).put<int32_t>(2).put<int64_t>(3).put<int64_t>(-1);
  b.v2({}, 1, 1, 0, 0xF993FACA).raw(&x, 8);  // V3 ndim 0: a scalar
  b.v2({1}, 1, 2, 3).raw(&x, 8);              // a gpu(3) record
  b.v2({1}, 1, 1, 7).raw(&x, 8);              // a cpu(7) record: cpu(0), as in MXNet
  b.put<uint64_t>(0);
  std::vector<NDArray> got;
  std::vector<std::string> keys;
  Load(b.s, &got, &keys);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_TRUE(got[0].is_none() && got[1].is_none() && got[2].is_none());
  EXPECT_EQ(got[3].shape(), Shape());
  EXPECT_TRUE(HostBytes(got[3]) == std::string(reinterpret_cast<const char*>(&x), 8));
  EXPECT_EQ(got[4].ctx(), Context::CPU(0));
  EXPECT_EQ(got[5].ctx(), Context::CPU(0));
}

// MXNet 1.9.1's NDArray::Save writes a none array as V2, storage type -1
// (undefined), ndim 0; Weft reads that and writes the same bytes.
TEST(NDArrayIOTest, NoneArraysSaveAsMXNetWritesThem) {
  Bytes mxnet;
  mxnet.header(1);
  mxnet.put<uint32_t>(0xF993FAC9).put<int32_t>(-1).put<int32_t>(0);
  mxnet.put<uint64_t>(0);
  std::vector<NDArray> got;
  std::vector<std::string> keys;
  Load(mxnet.s, &got, &keys);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].is_none());
  std::string saved;
  SaveNDArrays(got, keys, &saved);
  EXPECT_TRUE(saved == mxnet.s);
  Bytes bad;
  bad.header(1);
  bad.put<uint32_t>(0xF993FAC9).put<int32_t>(-1).put<int32_t>(1).put<int64_t>(2);
  bad.put<int32_t>(1).put<int32_t>(0).put<int32_t>(0).put<float>(1.f).put<float>(2.f).put<uint64_t>(0);
  ExpectIOError(bad.s, {"record 0", "storage type -1", "only a none array"});
}

// Note [V3 records in NumPy-shape mode]: with np_shape every record is V3 (the
// V2 layout with the V3 magic), a none array is refused as MXNet refuses it,
// and without it the bytes are what they were (V2).
TEST(NDArrayIOTest, NumpyShapeModeWritesV3Records) {
  NDArray a(Shape{2, 3}, Context::CPU(0), DType::kFloat32);
  const std::vector<float> v = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f};
  a.SyncCopyFromHost(v.data(), v.size() * sizeof(float));
  Bytes want;
  want.header(1);
  want.put<uint32_t>(0xF993FACA).put<int32_t>(0).put<int32_t>(2).put<int64_t>(2).put<int64_t>(3);
  want.put<int32_t>(1).put<int32_t>(0).put<int32_t>(0);
  for (float f : v) want.put<float>(f);
  want.put<uint64_t>(0);
  std::string np_bytes, legacy_bytes;
  SaveNDArrays({a}, {}, &np_bytes, /*np_shape=*/true);
  EXPECT_TRUE(np_bytes == want.s);
  SaveNDArrays({a}, {}, &legacy_bytes);
  std::string v2 = want.s;
  const uint32_t v2_magic = 0xF993FAC9;
  std::memcpy(&v2[24], &v2_magic, 4);  // the record's magic follows the 24-byte list header
  EXPECT_TRUE(legacy_bytes == v2);
  std::vector<NDArray> got;
  std::vector<std::string> keys;
  Load(np_bytes, &got, &keys);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].shape(), (Shape{2, 3}));
  EXPECT_TRUE(HostBytes(got[0]) == HostBytes(a));
  std::string out;
  try {
    SaveNDArrays({a, NDArray()}, {}, &out, /*np_shape=*/true);
    ADD_FAILURE() << "a none array saved in NumPy-shape mode";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kInvalidArgument) << e.what();
    EXPECT_NE(std::string(e.what()).find("array 1 is none"), std::string::npos) << e.what();
  }
}

TEST(NDArrayIOTest, MalformedInputsAreIOErrors) {
  const float f[6] = {};
  auto one = [&](Bytes rec) {
    Bytes b;
    b.header(1).raw(rec.s.data(), rec.s.size()).put<uint64_t>(0);
    return b.s;
  };
  ExpectIOError(Bytes().put<uint64_t>(0x113).put<uint64_t>(0).put<uint64_t>(0).put<uint64_t>(0).s,
                {"bad.params", "list magic"});
  ExpectIOError("", {"bad.params", "truncated"});
  {
    Bytes rec;
    rec.put<uint32_t>(0xF993FAC9).put<int32_t>(1);
    ExpectIOError(one(rec), {"bad.params", "record 0", "row_sparse arrays are not supported"});
    Bytes csr;
    csr.put<uint32_t>(0xF993FAC9).put<int32_t>(2);
    ExpectIOError(one(csr), {"record 0", "csr"});
    Bytes v3sparse;
    v3sparse.put<uint32_t>(0xF993FACA).put<int32_t>(1);
    ExpectIOError(one(v3sparse), {"record 0", "row_sparse"});
  }
  ExpectIOError(one(Bytes().v2({2, 3}, 8).raw(f, 12)), {"record 0", "dtype flag 8"});
  ExpectIOError(one(Bytes().v2({2, 3}, 13).raw(f, 24)), {"record 0", "dtype flag 13"});
  ExpectIOError(one(Bytes().v2({2, -3}, 0)), {"record 0", "negative"});
  ExpectIOError(one(Bytes().v2({2, 3}, 0, 9)), {"record 0", "device type"});
  ExpectIOError(one(Bytes().v2({2, 3}, 0).raw(f, 12)), {"record 0", "bytes remain"});
  ExpectIOError(one(Bytes().put<uint32_t>(0xF993FAC9).put<int32_t>(0).put<int32_t>(33)),
                {"record 0", "ndim 33"});
  ExpectIOError(one(Bytes().put<uint32_t>(0xF993FAC9).put<int32_t>(0).put<int32_t>(-2)),
                {"record 0", "ndim -2"});
  ExpectIOError(one(Bytes().put<uint32_t>(0xDEADBEEF)), {"record 0", "magic"});
  {  // K not in {0, N}
    Bytes b;
    b.header(1).v2({1}, 3).put<uint8_t>(5).put<uint64_t>(2);
    ExpectIOError(b.s, {"bad.params", "name count 2"});
  }
  {  // a name longer than the file
    Bytes b;
    b.header(1).v2({1}, 3).put<uint8_t>(5).put<uint64_t>(1).put<uint64_t>(1ull << 62);
    ExpectIOError(b.s, {"name 0", "name length"});
  }
  {  // N far beyond the file
    Bytes b;
    b.header(1ull << 60);
    ExpectIOError(b.s, {"array count"});
  }
  // Record index in messages.
  Bytes b;
  b.header(2).v2({1}, 3).put<uint8_t>(5).v2({4}, 0);
  ExpectIOError(b.s, {"record 1", "truncated"});
}

TEST(NDArrayIOTest, HugeDimsDoNotAllocate) {
  auto start = std::chrono::steady_clock::now();
  Bytes a;
  a.header(1).v2({1ll << 40}, 0).put<uint64_t>(0);
  ExpectIOError(a.s, {"record 0", "bytes"});
  Bytes b;  // product overflows int64
  b.header(1).v2({1ll << 40, 1ll << 40}, 6).put<uint64_t>(0);
  ExpectIOError(b.s, {"record 0"});
  Bytes c;  // every dim small, product large
  c.header(1).v2({1 << 20, 1 << 20, 1 << 20}, 1).put<uint64_t>(0);
  ExpectIOError(c.s, {"record 0"});
  Bytes d;  // V0 with u32 dims
  d.header(1).put<uint32_t>(2).put<uint32_t>(0xFFFFFFFF).put<uint32_t>(0xFFFFFFFF);
  d.put<int32_t>(1).put<int32_t>(0).put<int32_t>(0).put<uint64_t>(0);
  ExpectIOError(d.s, {"record 0"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// Loads `bytes`; returns true when it loaded, false on weft::Error. Anything
// else (another exception, a crash) fails the test.
bool LoadsOrThrowsIO(const std::string& bytes) {
  std::vector<NDArray> arrays;
  std::vector<std::string> keys;
  try {
    Load(bytes, &arrays, &keys);
    return true;
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::kIO) << e.what();
    return false;
  }
}

TEST(NDArrayIOTest, FuzzTruncationsAndByteFlips) {
  auto files = ParamsFixtures();
  ASSERT_FALSE(files.empty());
  std::mt19937_64 rng(12345);
  for (const auto& p : files) {
    SCOPED_TRACE(p.string());
    std::string bytes = ReadBytes(p);
    for (size_t len = 0; len < bytes.size(); ++len)
      EXPECT_FALSE(LoadsOrThrowsIO(bytes.substr(0, len))) << "truncated to " << len;
    const int kFlips = bytes.size() > 100000 ? 300 : 3000;
    for (int i = 0; i < kFlips; ++i) {
      std::string bad = bytes;
      int nflips = 1 + static_cast<int>(rng() % 4);
      for (int j = 0; j < nflips; ++j) {
        size_t at = rng() % bad.size();
        if (rng() % 2) bad[at] = static_cast<char>(rng());
        else bad[at] ^= static_cast<char>(1u << (rng() % 8));
      }
      LoadsOrThrowsIO(bad);
    }
  }
}

}  // namespace
}  // namespace weft
