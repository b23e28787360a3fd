// --merge[=stats|sum] (viewer.md §11.11): many profiles (one per rank, or the part files of
// one run) read one at a time into one union tree, ready to print and export.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"
#include "viewer/common/options.h"
#include "viewer/common/tree_names.h"
#include "viewer/outputs/printers.h"

namespace proton::viewer {

// Per file and -m column, the file's value at each union node (--merge=stats only): what
// the statistics are computed from and what --export writes one row per node and file of.
struct MergeStore {
  std::vector<std::string> files;  // display names, in FILE order (--merge=sum too)
  // values[f][c][u]: file f, column c, union node u; sized by the union after file f, so a
  // node first seen in a later file is beyond the end.
  std::vector<std::vector<std::vector<double>>> values;
  std::vector<std::vector<bool>> holds;  // holds[f][u]: file f has union node u

  bool Holds(size_t f, NodeId u) const { return u < holds[f].size() && holds[f][u]; }
  double Value(size_t f, size_t c, NodeId u) const { return values[f][c][u]; }
};

struct MergedProfiles {
  ProfileTree tree;  // what is printed (after every filter)
  PrintInput in;     // its columns and labels; in.tree is set by the caller
  // --merge=stats: the per-file values, and per node of `tree` its union node.
  MergeStore store;
  std::vector<NodeId> union_of;
  // Per FILE, the devices it is the first to list (--html's device table names each
  // device's file, as for a single profile).
  std::vector<DeviceTable> file_devices;
};

// Reads every file of input.files and merges them as input.merge says; the first failing file
// reports its error. Errors also for files from different devices or contexts.
// `normalize_names` (stats only): each file's names are normalised as --match=normalized
// does (--baseline's comparison of medians, §11.16); --merge itself matches stored names.
Result<MergedProfiles> MergeProfiles(const InputOptions& input, const ViewOptions& view,
                                     bool normalize_names = false);

// The name of the merge in messages ("--threshold 5 removes every frame in '<merge of 3
// files>'").
std::string MergeDisplayName(size_t files);

}  // namespace proton::viewer
