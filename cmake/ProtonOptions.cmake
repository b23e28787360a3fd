# Build options shared by every component. Targets opt in with proton_set_warnings().
option(PROTON_WERROR "Treat compiler warnings as errors" OFF)
set(PROTON_SANITIZE "" CACHE STRING "Sanitizers: '', 'address' (ASan+UBSan) or 'thread' (TSan)")
option(PROTON_FUZZ "Build libFuzzer targets (needs clang)" OFF)

if(PROTON_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
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
  if(PROTON_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
