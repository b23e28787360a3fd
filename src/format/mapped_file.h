// A regular file mapped read-only for the in-memory readers, with simdjson's padding after it.
#pragma once

#include <cstddef>

namespace proton::format {

// Mapped (MAP_PRIVATE) instead of read(): no copy, no zeroed buffer, pages come straight from
// the page cache (MAP_POPULATE maps them in bulk, which is much cheaper than one fault per
// page on virtualised machines). simdjson needs padding readable after the end: the mapping is
// placed at the start of an anonymous reservation one page-rounded padding longer, so the
// bytes after the file are zeros either way.
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();
  // Maps the first `size` bytes of `fd`; false when the address space or the file system
  // refuses.
  bool Map(int fd, size_t size);
  const char* data() const { return static_cast<const char*>(base_); }
  size_t size() const { return size_; }
  size_t capacity() const { return reserved_; }

 private:
  void* base_ = nullptr;
  size_t reserved_ = 0;
  size_t size_ = 0;
};

}  // namespace proton::format
