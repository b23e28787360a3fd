# Finds optional dependencies and decides which parts are built. The profiler side (core,
# cupti, launcher, python) needs only the C++ standard library, CUDA headers and Python
# headers, so it also builds on a GPU machine without the distribution's -dev packages. The
# viewer needs simdjson >= 3.0, RapidJSON (headers only), PCRE2 (found through pkg-config) and
# libiberty (design.md "Demangling").
#
# Each part's PROTON_BUILD_<PART> is AUTO (the default), ON or OFF:
#   AUTO  built when its dependencies are found, decided again at every configure, so that a
#         package installed later (scripts/test.sh after scripts/quickstart.sh) turns it on;
#   ON    required: a missing dependency is a configure error naming it;
#   OFF   not built.
# A part left out for missing dependencies prints one line (`proton: skipped viewer: missing
# ...`), and every part gets a line in ${CMAKE_BINARY_DIR}/proton-parts.txt,
# "<part>|ON or OFF|<missing dependency keys>|<what is missing, in words>"; scripts/quickstart.sh
# (through scripts/lib/packages.sh) and setup.py turn the keys into the packages that bring
# them.
find_package(simdjson QUIET)
find_package(RapidJSON QUIET CONFIG)  # sets RAPIDJSON_INCLUDE_DIRS, no target
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PCRE2 QUIET IMPORTED_TARGET libpcre2-8)
endif()
# libiberty-dev ships only a static, position-independent libiberty.a.
find_path(PROTON_LIBIBERTY_INCLUDE_DIR libiberty/demangle.h)
find_library(PROTON_LIBIBERTY_LIBRARY NAMES libiberty.a iberty)
# SQLite (libsqlite3-dev): the viewer's --export FILE.sqlite and --sql (viewer.md §11.13).
# Optional: without it the viewer builds and says so when those are asked for.
find_package(SQLite3 QUIET)
find_package(GTest QUIET)
find_package(benchmark QUIET)
find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)

# CUDA/CUPTI headers only: nothing links against libcuda or libcupti (they are dlopen'ed).
set(PROTON_CUDA_ROOT "$ENV{CUDA_HOME}" CACHE PATH "CUDA toolkit root (headers only)")
find_path(PROTON_CUPTI_INCLUDE_DIR cupti.h
  HINTS ${PROTON_CUDA_ROOT}/include ${PROTON_CUDA_ROOT}/extras/CUPTI/include
        /usr/local/cuda/include /usr/local/cuda/extras/CUPTI/include)
find_path(PROTON_CUDA_INCLUDE_DIR cuda.h
  HINTS ${PROTON_CUDA_ROOT}/include /usr/local/cuda/include)

# What each dependency key means in a message.
set(_proton_dep_simdjson "simdjson >= 3.0")
if(simdjson_FOUND)
  string(APPEND _proton_dep_simdjson " (found ${simdjson_VERSION})")
endif()
set(_proton_dep_rapidjson "RapidJSON")
set(_proton_dep_pcre2 "PCRE2 (libpcre2-8)")
set(_proton_dep_pkg-config "pkg-config (which finds PCRE2)")
set(_proton_dep_libiberty "libiberty")
set(_proton_dep_python-headers "Python 3 with its headers (Python.h)")
if(Python3_EXECUTABLE)
  set(_proton_dep_python-headers "the headers of ${Python3_EXECUTABLE} (Python.h)")
endif()
set(_proton_dep_cuda-headers "CUDA and CUPTI headers (cuda.h, cupti.h; -DPROTON_CUDA_ROOT=<toolkit>)")
set(_proton_dep_gtest "GoogleTest")
set(_proton_dep_benchmark "Google Benchmark")

