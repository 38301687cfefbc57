// A RecordIO file (MXNet's .rec, dmlc-core's format) opened for random reads
// from many threads: the byte offset of every record (from the .idx index or
// by scanning the file) and Read(offset), which reassembles a record written
// in several parts (a payload that contains the magic number).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace weft {
namespace io {

class RecordFile {
 public:
  // Opens path; throws kIO "RecordIO file not found: <path>".
  explicit RecordFile(const std::string& path);
  ~RecordFile();
  RecordFile(const RecordFile&) = delete;
  RecordFile& operator=(const RecordFile&) = delete;

  const std::string& path() const { return path_; }
  // Offsets of all records in file order (walks the headers); throws kIO
  // naming the record and byte offset where the file is damaged.
  std::vector<uint64_t> ScanOffsets() const;
  // Offsets listed by an MXNet .idx file ("key\toffset" lines), in its order.
  std::vector<uint64_t> ReadIndex(const std::string& idx_path) const;
  // The bytes of the record at offset; `record` is its number, for messages.
  // Thread-safe (pread).
  void Read(uint64_t offset, int64_t record, std::string* out) const;

 private:
  std::string Damaged(const std::string& what, int64_t record, uint64_t offset) const;
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace io
}  // namespace weft
