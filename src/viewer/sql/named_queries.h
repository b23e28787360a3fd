// The queries --sql knows by name (viewer.md §11.13, where each is documented with its SQL):
// the common questions about many ranks and long runs, over the schema of formats.md §8.
#pragma once

#include <span>
#include <string_view>

namespace proton::viewer {

struct NamedQuery {
  std::string_view name;
  std::string_view description;  // one line
  std::string_view sql;
};

// Every named query, in the order `--sql list` shows them.
std::span<const NamedQuery> NamedQueries();

// The query called `name`, or nullptr.
const NamedQuery* FindNamedQuery(std::string_view name);

}  // namespace proton::viewer
