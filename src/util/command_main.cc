// See command_main.h.
#include "util/command_main.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace proton {

int ReportError(std::string_view program, std::string_view usage, const Status& status) {
  std::string text;
  if (status.kind() == ErrorKind::kUsage) text.append(usage);
  text.append(program).append(": error: ").append(status.message()).append("\n");
  std::fflush(stdout);
  std::fwrite(text.data(), 1, text.size(), stderr);
  return status.kind() == ErrorKind::kUsage ? 2 : 1;
}

int RunCommand(std::string_view program, std::string_view usage,
               const std::function<Result<int>()>& body) {
  try {
    Result<int> result = body();
    if (result.ok()) return result.value();
    return ReportError(program, usage, result.status());
  } catch (const std::bad_alloc&) {
    return ReportError(program, usage, Status::Error("out of memory"));
  } catch (const std::exception& e) {
    return ReportError(program, usage, Status::Error(std::string("internal error: ") + e.what()));
  } catch (...) {
    return ReportError(program, usage, Status::Error("internal error"));
  }
}

}  // namespace proton
