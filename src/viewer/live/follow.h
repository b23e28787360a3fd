// proton-viewer --follow RUN (viewer.md §11.14): watches the part files a periodic-flushing
// run writes, one run or every rank's, and shows each phase as it completes: in place on a
// terminal, one block per phase in a pipe. It starts before the first part exists, takes
// parts that appear, vanish or are not whole yet, and ends when every process of the run has
// written its end marker (formats.md §5) or its plain file, on SIGINT/SIGTERM, or after
// --follow-timeout seconds without anything new.
#pragma once

#include <string>

#include "util/status.h"
#include "viewer/common/options.h"

namespace proton::viewer {

struct FollowOptions {
  std::string run;               // RUN as typed
  bool has_timeout = false;      // --follow-timeout S given
  double timeout_s = 0;          // seconds without a new part or end marker
  std::string timeout_text;      // S as typed, for the message
  std::string item = "time/ms";  // what the view shows (-m time/U)
  double per_ns = 1e-6;          // the item's units per nanosecond
  DemangleMode demangle = DemangleMode::kOff;
  double poll_s = 0.25;  // how often RUN's folder is listed
};

// Follows the run, writing to out_fd (`terminal`: redraw in place) and warnings to err_fd.
// Returns the exit status: 0 when the run ended, 128 + the signal on SIGINT or SIGTERM, 1
// when standard output was closed (quietly, as viewer_command.h's kClosedOutputStatus); or
// the error (a bad RUN, an unreadable folder, the timeout, a failing write).
Result<int> Follow(const FollowOptions& options, int out_fd, bool terminal, int err_fd);

}  // namespace proton::viewer
