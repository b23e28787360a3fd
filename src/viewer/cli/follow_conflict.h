// What --follow RUN (viewer.md §11.14) cannot be combined with: it reads no FILE and shows
// GPU time only, so every option about a FILE's tree or outputs is refused by name.
#pragma once

#include "viewer/common/options.h"

namespace proton::viewer {

// The first option given that --follow leaves no use for (as argparse names it), or nullptr.
const char* FollowConflict(const ViewerOptions& a);

}  // namespace proton::viewer
