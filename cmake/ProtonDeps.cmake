# Finds optional dependencies. The profiler side (core, cupti, launcher, python) needs only the
# C++ standard library, CUDA headers and Python headers, so it also builds on the GPU machine,
# which has no Debian -dev packages. The viewer needs simdjson, RapidJSON (headers only), PCRE2
# and libiberty (Debian packages; libiberty's demangler, design.md "Demangling").
find_package(simdjson QUIET)
find_package(RapidJSON QUIET CONFIG)  # sets RAPIDJSON_INCLUDE_DIRS, no target
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PCRE2 QUIET IMPORTED_TARGET libpcre2-8)
endif()
# libiberty-dev ships only a static, position-independent libiberty.a.
find_path(PROTON_LIBIBERTY_INCLUDE_DIR libiberty/demangle.h)
find_library(PROTON_LIBIBERTY_LIBRARY NAMES libiberty.a iberty)
find_package(msgpack-cxx QUIET CONFIG NAMES msgpack-cxx msgpackc-cxx)
# SQLite (libsqlite3-dev): the viewer's --export FILE.sqlite and --sql (viewer.md §11.13).
# Optional: without it the viewer builds and says so when those are asked for.
find_package(SQLite3 QUIET)
find_package(GTest QUIET)
find_package(benchmark QUIET)
find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)

set(_viewer_default OFF)
if(simdjson_FOUND AND RapidJSON_FOUND AND PCRE2_FOUND AND PROTON_LIBIBERTY_INCLUDE_DIR
   AND PROTON_LIBIBERTY_LIBRARY)
  set(_viewer_default ON)
endif()
option(PROTON_BUILD_VIEWER "Build proton-viewer (needs simdjson, RapidJSON, PCRE2, libiberty)"
       ${_viewer_default})

set(_viewer_sqlite_default OFF)
if(SQLite3_FOUND)
  set(_viewer_sqlite_default ON)
endif()
option(PROTON_VIEWER_SQLITE "proton-viewer's --export FILE.sqlite and --sql (needs SQLite)"
       ${_viewer_sqlite_default})

# The core tests read the writers' JSON with RapidJSON's DOM: both are needed.
set(_tests_default OFF)
if(GTest_FOUND AND RapidJSON_FOUND)
  set(_tests_default ON)
endif()
option(PROTON_BUILD_TESTS "Build C++ unit tests (needs GoogleTest and RapidJSON's headers)"
       ${_tests_default})

set(_bench_default OFF)
if(benchmark_FOUND)
  set(_bench_default ON)
endif()
option(PROTON_BUILD_BENCH "Build benchmarks (needs Google Benchmark)" ${_bench_default})

set(_python_default OFF)
if(Python3_Development.Module_FOUND)
  set(_python_default ON)
endif()
option(PROTON_BUILD_PYTHON "Build the Python module proton._C" ${_python_default})

# CUDA/CUPTI headers only: nothing links against libcuda or libcupti (they are dlopen'ed).
set(PROTON_CUDA_ROOT "$ENV{CUDA_HOME}" CACHE PATH "CUDA toolkit root (headers only)")
find_path(PROTON_CUPTI_INCLUDE_DIR cupti.h
  HINTS ${PROTON_CUDA_ROOT}/include ${PROTON_CUDA_ROOT}/extras/CUPTI/include
        /usr/local/cuda/include /usr/local/cuda/extras/CUPTI/include)
find_path(PROTON_CUDA_INCLUDE_DIR cuda.h
  HINTS ${PROTON_CUDA_ROOT}/include /usr/local/cuda/include)
set(_cupti_default OFF)
if(PROTON_CUPTI_INCLUDE_DIR AND PROTON_CUDA_INCLUDE_DIR)
  set(_cupti_default ON)
endif()
option(PROTON_BUILD_CUPTI "Build the CUPTI backend (needs CUDA and CUPTI headers)" ${_cupti_default})
