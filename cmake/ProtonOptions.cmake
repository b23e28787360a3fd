# Build options shared by every component. Targets opt in with proton_set_warnings().
option(PROTON_WERROR "Treat compiler warnings as errors" OFF)
set(PROTON_SANITIZE "" CACHE STRING "Sanitizers: '', 'address' (ASan+UBSan) or 'thread' (TSan)")
option(PROTON_FUZZ "Build libFuzzer targets (needs clang)" OFF)

if(PROTON_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # clang links its runtime into executables statically by default; a preloaded shared one
    # (below) would then be a second runtime in the launcher's processes. The shared runtime,
    # which holds UBSan's too, is found through the run path (it is not on the loader's path).
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                    OUTPUT_VARIABLE _clang_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
    get_filename_component(_clang_asan_dir "${_clang_asan}" DIRECTORY)
    add_link_options(-shared-libasan "-Wl,-rpath,${_clang_asan_dir}")
  endif()
elseif(PROTON_SANITIZE STREQUAL "thread")
  # GCC's -Wtsan (an error with PROTON_WERROR) rejects std::atomic_thread_fence, whose ordering
  # TSan cannot see: protocols must be written with atomics that TSan checks.
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
  if(PROTON_FUZZ)
    message(FATAL_ERROR "PROTON_FUZZ builds with ASan, which cannot be combined with TSan")
  endif()
elseif(NOT PROTON_SANITIZE STREQUAL "")
  message(FATAL_ERROR "PROTON_SANITIZE must be '', 'address' or 'thread'")
endif()
# An uninstrumented program (python3, /bin/sh) that loads our instrumented libraries
# (proton._C, proton._viewer, libproton.so through CUDA_INJECTION64_PATH) aborts unless the ASan
# runtime comes first in its initial library list, which only LD_PRELOAD can arrange. The
# launcher passes its environment on to the target unchanged, so a test that preloads the
# runtimes covers every process of a run; instrumented programs (the launcher, the fake CUDA
# app) are unaffected, as the runtime they link is the same file.
# proton_preload_sanitizer_runtime(<test>...) does that for tests whose processes include such
# programs; it does nothing outside the ASan tree.
set(PROTON_SANITIZER_PRELOAD "")
if(PROTON_SANITIZE STREQUAL "address")
  set(_runtimes libasan.so libubsan.so)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(_runtimes libclang_rt.asan-x86_64.so)
  endif()
  foreach(runtime ${_runtimes})
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${runtime}
                    OUTPUT_VARIABLE _runtime_path OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${_runtime_path}" OR NOT EXISTS "${_runtime_path}")
      message(FATAL_ERROR "PROTON_SANITIZE=address: ${CMAKE_CXX_COMPILER} has no ${runtime}")
    endif()
    list(APPEND PROTON_SANITIZER_PRELOAD ${_runtime_path})
  endforeach()
  list(JOIN PROTON_SANITIZER_PRELOAD ":" PROTON_SANITIZER_PRELOAD)
endif()
function(proton_preload_sanitizer_runtime)
  if(PROTON_SANITIZER_PRELOAD STREQUAL "")
    return()
  endif()
  # CPython allocates at start-up and keeps much of it until exit, which LeakSanitizer would
  # report as leaks that are not ours: no leak detection in these tests' processes. The C++
  # test executables keep it.
  set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT_MODIFICATION
               "LD_PRELOAD=path_list_prepend:${PROTON_SANITIZER_PRELOAD}"
               "ASAN_OPTIONS=string_append::detect_leaks=0")
endfunction()

# The sanitizer trees are RelWithDebInfo (NDEBUG set), yet they are where invariants matter most:
# PROTON_DCHECK is on there as in debug builds (src/util/check.h).
if(NOT PROTON_SANITIZE STREQUAL "" OR PROTON_FUZZ)
  add_compile_definitions(PROTON_DCHECK_ON)
endif()

if(PROTON_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PROTON_FUZZ needs clang (cmake -DCMAKE_CXX_COMPILER=clang++)")
  endif()
  # Everything is instrumented for coverage; only fuzz targets link the libFuzzer main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

function(proton_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                         -Wnon-virtual-dtor -Wimplicit-fallthrough)
  # Lock annotations (util/thread_annotations.h) are checked where the compiler knows them.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE -Wthread-safety)
  endif()
  if(PROTON_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
