// See run_dir.h.
#include "launcher/run_dir.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "protocol/cli_protocol.h"
#include "util/printable.h"

namespace proton::launcher {

Result<RunDirectory> CreateRunDirectory(const std::string& tmpdir) {
  std::string base = tmpdir.empty() ? "/tmp" : tmpdir;
  std::string pid = std::to_string(getpid());
  std::string pattern = base + "/proton-run." + pid + ".XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    return Status::Error("cannot create the run directory in " + PrintableText(base) + ": " +
                         std::strerror(errno));
  }
  RunDirectory dir;
  dir.path = buffer.data();
  dir.run_id = pid + "." + dir.path.substr(dir.path.size() - 6);
  return dir;
}

void RemoveRunDirectory(const std::string& path) {
  if (path.empty()) return;
  if (DIR* dir = opendir(path.c_str())) {
    while (dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name == "." || name == "..") continue;
      unlink((path + "/" + name).c_str());
    }
    closedir(dir);
  }
  rmdir(path.c_str());
}

std::vector<FileRecord> ParseFileRecords(const std::string& text) {
  std::vector<FileRecord> records;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    size_t tab1 = line.find('\t');
    if (tab1 == std::string::npos) continue;
    size_t tab2 = line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos) continue;
    FileRecord record;
    record.kind = line.substr(0, tab1);
    if (record.kind != cli_protocol::kFileKindRoot && record.kind != cli_protocol::kFileKindRank &&
        record.kind != cli_protocol::kFileKindPid) {
      continue;
    }
    char* end = nullptr;
    std::string pid_text = line.substr(tab1 + 1, tab2 - tab1 - 1);
    record.pid = std::strtol(pid_text.c_str(), &end, 10);
    if (pid_text.empty() || end == nullptr || *end != '\0') continue;
    record.path = line.substr(tab2 + 1);
    if (record.path.empty()) continue;
    records.push_back(std::move(record));
  }
  return records;
}

std::vector<FileRecord> ReadFileRecords(const std::string& dir) {
  std::ifstream in(dir + "/" + std::string(cli_protocol::kFilesRecord), std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return ParseFileRecords(text.str());
}

}  // namespace proton::launcher
