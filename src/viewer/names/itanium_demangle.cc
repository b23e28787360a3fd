// See itanium_demangle.h. Three steps per name, each bounded:
// 1. cplus_demangle_v3_components parses the name into a tree of components in one malloc'd
//    block (2 components per byte of the name at most, so the length limit bounds it).
// 2. MeasureWrittenOut bounds the tree's written-out size, which is what the printer's
//    walks that print nothing (d_find_pack, under every pack expansion) visit, and finds
//    the names whose identifiers alone pass the output limit (no need to print those).
// 3. cplus_demangle_print_callback prints it through a callback, 255 bytes at a time, into a
//    buffer of kMaxDemangledBytes. When a chunk would not fit, the callback leaves the printer
//    with longjmp. That is safe here: the printer is C, holds no heap memory and no lock (its
//    state, the scope and template arrays included, is on its own stack frames, see
//    cplus_demangle_print_callback in cp-demangle.c), only marks the components it is printing
//    (d_printing), and the tree is freed right after and never printed again; between setjmp
//    and longjmp there is no C++ object with a destructor.
#include "viewer/names/itanium_demangle.h"

#include <libiberty/demangle.h>

#include <csetjmp>
#include <cstdlib>
#include <memory>

#include "viewer/names/component_expansion.h"

namespace proton::viewer {
namespace {

// The options of libstdc++'s __cxa_demangle (parameters, and type encodings, which never
// apply here since only "_Z" names come in), so the text is the same.
constexpr int kOptions = DMGL_PARAMS | DMGL_TYPES;

struct FreeBlock {
  void operator()(void* block) const { std::free(block); }
};

struct BoundedSink {
  std::string* text;  // reserved to kMaxDemangledBytes: appending never allocates
  std::jmp_buf full;
};

void AppendWithin(const char* chunk, size_t length, void* opaque) {
  auto* sink = static_cast<BoundedSink*>(opaque);
  if (length > kMaxDemangledBytes - sink->text->size()) {
    std::longjmp(sink->full, 1);  // NOLINT(cert-err52-cpp): see the file comment
  }
  sink->text->append(chunk, length);
}

// False when the printer fails or the text would pass kMaxDemangledBytes (*full set).
bool PrintWithin(demangle_component* tree, BoundedSink* sink, bool* full) {
  // NOLINTNEXTLINE(cert-err52-cpp): see the file comment
  if (setjmp(sink->full) != 0) {
    *full = true;
    return false;
  }
  return cplus_demangle_print_callback(kOptions, tree, &AppendWithin, sink) != 0;
}

DemangleResult Refused(DemangleStatus status) { return DemangleResult{status, std::string()}; }

}  // namespace

DemangleResult DemangleBounded(std::string_view name) {
  if (name.substr(0, 2) != "_Z" || name.find('\0') != std::string_view::npos) {
    return Refused(DemangleStatus::kNotMangled);
  }
  if (name.size() > kMaxMangledBytes) return Refused(DemangleStatus::kTooLong);
  const std::string mangled(name);
  void* block = nullptr;
  demangle_component* tree = cplus_demangle_v3_components(mangled.c_str(), kOptions, &block);
  const std::unique_ptr<void, FreeBlock> owner(block);
  if (tree == nullptr) return Refused(DemangleStatus::kInvalid);
  // cplus_demangle_init_info sizes the block at 2 components per byte of the name.
  const WrittenOutSize size =
      MeasureWrittenOut(tree, static_cast<const demangle_component*>(block), 2 * mangled.size(),
                        WrittenOutSize{kMaxExpandedComponents, kMaxDemangledBytes});
  if (size.components > kMaxExpandedComponents) return Refused(DemangleStatus::kTooExpanded);
  // Text that certainly passes the output limit is not printed up to it first.
  if (size.text_bytes > kMaxDemangledBytes) return Refused(DemangleStatus::kOutputTooLong);
  // One buffer per thread, reserved once: the result is a copy of the exact size.
  thread_local std::string buffer;
  buffer.clear();
  buffer.reserve(kMaxDemangledBytes);
  BoundedSink sink{&buffer, {}};
  bool full = false;
  if (!PrintWithin(tree, &sink, &full)) {
    return Refused(full ? DemangleStatus::kOutputTooLong : DemangleStatus::kInvalid);
  }
  return DemangleResult{DemangleStatus::kDemangled, buffer};
}

}  // namespace proton::viewer
