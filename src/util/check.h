// PROTON_CHECK / PROTON_DCHECK: assertions of internal invariants (docs/design.md, "Errors and
// checks"). A failed check prints one line to stderr,
//   [proton] check failed: src/tree/tree_regroup.cc:42: parent < child: node 7
// and aborts. They guard what the code itself guarantees, never what input can break: bad input
// is a Status. PROTON_CHECK is always on; PROTON_DCHECK only in debug builds (NDEBUG unset) and
// where PROTON_DCHECK_ON is defined (the sanitizer builds), so it may sit on hot paths.
//
//   PROTON_CHECK(slot.state == kWaiting) << "slot " << id << " is " << int(slot.state);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace proton::check_internal {

// Collects the message of one failed check; its destructor prints the line and aborts.
class CheckFailure {
 public:
  CheckFailure(const char* file, int line, const char* condition);
  [[noreturn]] ~CheckFailure();
  CheckFailure(const CheckFailure&) = delete;
  CheckFailure& operator=(const CheckFailure&) = delete;

  CheckFailure& operator<<(std::string_view text) {
    message_.append(text);
    return *this;
  }
  CheckFailure& operator<<(const char* text) { return *this << std::string_view(text); }
  CheckFailure& operator<<(const std::string& text) { return *this << std::string_view(text); }
  CheckFailure& operator<<(char c) {
    message_.push_back(c);
    return *this;
  }
  CheckFailure& operator<<(bool b) { return *this << (b ? "true" : "false"); }
  template <typename T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T> CheckFailure& operator<<(T value) {
    if constexpr (std::is_enum_v<T>) {
      return *this << static_cast<std::underlying_type_t<T>>(value);
    } else {
      return *this << std::string_view(std::to_string(value));
    }
  }
  CheckFailure& operator<<(const void* pointer);

 private:
  std::string message_;
};

// Gives the `cond ? (void)0 : failure << ...` expression the type void; & binds more loosely
// than <<, so every streamed part belongs to the failure.
struct Voidify {
  void operator&(const CheckFailure&) {}
};

}  // namespace proton::check_internal

// Unparenthesized on purpose: what follows the macro streams into the CheckFailure.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define PROTON_CHECK(condition)                       \
  (condition) ? static_cast<void>(0)                  \
              : ::proton::check_internal::Voidify() & \
                    ::proton::check_internal::CheckFailure(__FILE__, __LINE__, #condition)
// NOLINTEND(bugprone-macro-parentheses)

#if !defined(NDEBUG) || defined(PROTON_DCHECK_ON)
#define PROTON_DCHECK_IS_ON 1
#define PROTON_DCHECK(condition) PROTON_CHECK(condition)
#else
#define PROTON_DCHECK_IS_ON 0
// Compiled (so its operands stay valid code) but never evaluated.
#define PROTON_DCHECK(condition) \
  while (false) PROTON_CHECK(condition)
#endif
