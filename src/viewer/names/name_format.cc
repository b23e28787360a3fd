// See name_format.h.
#include "viewer/names/name_format.h"

namespace proton::viewer {
namespace {

std::string_view AfterLast(std::string_view s, char c) {
  const size_t at = s.rfind(c);
  return at == std::string_view::npos ? s : s.substr(at + 1);
}
std::string_view CutAtFirst(std::string_view s, char c) { return s.substr(0, s.find(c)); }

}  // namespace

std::string_view FormatName(std::string_view name, NameFormat format, std::string& scratch) {
  switch (format) {
    case NameFormat::kFull: return name;
    case NameFormat::kFileFunctionLine: return AfterLast(name, '/');
    case NameFormat::kFunctionLine: return AfterLast(name, ':');
    case NameFormat::kFileFunction: {
      if (name.find('@') == std::string_view::npos) return name;  // §10 item 3
      std::string_view file = CutAtFirst(AfterLast(name, '/'), ':');
      std::string_view function = CutAtFirst(AfterLast(name, '@'), ':');
      scratch.assign(file);
      scratch += '@';
      scratch += function;
      return scratch;
    }
  }
  return name;
}

}  // namespace proton::viewer
