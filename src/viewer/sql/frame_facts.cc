// See frame_facts.h.
#include "viewer/sql/frame_facts.h"

#include "viewer/names/demangle.h"
#include "viewer/names/name_normalize.h"
#include "viewer/outputs/html_data.h"

namespace proton::viewer {
namespace {

bool StartsWithZ(std::string_view name) { return name.size() > 2 && name.substr(0, 2) == "_Z"; }

}  // namespace

std::string_view FrameClassName(FrameClass kind) {
  switch (kind) {
    case FrameClass::kRoot: return "root";
    case FrameClass::kScope: return "scope";
    case FrameClass::kPython: return "python";
    case FrameClass::kGraph: return "graph";
    case FrameClass::kKernel: return "kernel";
  }
  return "scope";
}

FrameClass KindOfFrame(bool root, std::string_view name, bool kernel) {
  if (root) return FrameClass::kRoot;
  if (kernel) return FrameClass::kKernel;
  if (name == "<captured_at>") return FrameClass::kGraph;  // formats.md §2.6
  if (IsPythonFrameName(name)) return FrameClass::kPython;
  return FrameClass::kScope;
}

KernelMarks::KernelMarks(const ProfileTree& tree)
    : tree_(tree),
      device_id_(tree.FindColumn("device_id")),
      device_type_(tree.FindColumn("device_type")) {}

bool KernelMarks::IsKernel(NodeId n) const {
  const auto present = [&](int column) {
    return column >= 0 && tree_.columns()[static_cast<size_t>(column)].present(n);
  };
  return present(device_id_) || present(device_type_);
}

void FrameNameForms::Note(std::string_view name, bool kernel) {
  if (!kernel && !StartsWithZ(name)) return;  // nothing to say about it
  auto [it, added] = names_.try_emplace(std::string(name));
  Forms& forms = it->second;
  if (added && StartsWithZ(name)) {
    std::string demangled = DemangleItanium(name);
    if (demangled != name) forms.demangled = std::move(demangled);
  }
  if (kernel && !forms.kernel) {
    forms.kernel = true;
    forms.family = forms.demangled ? ShortCxxName(*forms.demangled) : NormalizeName(name);
  }
}

}  // namespace proton::viewer
