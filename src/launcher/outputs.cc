// See outputs.h.
#include "launcher/outputs.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "protocol/cli_protocol.h"

namespace proton::launcher {

namespace {

// "<base>.pid<P>.<rest>" -> "<base>.<rest>" for the rename rule.
std::string WithoutPid(const std::string& path, const std::string& base, long pid) {
  const std::string marker = base + ".pid" + std::to_string(pid) + ".";
  if (path.compare(0, marker.size(), marker) != 0) return path;
  return base + "." + path.substr(marker.size());
}

// A root file named exactly <base>.<suffix> (no rank, pid or part in the name).
bool IsPlainBaseFile(const std::string& path, const std::string& base) {
  if (path.compare(0, base.size() + 1, base + ".") != 0) return false;
  return path.find('.', base.size() + 1) == std::string::npos;
}

// Names in the order a person reads them: runs of digits compare by value, so part_2 comes
// before part_10 and pid99 before pid100.
bool NaturalLess(const std::string& a, const std::string& b) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (!is_digit(a[i]) || !is_digit(b[j])) {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
      continue;
    }
    size_t a_end = i, b_end = j;
    while (a_end < a.size() && is_digit(a[a_end])) ++a_end;
    while (b_end < b.size() && is_digit(b[b_end])) ++b_end;
    size_t a_first = i, b_first = j;  // the value without leading zeros
    while (a_first + 1 < a_end && a[a_first] == '0') ++a_first;
    while (b_first + 1 < b_end && b[b_first] == '0') ++b_first;
    const std::string_view a_digits(a.data() + a_first, a_end - a_first);
    const std::string_view b_digits(b.data() + b_first, b_end - b_first);
    if (a_digits.size() != b_digits.size()) return a_digits.size() < b_digits.size();
    if (a_digits != b_digits) return a_digits < b_digits;
    i = a_end;
    j = b_end;
  }
  if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
  return a < b;  // equal up to leading zeros: any fixed order
}

// The folder every path lies in, with its trailing '/': "out/" for out/x.hatchet and
// out/x.rank1.hatchet; "" when they share none or are bare names in the current folder.
std::string CommonFolder(const std::vector<std::string>& paths) {
  std::string folder = paths.front().substr(0, paths.front().rfind('/') + 1);
  for (const std::string& path : paths) {
    while (!folder.empty() && path.compare(0, folder.size(), folder) != 0) {
      const size_t up =
          folder.size() < 2 ? std::string::npos : folder.rfind('/', folder.size() - 2);
      folder.erase(up == std::string::npos ? 0 : up + 1);
    }
  }
  return folder;
}

// More than kWroteLineListed files: the count, the folder and the first and last file, named
// inside the folder, so the line stays short and still says where to look.
std::string WroteSummary(const std::vector<std::string>& paths) {
  const std::string folder = CommonFolder(paths);
  const bool bare_names = std::none_of(paths.begin(), paths.end(), [](const std::string& path) {
    return path.find('/') != std::string::npos;
  });
  std::string line = "proton: wrote " + std::to_string(paths.size()) + " files";
  if (!folder.empty() || bare_names) line += " in " + (folder.empty() ? "./" : folder);
  line += " (" + paths.front().substr(folder.size()) + ", ..., " +
          paths.back().substr(folder.size()) + ")\n";
  return line;
}

}  // namespace

OutputPlan PlanOutputs(const std::vector<FileRecord>& records, const std::string& base,
                       const std::function<bool(const std::string&)>& exists) {
  OutputPlan plan;
  std::vector<FileRecord> written;
  std::set<std::string> seen;
  for (const FileRecord& record : records) {
    if (!seen.insert(record.path).second || !exists(record.path)) continue;
    written.push_back(record);
  }
  const bool root_wrote = std::any_of(written.begin(), written.end(), [](const FileRecord& r) {
    return r.kind == cli_protocol::kFileKindRoot;
  });
  std::set<long> rankless_pids;
  for (const FileRecord& r : written) {
    if (r.kind == cli_protocol::kFileKindPid) rankless_pids.insert(r.pid);
  }
  if (!root_wrote && rankless_pids.size() == 1) {
    const long pid = *rankless_pids.begin();
    for (FileRecord& r : written) {
      if (r.kind != cli_protocol::kFileKindPid) continue;
      std::string target = WithoutPid(r.path, base, pid);
      if (target == r.path) continue;
      plan.renames.emplace_back(r.path, target);
      r.path = target;
      r.kind = std::string(cli_protocol::kFileKindRoot);
    }
  }
  // Root files first, then the others by name, numbers by value.
  std::stable_sort(written.begin(), written.end(), [](const FileRecord& a, const FileRecord& b) {
    const bool a_root = a.kind == cli_protocol::kFileKindRoot;
    const bool b_root = b.kind == cli_protocol::kFileKindRoot;
    if (a_root != b_root) return a_root;
    return NaturalLess(a.path, b.path);
  });
  for (const FileRecord& r : written) {
    plan.files.push_back(r.path);
    if (r.kind != cli_protocol::kFileKindRoot || !IsPlainBaseFile(r.path, base)) {
      plan.only_base_file = false;
    }
  }
  return plan;
}

std::string DisplayPath(const std::string& path, const std::string& absolute_base,
                        const std::string& typed_base) {
  if (!typed_base.empty() && path.compare(0, absolute_base.size(), absolute_base) == 0) {
    return typed_base + path.substr(absolute_base.size());
  }
  return path;
}

std::string WroteLine(const std::vector<std::string>& display_paths) {
  if (display_paths.size() > kWroteLineListed) return WroteSummary(display_paths);
  std::string line = "proton: wrote ";
  for (size_t i = 0; i < display_paths.size(); ++i) {
    if (i > 0) line += ", ";
    line += display_paths[i];
  }
  line += "\n";
  return line;
}

}  // namespace proton::launcher
