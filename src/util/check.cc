// The failure path of PROTON_CHECK: one line on stderr, then abort (never an exception, so it
// also stops a CUPTI callback or a thread without unwinding through foreign frames).
#include "util/check.h"

#include <cstdio>
#include <cstdlib>

namespace proton::check_internal {

CheckFailure::CheckFailure(const char* file, int line, const char* condition) {
  message_.append("[proton] check failed: ")
      .append(file)
      .append(":")
      .append(std::to_string(line))
      .append(": ")
      .append(condition);
  message_.append(": ");
}

CheckFailure::~CheckFailure() {
  // An empty streamed message leaves no dangling ": ".
  if (message_.ends_with(": ")) message_.resize(message_.size() - 2);
  message_.push_back('\n');
  std::fwrite(message_.data(), 1, message_.size(), stderr);
  std::fflush(stderr);
  std::abort();
}

CheckFailure& CheckFailure::operator<<(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", pointer);
  return *this << std::string_view(text);
}

}  // namespace proton::check_internal
