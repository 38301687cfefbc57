#include "core/io/record_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/base/error.h"

namespace weft {
namespace io {
namespace {
constexpr uint32_t kMagic = 0xCED7230A;
constexpr uint32_t kLengthMask = (1u << 29) - 1;

// Reads exactly n bytes at offset; false when the file ends first.
bool ReadAt(int fd, uint64_t offset, void* buf, size_t n) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    const ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}
}  // namespace

RecordFile::RecordFile(const std::string& path) : path_(path) {
  fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  WEFT_CHECK(fd_ >= 0, kIO) << (errno == ENOENT ? "RecordIO file not found: " : "cannot open RecordIO file: ")
                            << path << (errno == ENOENT ? "" : std::string(" (") + std::strerror(errno) + ")");
  struct stat st;
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd_);
    fd_ = -1;
    WEFT_THROW(kIO) << "cannot open RecordIO file: " << path << " (not a regular file)";
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

RecordFile::~RecordFile() {
  if (fd_ >= 0) close(fd_);
}

std::string RecordFile::Damaged(const std::string& what, int64_t record, uint64_t offset) const {
  std::ostringstream os;
  os << path_ << ": damaged RecordIO file: " << what << " (record " << record << ", byte offset " << offset << ")";
  return os.str();
}

std::vector<uint64_t> RecordFile::ScanOffsets() const {
  std::vector<uint64_t> offsets;
  uint64_t pos = 0;
  while (pos < size_) {
    const uint64_t start = pos;
    const auto record = static_cast<int64_t>(offsets.size());
    for (bool first = true;; first = false) {
      uint32_t head[2];
      if (!ReadAt(fd_, pos, head, 8)) throw Error(Status::kIO, Damaged("truncated record header", record, pos));
      if (head[0] != kMagic) throw Error(Status::kIO, Damaged("bad magic number", record, pos));
      const uint32_t cflag = head[1] >> 29, length = head[1] & kLengthMask;
      if (cflag > 3 || (cflag == 0 || cflag == 1) != first)
        throw Error(Status::kIO, Damaged("continue flag " + std::to_string(cflag) + " out of order", record, pos));
      pos += 8 + length + ((4 - length % 4) % 4);
      if (pos > size_) throw Error(Status::kIO, Damaged("truncated record", record, start));
      if (cflag == 0 || cflag == 3) break;
    }
    offsets.push_back(start);
  }
  return offsets;
}

std::vector<uint64_t> RecordFile::ReadIndex(const std::string& idx_path) const {
  std::ifstream in(idx_path);
  WEFT_CHECK(in.good(), kIO) << "RecordIO index file not found: " << idx_path << " (the index of " << path_ << ")";
  std::vector<uint64_t> offsets;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream ls(line);
    std::string key;
    long long offset = -1;
    ls >> key >> offset;
    WEFT_CHECK(!ls.fail() && offset >= 0, kIO)
        << idx_path << " line " << lineno << ": expected 'key<TAB>offset', got '" << line << "'";
    WEFT_CHECK(static_cast<uint64_t>(offset) < size_, kIO)
        << idx_path << " line " << lineno << ": offset " << offset << " is past the end of " << path_ << " ("
        << size_ << " bytes)";
    offsets.push_back(static_cast<uint64_t>(offset));
  }
  return offsets;
}

void RecordFile::Read(uint64_t offset, int64_t record, std::string* out) const {
  out->clear();
  for (bool first = true;; first = false) {
    uint32_t head[2];
    if (!ReadAt(fd_, offset, head, 8)) throw Error(Status::kIO, Damaged("truncated record header", record, offset));
    if (head[0] != kMagic) throw Error(Status::kIO, Damaged("bad magic number", record, offset));
    const uint32_t cflag = head[1] >> 29, length = head[1] & kLengthMask;
    if (cflag > 3 || (cflag == 0 || cflag == 1) != first)
      throw Error(Status::kIO, Damaged("continue flag " + std::to_string(cflag) + " out of order", record, offset));
    if (!first) out->append(reinterpret_cast<const char*>(&kMagic), 4);  // the writer split the payload there
    const size_t at = out->size();
    out->resize(at + length);
    if (!ReadAt(fd_, offset + 8, &(*out)[at], length))
      throw Error(Status::kIO, Damaged("truncated record", record, offset));
    offset += 8 + length + ((4 - length % 4) % 4);
    if (cflag == 0 || cflag == 3) return;
  }
}

}  // namespace io
}  // namespace weft
