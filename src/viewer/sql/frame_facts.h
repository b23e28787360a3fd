// What the database says about a frame besides the metrics (formats.md §8): its kind, its
// demangled name and its kernel family.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "viewer/common/tree_names.h"

namespace proton::viewer {

// The kind column of frames (named apart from the --html page's FrameKind, which has no graph).
enum class FrameClass : uint8_t { kRoot, kScope, kPython, kGraph, kKernel };

// "root", "scope", "python", "graph", "kernel".
std::string_view FrameClassName(FrameClass kind);

// The kind of a union frame from its name and position; `kernel` says whether some file
// gave it a kernel's device metrics. A frame that is a kernel in any file is a kernel.
FrameClass KindOfFrame(bool root, std::string_view name, bool kernel);

// Whether node n of `tree` carries a kernel's own device metrics (device_id, device_type).
class KernelMarks {
 public:
  explicit KernelMarks(const ProfileTree& tree);
  bool IsKernel(NodeId n) const;

 private:
  const ProfileTree& tree_;
  int device_id_;
  int device_type_;
};

// The names table (formats.md §8): the demangled text and the family of frame names, each
// distinct name computed once. Only names that have either are kept.
class FrameNameForms {
 public:
  // Notes a frame's name. A kernel's family is its short C++ name (--demangle=short), or for
  // other kernels the name with Triton's numeric, signature and hash suffixes removed
  // (--match=normalized's rule); a name that is no kernel's has no family.
  void Note(std::string_view name, bool kernel);

  struct Forms {
    std::optional<std::string> demangled;  // --demangle=full's text of a C++ name
    std::string family;
    bool kernel = false;  // some frame of this name is a kernel
  };
  // Every noted name with a demangled text or a family, in no particular order.
  const std::unordered_map<std::string, Forms>& names() const { return names_; }

 private:
  std::unordered_map<std::string, Forms> names_;  // C++ names, and every kernel's name
};

}  // namespace proton::viewer
