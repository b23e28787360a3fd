// See run_listing.h. One readdir per poll: the names alone say what each file is.
#include "viewer/live/run_listing.h"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string_view>

#include "viewer/common/quoted.h"
#include "viewer/common/run_names.h"

namespace proton::viewer {
namespace {

bool HasWildcard(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

// A '[' must be closed by a ']' after at least one character ("[]]" is one class).
bool BracketsClosed(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '[') continue;
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '!' || s[j] == '^')) ++j;
    if (j < s.size() && s[j] == ']') ++j;
    j = s.find(']', j);
    if (j == std::string_view::npos) return false;
    i = j;
  }
  return true;
}

// Whether `name` ends like a profile file: the user gave a file, not the run's name.
bool LooksLikeProfileFile(std::string_view name) {
  if (ParsePartFileName(name)) return true;
  const size_t dot = name.rfind('.');
  return dot != std::string_view::npos && IsProfileFormat(name.substr(dot + 1));
}

Error UsageError(const std::string& run, const std::string& why) {
  return Status::UsageError("argument --follow: " + why + ": " + Quoted(run));
}

bool Matches(const RunSpec& spec, const std::string& name) {
  return ::fnmatch(spec.pattern.c_str(), name.c_str(), 0) == 0;
}

std::string Joined(const RunSpec& spec, std::string_view name) {
  return spec.folder == "." && spec.text.find('/') == std::string::npos
             ? std::string(name)
             : spec.folder + "/" + std::string(name);
}

// Files the profiler writes for a name that `spec` matches: a part, a plain profile or the
// end marker.
void Classify(const RunSpec& spec, const std::string& name, RunListing& out) {
  if (std::optional<PartFileName> part = ParsePartFileName(name)) {
    if (IsTreeFormat(part->format) && Matches(spec, part->prefix)) {
      out.parts.push_back({Joined(spec, name), Joined(spec, part->prefix), part->phase});
    }
    return;
  }
  if (name.size() > kEndMarkerSuffix.size() && name.ends_with(kEndMarkerSuffix)) {
    const std::string prefix = name.substr(0, name.size() - kEndMarkerSuffix.size());
    if (Matches(spec, prefix)) out.ended.insert(Joined(spec, prefix));
    return;
  }
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0 || !IsTreeFormat(name.substr(dot + 1))) return;
  const std::string prefix = name.substr(0, dot);
  if (Matches(spec, prefix)) out.plain.push_back({Joined(spec, name), Joined(spec, prefix), 0});
}

}  // namespace

Result<RunSpec> ParseRunSpec(const std::string& run) {
  RunSpec spec;
  spec.text = run;
  const size_t slash = run.rfind('/');
  spec.pattern = slash == std::string::npos ? run : run.substr(slash + 1);
  spec.folder = slash == std::string::npos ? "." : slash == 0 ? "/" : run.substr(0, slash);
  if (spec.pattern.empty()) return UsageError(run, "RUN must name a profile, not a folder");
  if (HasWildcard(spec.folder)) return UsageError(run, "the folder must not hold wildcards");
  if (!BracketsClosed(spec.pattern)) return UsageError(run, "unclosed '[' in the pattern");
  if (LooksLikeProfileFile(spec.pattern)) {
    return UsageError(run,
                      "RUN is the profile's name (NAME of NAME.part_<phase>.<format>), "
                      "not a file");
  }
  return spec;
}

Result<RunListing> ListRun(const RunSpec& spec) {
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(spec.folder.c_str()), ::closedir);
  if (!dir) {
    return Status::Error("cannot follow " + Quoted(spec.text) + ": folder " + Quoted(spec.folder) +
                         ": " + std::strerror(errno));
  }
  RunListing out;
  errno = 0;
  while (const dirent* entry = ::readdir(dir.get())) {
    const std::string name = entry->d_name;
    if (!name.empty() && name[0] != '.') Classify(spec, name, out);
  }
  if (errno != 0) {
    return Status::Error("cannot follow " + Quoted(spec.text) + ": " + std::strerror(errno));
  }
  return out;
}

}  // namespace proton::viewer