# proton_decide_part(<part> <description> [<missing dependency key>...]): sets
# PROTON_BUILD_<PART> (a normal variable over the cache entry) to ON or OFF.
function(proton_decide_part part description)
  set(missing ${ARGN})
  string(TOUPPER "${part}" upper)
  set(option PROTON_BUILD_${upper})
  set(${option} AUTO CACHE STRING "${description}: AUTO (when its dependencies are found), ON or OFF")
  set_property(CACHE ${option} PROPERTY STRINGS AUTO ON OFF)
  set(requested "$CACHE{${option}}")
  set(names "")
  foreach(key IN LISTS missing)
    list(APPEND names "${_proton_dep_${key}}")
  endforeach()
  list(JOIN names ", " names)
  string(TOUPPER "${requested}" upper_requested)
  if(upper_requested STREQUAL "AUTO")
    set(built ON)
    if(missing)
      set(built OFF)
      message(STATUS "proton: skipped ${part}: missing ${names}")
    endif()
  elseif(requested)
    if(missing)
      message(FATAL_ERROR "proton: ${option}=${requested}, but ${part} needs ${names}")
    endif()
    set(built ON)
  else()
    set(built OFF)
    set(missing "")  # turned off by the user: nothing to fix
    set(names "")
  endif()
  list(JOIN missing " " keys)
  file(APPEND ${CMAKE_BINARY_DIR}/proton-parts.txt "${part}|${built}|${keys}|${names}\n")
  set(${option} ${built} PARENT_SCOPE)
endfunction()

file(WRITE ${CMAKE_BINARY_DIR}/proton-parts.txt "")

set(_missing "")
if(NOT simdjson_FOUND OR simdjson_VERSION VERSION_LESS 3.0)
  list(APPEND _missing simdjson)
endif()
if(NOT RapidJSON_FOUND)
  list(APPEND _missing rapidjson)
endif()
if(NOT PkgConfig_FOUND)
  list(APPEND _missing pkg-config pcre2)
elseif(NOT PCRE2_FOUND)
  list(APPEND _missing pcre2)
endif()
if(NOT PROTON_LIBIBERTY_INCLUDE_DIR OR NOT PROTON_LIBIBERTY_LIBRARY)
  list(APPEND _missing libiberty)
endif()
proton_decide_part(viewer "Build proton-viewer (needs simdjson, RapidJSON, PCRE2, libiberty)"
                   ${_missing})

# The viewer's --export FILE.sqlite and --sql: AUTO (when SQLite is found), ON or OFF. Without
# it the viewer still builds and says so when those are asked for.
set(PROTON_VIEWER_SQLITE AUTO CACHE STRING
    "proton-viewer's --export FILE.sqlite and --sql (needs SQLite): AUTO, ON or OFF")
set_property(CACHE PROTON_VIEWER_SQLITE PROPERTY STRINGS AUTO ON OFF)
if("$CACHE{PROTON_VIEWER_SQLITE}" STREQUAL "AUTO")
  set(PROTON_VIEWER_SQLITE OFF)
  if(SQLite3_FOUND)
    set(PROTON_VIEWER_SQLITE ON)
  endif()
elseif(PROTON_VIEWER_SQLITE AND NOT SQLite3_FOUND)
  message(FATAL_ERROR "proton: PROTON_VIEWER_SQLITE=ON, but SQLite (libsqlite3-dev) is missing")
endif()
if(PROTON_BUILD_VIEWER AND NOT PROTON_VIEWER_SQLITE)
  message(STATUS "proton: viewer without --sql and --export FILE.sqlite: missing SQLite "
                 "(apt-get install libsqlite3-dev)")
endif()

# The core tests read the writers' JSON with RapidJSON's DOM: both are needed.
set(_missing "")
if(NOT GTest_FOUND)
  list(APPEND _missing gtest)
endif()
if(NOT RapidJSON_FOUND)
  list(APPEND _missing rapidjson)
endif()
proton_decide_part(tests "Build C++ unit tests (needs GoogleTest and RapidJSON's headers)"
                   ${_missing})

set(_missing "")
if(NOT benchmark_FOUND)
  set(_missing benchmark)
endif()
proton_decide_part(bench "Build benchmarks (needs Google Benchmark)" ${_missing})

set(_missing "")
if(NOT Python3_Development.Module_FOUND)
  set(_missing python-headers)
endif()
proton_decide_part(python "Build the Python module proton._C" ${_missing})

set(_missing "")
if(NOT PROTON_CUPTI_INCLUDE_DIR OR NOT PROTON_CUDA_INCLUDE_DIR)
  set(_missing cuda-headers)
endif()
proton_decide_part(cupti "Build the CUPTI backend (needs CUDA and CUPTI headers)" ${_missing})
