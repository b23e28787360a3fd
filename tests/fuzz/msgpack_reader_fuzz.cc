// libFuzzer target: the MessagePack reader. Inputs are forced onto the MessagePack path by
// prefixing an array header when the first byte would not select it, so mutations are not
// wasted on format detection.
#include <cstddef>
#include <cstdint>
#include <string>

#include "format/profile_reader.h"
#include "fuzz_tree_ops.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proton;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  const unsigned char b = size ? data[0] : 0;
  if (!((b >= 0x90 && b <= 0x9f) || b == 0xdc || b == 0xdd)) bytes.insert(0, 1, '\x91');
  auto r = format::ParseProfile(bytes, "F");
  if (!r.ok()) {
    fuzz::Check(!r.status().message().empty());
    return 0;
  }
  if (!tree::PrepareProfile(*r, "F").ok()) return 0;
  fuzz::ExerciseTree(std::move(*r), data, size);
  return 0;
}
