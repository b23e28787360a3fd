// Reading the FILEs of a multi-file run (--merge, viewer.md §11.11; the SQLite database,
// §11.13): each file is read and prepared (§3.3) on a few worker threads, a bounded window
// ahead, and handed over in FILE order, so that what is reported never depends on thread
// timing and at most a few files' trees are held at once.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/common/tree_names.h"
#include "viewer/merge/merge_source.h"
#include "viewer/ops/metrics.h"

namespace proton::viewer {

// What a loading thread hands over: the file as read, what it must agree on with the others,
// and what the caller's `prepare` step made of it (for --merge=stats its columns after
// derivation and -i/-e), or the error that step gave. That error is reported after the
// source check, as when reading one file at a time.
// `empty`: a valid profile with no data (the part of a phase that recorded nothing, a rank
// that ran none of the frames): it holds no frame, agrees with every other file and adds
// nothing (viewer.md §11.11).
struct LoadedFile {
  ProfileTree tree;
  std::string display_name;
  Source source;
  Status prepared;
  std::vector<ColumnRef> columns;
  bool empty = false;
};

// Loads `files` on worker threads, runs prepare(file) there (not for empty files; its error
// goes to file.prepared), and calls consume(index, file) on the calling thread in FILE order.
// The first error in FILE order (reading, or consume's) stops the work and is returned.
Status ForEachLoadedFile(const std::vector<std::string>& files,
                         const std::function<Status(LoadedFile&)>& prepare,
                         const std::function<Status(size_t, LoadedFile&)>& consume);

}  // namespace proton::viewer
