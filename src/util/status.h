// Errors as values: every library function that can fail returns Status or Result<T>.
// Commands turn them into "<program>: error: <message>" (see command_main.h); the Python
// binding turns them into exceptions. Nothing here throws.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace proton {

// Usage errors come from the command line itself (exit status 2, usage block first);
// processing errors come from the input or the environment (exit status 1). The Python
// binding maps kind to an exception type.
enum class ErrorKind { kProcessing, kUsage, kValue, kType, kIndex, kRuntime };

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  static Status Error(std::string message, ErrorKind kind = ErrorKind::kProcessing) {
    Status s;
    s.error_ = Err{kind, std::move(message)};
    return s;
  }
  static Status UsageError(std::string message) {
    return Error(std::move(message), ErrorKind::kUsage);
  }
  bool ok() const { return !error_.has_value(); }
  const std::string& message() const { return error_->message; }
  ErrorKind kind() const { return error_->kind; }

 private:
  struct Err {
    ErrorKind kind;
    std::string message;
  };
  std::optional<Err> error_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}   // NOLINT: must be an error
  bool ok() const { return std::holds_alternative<T>(v_); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Status& status() const { return std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace proton

// Returns early from the enclosing function with the error of a failed Status.
#define PROTON_RETURN_IF_ERROR(expr)           \
  do {                                         \
    ::proton::Status proton_status_ = (expr);  \
    if (!proton_status_.ok()) return proton_status_; \
  } while (0)

#define PROTON_CONCAT_INNER_(a, b) a##b
#define PROTON_CONCAT_(a, b) PROTON_CONCAT_INNER_(a, b)
// Declares `lhs` from a Result, or returns its error from the enclosing function.
#define PROTON_ASSIGN_OR_RETURN(lhs, expr)                                   \
  auto PROTON_CONCAT_(proton_result_, __LINE__) = (expr);                    \
  if (!PROTON_CONCAT_(proton_result_, __LINE__).ok())                        \
    return PROTON_CONCAT_(proton_result_, __LINE__).status();                \
  lhs = std::move(PROTON_CONCAT_(proton_result_, __LINE__)).value()
