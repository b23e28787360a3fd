// libFuzzer target: the JSON reader (format detection included) and, on success, every
// structural operation on the resulting tree. Each input is also read by the streaming JSON
// reader alone (json_stream_reader.h) and must give the same tree or the same error as the
// default readers (fast path, then simdjson).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "format/json_reader.h"
#include "format/profile_reader.h"
#include "format/tree_dump_for_test.h"
#include "fuzz_tree_ops.h"

namespace {

// The streaming reader's result against the default one's (`r`, before it is prepared).
void CompareWithStreaming(std::string_view input,
                          const proton::Result<proton::tree::ProfileTree>& r) {
  using namespace proton;
  format::SetJsonReadersForTest(0, false);
  auto streamed = format::ParseProfile(input, "F");
  format::ResetJsonReadersForTest();
  fuzz::Check(streamed.ok() == r.ok());
  if (!r.ok()) {
    fuzz::Check(streamed.status().message() == r.status().message());
    return;
  }
  tree::ProfileTree copy = *r;
  fuzz::Check(format::Dump(*streamed) == format::Dump(copy));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proton;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto r = format::ParseProfile(input, "F");
  CompareWithStreaming(input, r);
  if (!r.ok()) {
    fuzz::Check(!r.status().message().empty());
    return 0;
  }
  if (!tree::PrepareProfile(*r, "F").ok()) return 0;
  fuzz::ExerciseTree(std::move(*r), data, size);
  return 0;
}
