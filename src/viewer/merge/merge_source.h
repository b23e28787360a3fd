// What must agree between the files of one --merge (viewer.md §11.11): the kind of context
// (Python call paths or scopes) and the device models. The device index is left out of the
// comparison, since each rank runs on its own device of the same model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/common/tree_names.h"

namespace proton::viewer {

struct Source {
  std::string display_name;
  bool python = false;               // ROOT has a Python call-path frame below it
  std::vector<std::string> devices;  // device models, described; sorted, unique
};

// What `tree` (as read, before any filter) must agree on.
Source DescribeSource(const ProfileTree& tree, std::string display_name);

// Checks each file against every file given before it: the context against the first file,
// the devices against the first file that lists any (so a file without kernels first cannot
// let two different device models in after it).
class MergeSourceCheck {
 public:
  // Error "cannot merge 'B' with 'A': ..." when `now` disagrees with an earlier source A.
  Status Check(Source now);
  Status Check(const ProfileTree& tree, const std::string& display_name) {
    return Check(DescribeSource(tree, display_name));
  }

 private:
  std::optional<Source> first_;
  std::optional<Source> devices_;  // the first source with a device list
};

}  // namespace proton::viewer
