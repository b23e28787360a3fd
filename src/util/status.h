// Errors as values: every library function that can fail returns Status or Result<T>.
// Commands turn them into "<program>: error: <message>" (see command_main.h); the Python
// binding turns them into exceptions. Nothing here throws.
//
// The types cannot be misused: an Error is always a failure, a Result holds a value or an Error
// (never an OK status: constructing one from a Status does not compile), and reading what is
// not there is a PROTON_CHECK failure, never undefined behaviour or an exception. An OK
// Status has an empty message.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "util/check.h"

namespace proton {

// Usage errors come from the command line itself (exit status 2, usage block first);
// processing errors come from the input or the environment (exit status 1). The Python
// binding maps kind to an exception type (kOutOfMemory: MemoryError).
enum class ErrorKind { kProcessing, kUsage, kValue, kType, kIndex, kRuntime, kOutOfMemory };

// A failure: what went wrong and its kind. There is no OK Error.
class [[nodiscard]] Error {
 public:
  explicit Error(std::string message, ErrorKind kind = ErrorKind::kProcessing)
      : kind_(kind), message_(std::move(message)) {}
  const std::string& message() const { return message_; }
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
  std::string message_;
};

// OK, or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;                                          // OK
  Status(::proton::Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design
  static ::proton::Error Error(std::string message, ErrorKind kind = ErrorKind::kProcessing) {
    return ::proton::Error(std::move(message), kind);
  }
  static ::proton::Error UsageError(std::string message) {
    return ::proton::Error(std::move(message), ErrorKind::kUsage);
  }
  bool ok() const { return !error_.has_value(); }
  // Empty when OK.
  const std::string& message() const { return ok() ? EmptyMessage() : error_->message(); }
  // Only a failure has a kind.
  ErrorKind kind() const { return error().kind(); }
  // The failure, to return it from a function that returns a Result. Only when !ok().
  const ::proton::Error& error() const& {
    PROTON_CHECK(!ok()) << "error() of an OK Status";
    return *error_;
  }
  ::proton::Error error() && {
    PROTON_CHECK(!ok()) << "error() of an OK Status";
    return std::move(*error_);
  }

 private:
  static const std::string& EmptyMessage() {
    static const std::string kEmpty;
    return kEmpty;
  }
  std::optional<::proton::Error> error_;
};

// A value, or the Error that prevented it.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}              // NOLINT: implicit by design
  Result(Error error) : v_(Status(std::move(error))) {}  // NOLINT: implicit by design
  // A Status may be OK, which a Result cannot hold: pass `status.error()` once the status is
  // known to have failed.
  Result(Status status) = delete;

  bool ok() const { return std::holds_alternative<T>(v_); }
  T& value() & { return *CheckedValue(); }
  const T& value() const& { return *CheckedValue(); }
  T&& value() && { return std::move(*CheckedValue()); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return CheckedValue(); }
  const T* operator->() const { return CheckedValue(); }
  // OK (empty message) when the Result holds a value.
  const Status& status() const {
    static const Status kOkStatus;
    const Status* failed = std::get_if<Status>(&v_);
    return failed != nullptr ? *failed : kOkStatus;
  }
  // The failure. Only when !ok().
  const Error& error() const& { return status().error(); }
  Error error() && {
    PROTON_CHECK(!ok()) << "error() of a Result that holds a value";
    return std::get<Status>(std::move(v_)).error();
  }

 private:
  T* CheckedValue() {
    T* value = std::get_if<T>(&v_);
    PROTON_CHECK(value != nullptr) << "value() of a failed Result: " << status().message();
    return value;
  }
  const T* CheckedValue() const {
    const T* value = std::get_if<T>(&v_);
    PROTON_CHECK(value != nullptr) << "value() of a failed Result: " << status().message();
    return value;
  }

  // The Status alternative is never OK: it is made only from an Error.
  std::variant<T, Status> v_;
};

}  // namespace proton

// Returns early from the enclosing function (which returns Status or a Result) with the error
// of a failed Status.
#define PROTON_RETURN_IF_ERROR(expr)                                    \
  do {                                                                  \
    ::proton::Status proton_status_ = (expr);                           \
    if (!proton_status_.ok()) return std::move(proton_status_).error(); \
  } while (0)

#define PROTON_CONCAT_INNER_(a, b) a##b
#define PROTON_CONCAT_(a, b) PROTON_CONCAT_INNER_(a, b)
// Declares `lhs` from a Result, or returns its error from the enclosing function. `lhs` is a
// declaration (`auto x`), which parentheses would break.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PROTON_ASSIGN_OR_RETURN(lhs, expr)                              \
  auto PROTON_CONCAT_(proton_result_, __LINE__) = (expr);               \
  if (!PROTON_CONCAT_(proton_result_, __LINE__).ok())                   \
    return std::move(PROTON_CONCAT_(proton_result_, __LINE__)).error(); \
  lhs = std::move(PROTON_CONCAT_(proton_result_, __LINE__)).value()
// NOLINTEND(bugprone-macro-parentheses)
