// See layout.h. Candidate places, in order:
//   build tree:   <build>/bin/proton, <build>/lib/libproton.so,
//   <build>/python/{proton,proton_bootstrap} install:      <prefix>/bin/proton,
//   <prefix>/lib/libproton.so, same python layout package copy: <site>/proton/_bin/proton,
//   <site>/proton/libproton.so.0 (pip install, setup.py),
//                 <site>/proton_bootstrap
//                 (in a build tree <build>/python/proton/_bin/proton finds <build>/lib)
//   source tree:  the python/ directory of the source the launcher was built from.
#include "launcher/layout.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

#ifndef PROTON_SOURCE_PYTHON_DIR
#define PROTON_SOURCE_PYTHON_DIR ""
#endif

namespace proton::launcher {

namespace {

bool IsFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::optional<std::string> SelfExecutable() {
  std::vector<char> buffer(PATH_MAX + 1);
  ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  if (n <= 0) return std::nullopt;
  return std::string(buffer.data(), static_cast<size_t>(n));
}

}  // namespace

std::string DirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::optional<std::string> RealPath(const std::string& path) {
  char* resolved = realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return std::nullopt;
  std::string out(resolved);
  free(resolved);
  return out;
}

Layout FindLayout(const std::optional<std::string>& override_library) {
  Layout layout;
  layout.executable = SelfExecutable().value_or("");
  const std::string exe_dir = DirName(layout.executable);

  if (override_library && !override_library->empty()) {
    layout.core_library = RealPath(*override_library);
  } else {
    for (const char* relative :
         {"/../lib/libproton.so", "/../lib/libproton.so.0", "/libproton.so", "/libproton.so.0",
          "/../libproton.so", "/../libproton.so.0", "/../../../lib/libproton.so"}) {
      if (IsFile(exe_dir + relative)) {
        layout.core_library = RealPath(exe_dir + relative);
        break;
      }
    }
  }

  std::vector<std::string> python_dirs = {exe_dir + "/../python", exe_dir + "/../..",
                                          exe_dir + "/../lib/proton/python"};
  if (std::string source = PROTON_SOURCE_PYTHON_DIR; !source.empty()) {
    python_dirs.push_back(source);
  }
  for (const std::string& dir : python_dirs) {
    if (!layout.bootstrap_dir && IsFile(dir + "/proton_bootstrap/sitecustomize.py")) {
      layout.bootstrap_dir = RealPath(dir + "/proton_bootstrap");
    }
    if (!layout.package_parent && IsFile(dir + "/proton/__init__.py")) {
      layout.package_parent = RealPath(dir);
    }
  }
  return layout;
}

}  // namespace proton::launcher
