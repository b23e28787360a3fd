// libFuzzer target for --merge (viewer.md §11.11): two to four profiles, each read by the
// format readers on the loader threads, checked against each other (context, devices), merged
// into the union tree, reduced by the statistics or the sum, filtered and printed; the whole
// command runs through ViewerMain, as proton-viewer runs it.
//
// Input layout: byte 0 picks the options (bit 0: stats or sum; bits 1-2: the -m list;
// bit 3: a threshold; bit 4: --print-sorted; bit 5: -d 2); the rest is split into files at
// each "\n#FILE#\n" (at most 4, each at most 64 KiB), every file given as a memfd path
// (/proc/self/fd/N), so nothing is written to disk.
// Invariants checked: a run either succeeds (status 0) or fails with one non-empty line of
// text, and nothing crashes, leaks, hangs or hits undefined behaviour.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "viewer/cli/viewer_command.h"

namespace {

constexpr std::string_view kSeparator = "\n#FILE#\n";
constexpr size_t kMaxFiles = 4;
constexpr size_t kMaxFileBytes = size_t{64} << 10;

// A memfd holding `bytes`, or -1.
int MemoryFile(std::string_view bytes) {
  const int fd = ::memfd_create("merge_fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += static_cast<size_t>(n);
  }
  return fd;
}

std::vector<std::string> Options(uint8_t mode) {
  static const char* const kMetrics[] = {"time/ns", "count,time/%", "avg_time/us,bytes",
                                         "time/ms,util"};
  std::vector<std::string> argv = {"-m", kMetrics[(mode >> 1) & 3]};
  argv.emplace_back((mode & 1) != 0 ? "--merge=sum" : "--merge=stats");
  if ((mode & 8) != 0) argv.insert(argv.end(), {"-t", "1"});
  if ((mode & 16) != 0) argv.emplace_back("--print-sorted");
  if ((mode & 32) != 0) argv.insert(argv.end(), {"-d", "2"});
  argv.emplace_back("--");
  return argv;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::vector<std::string> argv = Options(data[0]);
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<int> fds;
  while (fds.size() < kMaxFiles) {
    const size_t end = rest.find(kSeparator);
    const std::string_view file = rest.substr(0, end);
    if (file.size() > kMaxFileBytes) break;
    const int fd = MemoryFile(file);
    if (fd < 0) break;
    fds.push_back(fd);
    argv.push_back("/proc/self/fd/" + std::to_string(fd));
    if (end == std::string_view::npos) break;
    rest = rest.substr(end + kSeparator.size());
  }
  static const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fds.size() >= 2 && null_fd >= 0) {
    const proton::Result<int> status = proton::viewer::ViewerMain(argv, null_fd, false, null_fd);
    if (status.ok() && status.value() != 0) std::abort();
    if (!status.ok()) {
      const std::string& message = status.status().message();
      if (message.empty() || message.find('\n') != std::string::npos) std::abort();
    }
  }
  for (const int fd : fds) ::close(fd);
  return 0;
}
