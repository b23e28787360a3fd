// What the side outputs that draw the printed tree (--html, --speedscope; viewer.md §11.12)
// read: the printer's own input, so that they show exactly what the terminal shows, plus the
// context the terminal does not print (command line, devices, both sides of a diff, the
// files of a merge).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "viewer/common/options.h"
#include "viewer/ops/stragglers.h"
#include "viewer/outputs/printers.h"

namespace proton::viewer {

struct ReportProfile {
  std::string name;  // as in messages ('<stdin>' for '-')
  const DeviceTable* devices = nullptr;
};

// What the page draws: one profile (or --merge=sum's summed one), a diff of two, or
// --merge=stats's statistics over many.
enum class ReportMode : uint8_t { kSingle, kDiff, kMerge };

struct ReportInput {
  ReportMode mode = ReportMode::kSingle;
  // kMerge: print->columns are the merge printer's, per item kMergeStatCount columns in
  // kMergePrintOrder (median first) and then the number of files holding the node.
  const PrintInput* print = nullptr;
  std::vector<std::string> items;  // the -m items as typed, one per column
  int64_t depth = 100;             // -d: the graph draws what the tree prints
  NameFormat format = NameFormat::kFull;
  std::vector<std::string> command;  // argv, program name first
  // FILE, then DIFF_PROFILE when diffing; with --merge every FILE, each with the devices it
  // lists first.
  std::vector<ReportProfile> profiles;
  // What names the report where no one FILE does ('<merge of 3 files>'); empty otherwise.
  std::string title;
  // Diff only: each side's first column per node of print->tree (NaN where the side lacks
  // the node), so that frames have a width and their hover shows both values.
  std::vector<double> now;
  std::vector<double> base;
  // --stragglers (§11.15): the report the page shows in its own section; null without.
  const StragglerReport* stragglers = nullptr;
};

}  // namespace proton::viewer
