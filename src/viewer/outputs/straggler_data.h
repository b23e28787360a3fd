// The --stragglers report in the --html page's data (viewer.md §11.15; html_data.h):
//
//   "stragglers":{"item":"time/ms","slowPct":5,"ranks":["rank0",...],"steps":[0,1,...],
//     "values":[[per rank]...per step],"median":[per step],"slowest":[rank or -1],
//     "lag":[per step],"topFrame":[[names from ROOT] or null],"topExcess":[per step],
//     "rankSteps":[per rank],"rankSlow":[...],"rankSlowest":[...],"rankMedianLag":[...],
//     "persistent":[true|false per rank]}
//
// Numbers as in html_data.h: shortest round-trip, NaN null, infinities ±1e999.
#pragma once

#include <string>

#include "viewer/ops/stragglers.h"

namespace proton::viewer {

// Appends `"stragglers":{...}` (no separator before it).
void AppendStragglerData(std::string& out, const StragglerReport& report);

}  // namespace proton::viewer
