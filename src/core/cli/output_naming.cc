// See output_naming.h.
#include "core/cli/output_naming.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "core/cli/cli_config.h"
#include "protocol/cli_protocol.h"

namespace proton::cli {

namespace cp = proton::cli_protocol;

namespace {

// Splits "<base>.part_<N>" into base and ".part_<N>"; no part: part is empty.
std::pair<std::string_view, std::string_view> SplitPart(std::string_view name) {
  size_t dot = name.rfind(".part_");
  if (dot == std::string_view::npos || dot + 6 >= name.size()) return {name, {}};
  for (size_t i = dot + 6; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return {name, {}};
  }
  return {name.substr(0, dot), name.substr(dot)};
}

std::string ReadSmallFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buffer[64];
  ssize_t n = read(fd, buffer, sizeof(buffer));
  close(fd);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

}  // namespace

NameChoice ComposeOutputPath(std::string_view name, std::string_view suffix, bool root,
                             std::optional<long> rank, bool rank_claimed, long pid) {
  auto [base, part] = SplitPart(name);
  std::string tag;
  std::string_view kind = cp::kFileKindRoot;
  if (rank) {
    tag = ".rank" + std::to_string(*rank);
    if (!rank_claimed) tag += ".pid" + std::to_string(pid);
    kind = cp::kFileKindRank;
  } else if (!root) {
    tag = ".pid" + std::to_string(pid);
    kind = cp::kFileKindPid;
  }
  std::string path(base);
  path.append(tag).append(part).append(".").append(suffix);
  return NameChoice{std::move(path), kind};
}

bool ClaimRankName(const std::string& run_dir, long rank, long pid) {
  if (run_dir.empty()) return true;
  const std::string path =
      run_dir + "/" + std::string(cp::kClaimPrefix) + "rank" + std::to_string(rank);
  const std::string me = std::to_string(pid);
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ssize_t written = write(fd, me.data(), me.size());
    close(fd);
    return written == static_cast<ssize_t>(me.size());
  }
  if (errno != EEXIST) return true;  // no usable run directory: behave as the only claimant
  // A claim being written right now may still be empty; the owner is then another process.
  return ReadSmallFile(path) == me;
}

void RecordOutputFile(const std::string& run_dir, std::string_view kind, long pid,
                      const std::string& path) {
  if (run_dir.empty()) return;
  const std::string line = std::string(kind) + "\t" + std::to_string(pid) + "\t" + path + "\n";
  const std::string record = run_dir + "/" + std::string(cp::kFilesRecord);
  int fd = open(record.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  ssize_t ignored = write(fd, line.data(), line.size());
  (void)ignored;
  close(fd);
}

std::string CliOutputPath(std::string_view name, std::string_view suffix, bool /*default_name*/) {
  const CliConfig& config = GetCliConfig();
  const bool root = IsRootProcess();
  const long pid = static_cast<long>(getpid());
  // Read when the file is written, not at start-up (§2.9).
  std::optional<long> rank = NamingRank(ReadProcessRankInfo(), root);
  const bool claimed = rank ? ClaimRankName(config.run_dir, *rank, pid) : false;
  NameChoice choice = ComposeOutputPath(name, suffix, root, rank, claimed, pid);
  RecordOutputFile(config.run_dir, choice.kind, pid, choice.path);
  return choice.path;
}

}  // namespace proton::cli
