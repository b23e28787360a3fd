// Error messages quote user-supplied values verbatim inside '…' (viewer.md §9).
#pragma once

#include <string>
#include <string_view>

namespace proton::viewer {

// "'s'" (built by appending: GCC 12's -Wrestrict misfires on "'" + std::string(...)).
inline std::string Quoted(std::string_view s) {
  std::string q;
  q.reserve(s.size() + 2);
  q += '\'';
  q.append(s);
  q += '\'';
  return q;
}

}  // namespace proton::viewer
