// Helpers shared by the core tests: reset the process-wide state between tests, rebuild a
// TreeData from a .hatchet document, and describe a tree's shape for comparisons.
#pragma once

#include <string>
#include <vector>

#include "core/dump/node_metrics.h"
#include "core/testing/json_reader.h"

namespace proton::test {

// Drops every session, leaves CLI mode, restores the default output path.
void ResetCore();

// Rebuilds `doc` ([root, devices]) as TreeData: kernel metrics, PC-sampling counters, and
// flexible metrics stored raw (inclusive when ROOT has a placeholder for them).
void BuildTree(const Json& doc, TreeData* data, DeviceTable* devices);

// One line per node: "ROOT/a/b  count=N  keys=k1,k2" in pre-order with children sorted; kernel
// times are left out, so runs of the same workload compare equal.
std::string ShapeOf(const Json& doc);

Json ParseOrDie(const std::string& text);

// The node at `path` below ROOT of a [root, devices] document, or nullptr.
const Json* NodeAt(const Json& doc, const std::vector<std::string>& path);
// data.get of a session, parsed.
Json SessionJson(int session);
std::string RefPath(const std::string& file);  // tests/refdata/<file>
std::string TempDir();                         // a fresh directory for this test

}  // namespace proton::test
