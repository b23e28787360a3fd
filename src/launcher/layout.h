// Where the launcher finds the pieces it injects: the core library (libproton.so, for
// CUDA_INJECTION64_PATH), the bootstrap directory (python/proton_bootstrap, first on
// PYTHONPATH) and the directory that holds the `proton` package. Searched relative to the
// launcher's own executable, so a build tree, an install prefix and the copy inside the Python
// package all work without configuration.
#pragma once

#include <optional>
#include <string>

namespace proton::launcher {

struct Layout {
  std::string executable;                     // absolute path of the running launcher
  std::optional<std::string> core_library;    // absolute path of libproton.so
  std::optional<std::string> bootstrap_dir;   // directory holding sitecustomize.py
  std::optional<std::string> package_parent;  // directory holding proton/__init__.py
};

// Resolves the layout. `override_library` (PROTON_LIBRARY) wins for the core library.
Layout FindLayout(const std::optional<std::string>& override_library);

// Directory part of a path ("/a/b/c" -> "/a/b", "c" -> ".").
std::string DirName(const std::string& path);

// realpath(3) as a string; nullopt if the path does not exist.
std::optional<std::string> RealPath(const std::string& path);

}  // namespace proton::launcher
