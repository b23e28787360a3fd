// See merge_profiles.h. Files are read by a few worker threads, a bounded window ahead, and
// merged on the calling thread in FILE order; each is reduced to what the merge keeps (its
// values at the union nodes) and freed, so the peak is a few files' trees plus the union
// (and, for stats, the per-file values of the selected columns).
#include "viewer/merge/merge_profiles.h"

#include <algorithm>
#include <cmath>

#include "util/out_of_memory.h"
#include "viewer/common/quoted.h"
#include "viewer/merge/merge_load.h"
#include "viewer/merge/merge_source.h"
#include "viewer/merge/merge_stats.h"
#include "viewer/merge/merge_sum.h"
#include "viewer/merge/merge_union.h"
#include "viewer/names/name_normalize.h"
#include "viewer/ops/filters.h"
#include "viewer/ops/metrics.h"

namespace proton::viewer {
namespace {

// Derived per file, filtered by -i/-e (the threshold applies to the merged values); names
// normalised after the filters and before duplicates merge, as for --match=normalized (§11.7).
Status PrepareStatsFile(LoadedFile& file, const ViewOptions& view, bool normalize_names) {
  PROTON_ASSIGN_OR_RETURN(file.columns, ResolveColumns(file.tree, view.metrics, file.display_name));
  ViewOptions names_only = view;
  names_only.has_threshold = false;
  PROTON_RETURN_IF_ERROR(ApplyFilters(file.tree, names_only, file.columns[0], file.display_name));
  if (normalize_names) NormalizeNames(file.tree);
  MergeDuplicates(file.tree);
  return Status();
}

// Every file must label the columns alike (inclusive in one, exclusive in another cannot be
// combined), as for --diff-profile.
Status CheckSameLabels(const std::vector<ColumnRef>& first, const std::vector<ColumnRef>& now,
                       const std::string& first_name, const std::string& now_name) {
  for (size_t c = 0; c < first.size(); ++c) {
    if (first[c].label == now[c].label) continue;
    return Status::Error("cannot merge " + first[c].item + ": it is '" + first[c].label + "' in " +
                         Quoted(first_name) + " but '" + now[c].label + "' in " + Quoted(now_name));
  }
  return Status();
}

// One prepared file's contribution to --merge=stats: its values stored at the union nodes.
Status AddStatsFile(const LoadedFile& file, MergeUnion& merged, MergeStore& store,
                    std::vector<ColumnRef>& first_columns) {
  const std::vector<ColumnRef>& columns = file.columns;
  if (first_columns.empty()) first_columns = columns;
  PROTON_RETURN_IF_ERROR(
      CheckSameLabels(first_columns, columns, store.files[0], file.display_name));
  const std::vector<NodeId> union_id = merged.Map(file.tree);
  std::vector<bool>& holds = store.holds.emplace_back(merged.size(), false);
  auto& values = store.values.emplace_back();
  for (const ColumnRef& column : columns) {
    std::vector<double>& v = values.emplace_back(merged.size(), kMissing);
    for (NodeId n = 0; n < file.tree.size(); ++n) v[union_id[n]] = column.Value(file.tree, n);
  }
  for (NodeId n = 0; n < file.tree.size(); ++n) holds[union_id[n]] = true;
  return Status();
}

// Per union node: the statistics of each column, and how many files hold it.
struct UnionStats {
  std::vector<std::vector<MergeStats>> stats;  // [column][union node]
  std::vector<double> files;                   // [union node]
};

// Gathers the values of union nodes [begin, end) of column c, file by file: each file's
// values are read as one short contiguous run instead of one cache miss per node and file.
// Node u's values land in block[(u - begin) * files ...], `count[u - begin]` of them.
void GatherBlock(const MergeStore& store, size_t c, NodeId begin, NodeId end,
                 std::vector<FileValue>& block, std::vector<uint32_t>& count) {
  const size_t files = store.files.size();
  std::fill(count.begin(), count.end(), 0);
  for (size_t f = 0; f < files; ++f) {
    if (c >= store.values[f].size()) continue;  // a file with no data holds no frame
    const std::vector<double>& values = store.values[f][c];
    const NodeId stop = std::min<NodeId>(end, static_cast<NodeId>(values.size()));
    for (NodeId u = begin; u < stop; ++u) {
      if (!store.holds[f][u]) continue;
      const size_t slot = u - begin;
      block[slot * files + count[slot]++] = {static_cast<uint32_t>(f), values[u]};
    }
  }
}

UnionStats ComputeUnionStats(const MergeStore& store, size_t columns, size_t union_size) {
  constexpr NodeId kBlock = 256;
  const size_t files = store.files.size();
  UnionStats out;
  out.stats.assign(columns, std::vector<MergeStats>(union_size));
  out.files.assign(union_size, 0.0);
  std::vector<FileValue> block(size_t{kBlock} * files);
  std::vector<uint32_t> count(kBlock);
  std::vector<double> scratch;
  for (NodeId begin = 0; begin < union_size; begin += kBlock) {
    const NodeId end = static_cast<NodeId>(std::min<size_t>(union_size, begin + kBlock));
    for (size_t c = 0; c < columns; ++c) {
      GatherBlock(store, c, begin, end, block, count);
      for (NodeId u = begin; u < end; ++u) {
        const std::span<const FileValue> values(block.data() + (u - begin) * files,
                                                count[u - begin]);
        out.stats[c][u] = ComputeMergeStats(values, scratch);
        out.files[u] = count[u - begin];
      }
    }
  }
  return out;
}

// The union tree after -t, which keeps the frames whose first column's median passes, with
// their ancestors (§5.3). `union_of` gets each kept node's union node.
Result<ProfileTree> BuildStatsTree(const MergeUnion& merged, const UnionStats& stats,
                                   const ViewOptions& view, size_t files,
                                   std::vector<NodeId>& union_of) {
  std::vector<NodeId> tree_id;
  ProfileTree tree = merged.BuildTree(tree_id);
  union_of.assign(tree.size(), kNoNode);
  for (NodeId u = 0; u < tree_id.size(); ++u) union_of[tree_id[u]] = u;
  if (!view.has_threshold) return tree;
  // The union ids ride along as a column: the reduction renumbers the nodes.
  ExtraColumn& ids = tree.extra_columns().emplace_back();
  std::vector<uint8_t> matched(tree.size());
  for (NodeId n = 0; n < tree.size(); ++n) {
    ids.values.push_back(union_of[n]);
    matched[n] = stats.stats[0][union_of[n]].median >= view.threshold ? 1 : 0;
  }
  if (!ApplyFilter(tree, FilterKind::kThreshold, matched)) {
    return Status::Error("--threshold " + view.threshold_text + " removes every frame in " +
                         Quoted(MergeDisplayName(files)));
  }
  const std::vector<double>& kept_ids = tree.extra_columns()[0].values;
  union_of.assign(kept_ids.begin(), kept_ids.end());
  tree.extra_columns().clear();
  return tree;
}

// The printed columns: per -m column its median (which drives -t, colours and sorting),
// min, mean, max, imbalance and argmax; then the number of files holding the frame.
void FillStatsColumns(const UnionStats& stats, const std::vector<ColumnRef>& columns,
                      const std::vector<NodeId>& union_of, PrintInput& in) {
  for (size_t c = 0; c < columns.size(); ++c) {
    for (const MergeStat stat : kMergePrintOrder) {
      std::vector<double>& v = in.columns.emplace_back(union_of.size());
      for (NodeId n = 0; n < union_of.size(); ++n) v[n] = stats.stats[c][union_of[n]].get(stat);
      in.labels.push_back(columns[c].label + MergeStatSuffix(stat));
      in.decimals.push_back(stat == MergeStat::kArgmax ? 0 : 3);
    }
  }
  std::vector<double>& files = in.columns.emplace_back(union_of.size());
  for (NodeId n = 0; n < union_of.size(); ++n) files[n] = stats.files[union_of[n]];
  in.labels.emplace_back("files");
  in.decimals.push_back(0);
}

// Devices of every file, each (type, index) once: the first file listing it gives its data.
// `first_listed` gets the entries that `more` adds.
void AddDevices(DeviceTable& all, const DeviceTable& more, DeviceTable& first_listed) {
  for (const DeviceTable::Entry& e : more.entries) {
    if (all.Find(e.device_type, e.device_index) != nullptr) continue;
    all.entries.push_back(e);
    first_listed.entries.push_back(e);
  }
}

Result<MergedProfiles> MergeStatsProfiles(const InputOptions& input, const ViewOptions& view,
                                          bool normalize_names) {
  MergedProfiles out;
  MergeUnion merged;
  MergeSourceCheck check;
  std::vector<ColumnRef> columns;
  DeviceTable devices;
  const auto prepare = [&](LoadedFile& file) {
    return PrepareStatsFile(file, view, normalize_names);
  };
  const auto add = [&](size_t, LoadedFile& file) -> Status {
    if (!file.empty) PROTON_RETURN_IF_ERROR(check.Check(std::move(file.source)));
    PROTON_RETURN_IF_ERROR(file.prepared);
    out.store.files.push_back(file.display_name);
    AddDevices(devices, file.tree.devices(), out.file_devices.emplace_back());
    if (file.empty) {
      out.store.holds.emplace_back();
      out.store.values.emplace_back();
      return Status();
    }
    return AddStatsFile(file, merged, out.store, columns);
  };
  PROTON_RETURN_IF_ERROR(ForEachLoadedFile(input.files, prepare, add));
  if (columns.empty()) {  // every file was empty
    return Status::Error(Quoted(MergeDisplayName(input.files.size())) +
                         " contains no profile data");
  }
  const UnionStats stats = ComputeUnionStats(out.store, columns.size(), merged.size());
  PROTON_ASSIGN_OR_RETURN(out.tree,
                          BuildStatsTree(merged, stats, view, input.files.size(), out.union_of));
  FillStatsColumns(stats, columns, out.union_of, out.in);
  return out;
}

// --merge=sum: the raw metrics added up, then the ordinary steps on the one summed profile.
Result<MergedProfiles> MergeSumProfiles(const InputOptions& input, const ViewOptions& view) {
  MergeUnion merged;
  MergeSum sum;
  MergeSourceCheck check;
  DeviceTable devices;
  std::vector<std::string> files;
  std::vector<DeviceTable> file_devices;
  const auto merge_duplicates = [](LoadedFile& file) {
    MergeDuplicates(file.tree);
    return Status();
  };
  const auto add = [&](size_t, LoadedFile& file) -> Status {
    files.push_back(file.display_name);
    if (file.empty) {
      file_devices.emplace_back();
      return Status();
    }
    PROTON_RETURN_IF_ERROR(check.Check(std::move(file.source)));
    const std::vector<NodeId> union_id = merged.Map(file.tree);  // before merged.size()
    sum.Add(file.tree, union_id, merged.size());
    AddDevices(devices, file.tree.devices(), file_devices.emplace_back());
    return Status();
  };
  PROTON_RETURN_IF_ERROR(ForEachLoadedFile(input.files, merge_duplicates, add));
  const std::string name = MergeDisplayName(input.files.size());
  MergedProfiles out;
  out.store.files = std::move(files);
  out.file_devices = std::move(file_devices);
  PROTON_ASSIGN_OR_RETURN(out.tree, sum.Build(merged, devices, name));
  PROTON_ASSIGN_OR_RETURN(std::vector<ColumnRef> columns,
                          ResolveColumns(out.tree, view.metrics, name));
  PROTON_RETURN_IF_ERROR(ApplyFilters(out.tree, view, columns[0], name));
  for (const ColumnRef& column : columns) {
    std::vector<double>& v = out.in.columns.emplace_back(out.tree.size());
    for (NodeId n = 0; n < out.tree.size(); ++n) v[n] = column.Value(out.tree, n);
    out.in.labels.push_back(column.label);
  }
  return out;
}

}  // namespace

std::string MergeDisplayName(size_t files) {
  return "<merge of " + std::to_string(files) + (files == 1 ? " file>" : " files>");
}

Result<MergedProfiles> MergeProfiles(const InputOptions& input, const ViewOptions& view,
                                     bool normalize_names) {
  // The steps above name the file that ran out; this names the steps after the last file.
  return CatchOutOfMemory("merging " + Quoted(MergeDisplayName(input.files.size())),
                          [&]() -> Result<MergedProfiles> {
                            if (input.merge == MergeMode::kSum) {
                              return MergeSumProfiles(input, view);
                            }
                            return MergeStatsProfiles(input, view, normalize_names);
                          });
}

}  // namespace proton::viewer
