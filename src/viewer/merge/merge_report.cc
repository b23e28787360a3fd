// See merge_report.h.
#include "viewer/merge/merge_report.h"

namespace proton::viewer {

ReportInput MakeMergeReport(const MergedProfiles& merged, MergeMode mode, const ViewOptions& view,
                            const std::vector<std::string>& argv) {
  ReportInput r;
  r.mode = mode == MergeMode::kSum ? ReportMode::kSingle : ReportMode::kMerge;
  r.print = &merged.in;
  r.items = view.metrics;
  r.depth = view.depth;
  r.format = view.format;
  r.command.push_back("proton-viewer");
  r.command.insert(r.command.end(), argv.begin(), argv.end());
  for (size_t f = 0; f < merged.store.files.size(); ++f) {
    r.profiles.push_back({merged.store.files[f], &merged.file_devices[f]});
  }
  r.title = MergeDisplayName(merged.store.files.size());
  return r;
}

}  // namespace proton::viewer
