// Running out of memory as an error of the step that ran out (viewer.md §9.2): one line
// such as "out of memory reading 'run.hatchet'" instead of std::terminate, or of the generic
// "out of memory" that RunCommand gives an exception no step caught.
#pragma once

#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "util/status.h"

namespace proton {

// "out of memory <step>".
inline Error OutOfMemory(std::string_view step) {
  std::string message = "out of memory ";
  message.append(step);
  return Error(std::move(message), ErrorKind::kOutOfMemory);
}

// Runs `body` (returning a Status or a Result<T>); a std::bad_alloc it throws becomes
// OutOfMemory(step). The memory `body` held is freed by the unwinding before the message is
// built.
template <typename Body>
auto CatchOutOfMemory(std::string_view step, Body&& body) -> decltype(body()) {
  try {
    return std::forward<Body>(body)();
  } catch (const std::bad_alloc&) {
    return OutOfMemory(step);
  }
}

}  // namespace proton
