// libFuzzer target: the JSON reader (format detection included) and, on success, every
// structural operation on the resulting tree.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "format/profile_reader.h"
#include "fuzz_tree_ops.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proton;
  auto r = format::ParseProfile(std::string_view(reinterpret_cast<const char*>(data), size), "F");
  if (!r.ok()) {
    fuzz::Check(!r.status().message().empty());
    return 0;
  }
  if (!tree::PrepareProfile(*r, "F").ok()) return 0;
  fuzz::ExerciseTree(std::move(*r), data, size);
  return 0;
}
