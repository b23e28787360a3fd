// libFuzzer target for C++ names (viewer.md §11.9, §11.7): the bounded demangler
// (DemangleBounded), --demangle=full|short (DisplayName, ShortCxxName) and the normalizer of
// --match=normalized (NormalizeName), then both renamings over a small tree.
//
// Input layout: the whole input is one name (a "_Z" name reaches the demangler, any other
// text only the pass-through paths), and each line of it is also a frame name of the tree.
// ShortCxxName also gets the raw input, as if it were demangled text.
// Invariants checked: every result is within the limits of itanium_demangle.h, a name
// that is not demangled comes back unchanged, the renamings keep the tree's size, and
// nothing crashes, leaks, hangs or hits undefined behaviour.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tree/profile_tree.h"
#include "viewer/common/options.h"
#include "viewer/names/demangle.h"
#include "viewer/names/itanium_demangle.h"
#include "viewer/names/name_normalize.h"

namespace {

using proton::viewer::DemangleMode;
using proton::viewer::DemangleStatus;

void Check(bool condition) {
  if (!condition) std::abort();
}

void CheckOneName(std::string_view name) {
  const proton::viewer::DemangleResult result = proton::viewer::DemangleBounded(name);
  const bool mangled = name.substr(0, 2) == "_Z" && name.find('\0') == std::string_view::npos;
  Check(mangled || result.status == DemangleStatus::kNotMangled);
  Check(name.size() <= proton::viewer::kMaxMangledBytes || !mangled ||
        result.status == DemangleStatus::kTooLong);
  Check(result.text.size() <= proton::viewer::kMaxDemangledBytes);
  Check(result.status == DemangleStatus::kDemangled || result.text.empty());

  const std::string full = proton::viewer::DisplayName(name, DemangleMode::kFull);
  Check(full == (result.status == DemangleStatus::kDemangled ? result.text : std::string(name)));
  const std::string short_name = proton::viewer::DisplayName(name, DemangleMode::kShort);
  Check(short_name.size() <= full.size());
  const std::string normalized = proton::viewer::NormalizeName(name);
  Check(normalized.size() <= full.size());
  Check(proton::viewer::ShortCxxName(name).size() <= name.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 32768) return 0;  // twice the input limit: past it only the length is checked
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  CheckOneName(input);

  proton::tree::ProfileTree tree;
  const proton::tree::NodeId root = tree.AddNode(proton::tree::kNoNode, "ROOT");
  tree.SetInt(root, "count", 0);
  std::string_view rest = input;
  for (int line = 0; !rest.empty() && line < 64; ++line) {
    const size_t end = rest.find('\n');
    const std::string_view name = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (name.empty()) continue;
    if (line > 0) CheckOneName(name);
    tree.SetInt(tree.AddNode(root, name), "count", line);
  }
  if (!proton::tree::PrepareProfile(tree, "fuzz").ok()) return 0;
  const size_t nodes = tree.size();
  proton::tree::ProfileTree normalized = tree;
  proton::viewer::ApplyDemangle(tree, size % 2 == 0 ? DemangleMode::kFull : DemangleMode::kShort);
  Check(tree.size() == nodes);
  proton::viewer::NormalizeNames(normalized);
  Check(normalized.size() == nodes);
  return 0;
}
