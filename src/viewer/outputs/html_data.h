// The data of the --html page (viewer.md §11.12): one JSON document holding the printed tree
// as columns (arrays indexed by the page's node number, which is print order: pre-order with
// sorted children), so that a 1,000,000-node page stays small and parses fast.
//
//   {"format":"proton-viewer-report","version":1,"mode":"single"|"diff"|"merge",
//    "command":[argv...],"profiles":["FILE","DIFF_PROFILE"],"depthLimit":D,
//    "columns":[{"item":"time/us","label":"time/us (inc)"},...],
//    "devices":[{"profile":0,"type":"CUDA","index":"0","arch":"90",...}],
//    "nodes":{"size":N,"parent":[-1,0,...],"name":[0,1,1,...],"names":[...],
//             "fullNames":[...],"kind":[0,1,...],"values":[[...],...],
//             "side":[...],"now":[...],"base":[...],"rowOrder":[...],
//             "spread":[{"min":[...],"mean":[...],"max":[...],"imbalance":[...],
//                        "argmax":[...]},...],"files":[...]}}
//
// "name" indexes "names", each distinct name once as -f prints it; "fullNames" (the stored
// names, same indices) is present only when -f changes some name. "kind" is FrameKind;
// "side" (0 both, 1 only in FILE, 2 only in DIFF_PROFILE), "now" and "base" (each side's
// first column) and "rowOrder" (--print-sorted's tie order as node numbers) only in a diff. Numbers
// are shortest round-trip; NaN is null; infinities are ±1e999 (which JSON.parse reads as
// ±Infinity). A "merge" (--merge=stats) lists every FILE in "profiles"; its "values" are
// each item's median over the files, and "spread" (one object per column) and "files" (how
// many files hold the node) are only in it: argmax indexes "profiles". --merge=sum's page is a
// "single" one that lists every FILE.
//
// "nodes" holds every frame, also those below -d: the page's frame table lists and searches
// them all, and a row below -d shows its deepest drawn ancestor. So the page cuts its drawing
// at "depthLimit" itself (report.js), by the rule of print_depth.h: depths 0 .. D-1.
#pragma once

#include <string>
#include <string_view>

#include "viewer/outputs/report_input.h"

namespace proton::viewer {

// How the page colours a frame by default (its kind), from its stored name and place.
enum class FrameKind : uint8_t { kRoot = 0, kScope = 1, kPython = 2, kKernel = 3 };

// `<file>:<line>@<function>` (formats.md): some '@' preceded by ':' and one or more digits.
bool IsPythonFrameName(std::string_view name);

// The JSON document above. Every '<' is written as \u003c, so the text can sit inside a
// <script> element whatever the names contain.
std::string BuildPageData(const ReportInput& in);

}  // namespace proton::viewer
