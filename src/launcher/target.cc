// See target.h. The rules are applied in the order of the spec's table; the first that
// applies decides.
#include "launcher/target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <array>

#include "util/printable.h"

namespace proton::launcher {

namespace {

constexpr std::string_view kDefaultPath = "/usr/local/bin:/usr/bin:/bin";

std::string_view Basename(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// First bytes of a file (the kernel reads at most 256 for "#!" lines). nullopt if unreadable.
std::optional<std::string> ReadHead(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  std::array<char, 256> buffer{};
  ssize_t n;
  do {
    n = read(fd, buffer.data(), buffer.size());
  } while (n < 0 && errno == EINTR);
  close(fd);
  if (n < 0) return std::nullopt;
  return std::string(buffer.data(), static_cast<size_t>(n));
}

std::vector<std::string_view> SplitWords(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::vector<std::string> WithRest(std::vector<std::string> head,
                                  const std::vector<std::string>& target, size_t from) {
  head.insert(head.end(), target.begin() + static_cast<std::ptrdiff_t>(from), target.end());
  return head;
}

TargetError NotExecutable(const std::string& target) {
  return TargetError{126, "target is not executable: " + PrintableText(target)};
}

// statfs's f_type of an anonymous pipe (linux/magic.h's PIPEFS_MAGIC).
constexpr long kPipeFsMagic = 0x50495045;

// A named pipe or a socket cannot be classified (its first bytes would be consumed) nor run:
// Python's open() of a FIFO waits for a writer forever. An anonymous pipe, as `proton
// <(generate_script)` passes in /dev/fd/N, holds the script and never waits: it is a script.
std::optional<TargetError> SpecialFileError(const std::string& target, const struct stat& st) {
  const char* what = nullptr;
  if (S_ISSOCK(st.st_mode)) {
    what = "a socket";
  } else if (S_ISFIFO(st.st_mode)) {
    struct statfs fs {};
    if (statfs(target.c_str(), &fs) == 0 && static_cast<long>(fs.f_type) == kPipeFsMagic) {
      return std::nullopt;
    }
    what = "a named pipe (FIFO), which would wait for a writer";
  }
  if (what == nullptr) return std::nullopt;
  return TargetError{126, "target is " + std::string(what) +
                              ", not a script or executable: " + PrintableText(target)};
}

}  // namespace

bool ShebangIsPython(std::string_view first_line) {
  if (first_line.rfind("#!", 0) != 0) return false;
  std::string_view line = first_line.substr(2);
  size_t eol = line.find('\n');
  if (eol != std::string_view::npos) line = line.substr(0, eol);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::vector<std::string_view> words = SplitWords(line);
  if (words.empty()) return false;
  std::string_view interpreter = Basename(words[0]);
  if (interpreter == "env") {
    // "#!/usr/bin/env [-S] [-i] [VAR=value ...] python3 ..."
    interpreter = {};
    for (size_t i = 1; i < words.size(); ++i) {
      std::string_view word = words[i];
      if (word.empty() || word[0] == '-' || word.find('=') != std::string_view::npos) continue;
      interpreter = Basename(word);
      break;
    }
  }
  return interpreter.rfind("python", 0) == 0;
}

std::optional<std::string> SearchPath(std::string_view name, const EnvLookup& env,
                                      bool* found_not_executable) {
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  std::string path = env("PATH").value_or(std::string(kDefaultPath));
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    std::string candidate = end > start ? path.substr(start, end - start) : std::string(".");
    candidate.append("/").append(name);
    struct stat st {};
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
      if (found_not_executable != nullptr) *found_not_executable = true;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::string> FindPython(const EnvLookup& env) {
  if (std::optional<std::string> chosen = env("PROTON_PYTHON"); chosen && !chosen->empty()) {
    if (chosen->find('/') != std::string::npos) return chosen;
    return SearchPath(*chosen, env);
  }
  for (std::string_view name : {"python3", "python"}) {
    if (std::optional<std::string> found = SearchPath(name, env)) return found;
  }
  return std::nullopt;
}

std::variant<TargetPlan, TargetError> ClassifyTarget(const std::vector<std::string>& target,
                                                     const EnvLookup& env) {
  const std::string& first = target.at(0);
  auto python_plan = [&](TargetKind kind,
                         std::vector<std::string> head) -> std::variant<TargetPlan, TargetError> {
    std::optional<std::string> python = FindPython(env);
    if (!python) {
      return TargetError{
          127, "no Python interpreter found for " + PrintableText(first) + " (set PROTON_PYTHON)"};
    }
    head.insert(head.begin(), *python);
    return TargetPlan{kind, *python, WithRest(std::move(head), target, 1)};
  };

  // Rule 1: pytest by basename, whatever the path.
  if (Basename(first) == "pytest") return python_plan(TargetKind::kPytest, {"-m", "pytest"});

  struct stat st {};
  if (!first.empty() && stat(first.c_str(), &st) == 0) {
    if (std::optional<TargetError> error = SpecialFileError(first, st)) return *error;
    std::optional<std::string> head =
        S_ISREG(st.st_mode) ? ReadHead(first) : std::optional<std::string>();
    const bool is_elf = head && head->rfind(
                                    "\x7f"
                                    "ELF",
                                    0) == 0;
    const bool is_foreign_script = head && head->rfind("#!", 0) == 0 && !ShebangIsPython(*head);
    if (is_elf || is_foreign_script) {  // rules 2 and 3
      if (access(first.c_str(), X_OK) != 0) return NotExecutable(first);
      return TargetPlan{TargetKind::kNative, first, target};
    }
    // Rule 4: any other existing file (or directory/zip Python can run) is a Python script.
    return python_plan(TargetKind::kScript, {first});
  }

  // Rule 5: a command on PATH.
  bool found_not_executable = false;
  if (std::optional<std::string> found = SearchPath(first, env, &found_not_executable)) {
    return TargetPlan{TargetKind::kNative, *found, target};
  }
  if (found_not_executable) return NotExecutable(first);
  return TargetError{127, "target not found: " + PrintableText(first)};  // rule 6
}

}  // namespace proton::launcher
