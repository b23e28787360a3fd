// See mapped_file.h.
#include "format/mapped_file.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

namespace proton::format {

MappedFile::~MappedFile() {
  if (base_ != nullptr) ::munmap(base_, reserved_);
}

bool MappedFile::Map(int fd, size_t size) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  reserved_ = (size + simdjson::SIMDJSON_PADDING + page - 1) / page * page + page;
  void* r = ::mmap(nullptr, reserved_, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (r == MAP_FAILED) return false;
  base_ = r;
  if (size == 0) return true;
  void* f = ::mmap(r, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
  if (f == MAP_FAILED) return false;
  size_ = size;
  return true;
}

}  // namespace proton::format
