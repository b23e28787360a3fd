// Test helpers; see test_util.h.
#include "core/testing/test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>

#include "core/data/tree_data.h"
#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "proton/proton.h"

namespace proton::test {

void ResetCore() {
  ProcessRuntime().sessions().DiscardAll(/*stop_backend=*/true);
  SetCommandLineMode(false);
}

Json ParseOrDie(const std::string& text) {
  Json doc;
  std::string error;
  EXPECT_TRUE(ParseJson(text, &doc, &error)) << error;
  return doc;
}

const Json* NodeAt(const Json& doc, const std::vector<std::string>& path) {
  const Json* node = &doc.array.at(0);
  for (const std::string& name : path) {
    const Json* next = nullptr;
    for (const Json& c : (*node)["children"].array) {
      if (c["frame"]["name"].s == name) next = &c;
    }
    if (next == nullptr) return nullptr;
    node = next;
  }
  return node;
}

Json SessionJson(int session) {
  auto text = GetJson(session);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? ParseOrDie(*text) : Json{};
}

std::string RefPath(const std::string& file) {
  return std::string(PROTON_REFDATA_DIR) + "/" + file;
}

std::string TempDir() {
  static std::atomic<int> n{0};
  auto dir = std::filesystem::temp_directory_path() /
             ("proton_core_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

namespace {

// A node's count and time (ns) become that many kernels, the first one carrying the time.
void AddKernels(const Json& metrics, NodeRef ref, TreeData* data) {
  const Json* count = metrics.Find("count");
  if (count == nullptr) return;
  KernelRecord record;
  record.device_id = static_cast<uint32_t>(std::stoul(metrics["device_id"].s));
  for (int64_t index = 0; index < count->i; ++index) {
    record.start_ns = 0;
    record.end_ns = index == 0 ? static_cast<uint64_t>(metrics["time (ns)"].i) : 0;
    data->AddKernel(ref, record, false);
  }
}

void AddPcCounters(const Json& metrics, NodeRef ref, TreeData* data) {
  PcCounters counters{};
  bool has_counters = false;
  for (size_t index = 0; index < kPcSamplingNames.size(); ++index) {
    if (const Json* value = metrics.Find(kPcSamplingNames[index])) {
      counters[index] = static_cast<uint64_t>(value->i);
      has_counters = true;
    }
  }
  if (has_counters) data->AddPcSampling(ref, counters);
}

// The metrics not made by kernels or PC sampling: inclusive when ROOT has them too.
void AddRawMetrics(const Json& metrics, const Json& root_metrics, NodeRef ref, TreeData* data) {
  for (const auto& [name, json_value] : metrics.object) {
    if (name == "count" || name == "time (ns)" || name == "device_id" || name == "device_type" ||
        std::find(kPcSamplingNames.begin(), kPcSamplingNames.end(), name) !=
            kPcSamplingNames.end()) {
      continue;
    }
    MetricKind kind = root_metrics.Find(name) ? MetricKind::kInclusive : MetricKind::kExclusive;
    MetricValue value;
    if (json_value.type == Json::Type::kInt) {
      value = json_value.i;
    } else {
      value = json_value.d;
    }
    EXPECT_TRUE(data->AddRawMetric(ref, name, kind, value).ok());
  }
}

void ReadDevices(const Json& device_table, DeviceTable* devices) {
  for (const auto& [type, ids] : device_table.object) {
    for (const auto& [index, info] : ids.object) {
      DeviceInfo device;
      device.type = type;
      device.arch = info["arch"].s;
      device.bus_width = static_cast<uint64_t>(info["bus_width"].i);
      device.clock_rate = static_cast<uint64_t>(info["clock_rate"].i);
      device.memory_clock_rate = static_cast<uint64_t>(info["memory_clock_rate"].i);
      device.num_sms = static_cast<uint64_t>(info["num_sms"].i);
      (*devices)[static_cast<uint32_t>(std::stoul(index))] = device;
    }
  }
}

}  // namespace

void BuildTree(const Json& doc, TreeData* data, DeviceTable* devices) {
  const Json& root = doc.array.at(0);
  const Json& root_metrics = root["metrics"];
  for (const auto& [name, value] : root_metrics.object) {
    if (name == "num_samples") data->SetPcSamplingMode(true);
  }
  // Explicit stack of (json node, data node).
  std::vector<std::pair<const Json*, NodeRef>> stack{{&root, data->Root()}};
  while (!stack.empty()) {
    auto [json, ref] = stack.back();
    stack.pop_back();
    const Json& metrics = (*json)["metrics"];
    if (ref.node != kRootNode) {
      AddKernels(metrics, ref, data);
      AddPcCounters(metrics, ref, data);
      AddRawMetrics(metrics, root_metrics, ref, data);
    }
    for (const Json& child : (*json)["children"].array) {
      stack.emplace_back(&child, data->Child(ref, child["frame"]["name"].s));
    }
  }
  if (doc.array.size() > 1) ReadDevices(doc.array[1], devices);
}

std::string ShapeOf(const Json& doc) {
  std::string out;
  std::vector<std::pair<const Json*, std::string>> stack{{&doc.array.at(0), "ROOT"}};
  while (!stack.empty()) {
    auto [node, path] = stack.back();
    stack.pop_back();
    std::vector<std::string> keys;
    std::string count = "-";
    for (const auto& [k, v] : (*node)["metrics"].object) {
      keys.push_back(k);
      if (k == "count") count = std::to_string(v.i);
    }
    std::sort(keys.begin(), keys.end());
    out += path + "  count=" + count + "  keys=";
    for (size_t i = 0; i < keys.size(); ++i) out += (i ? "," : "") + keys[i];
    out += "\n";
    std::vector<const Json*> kids;
    for (const Json& c : (*node)["children"].array) kids.push_back(&c);
    std::sort(kids.begin(), kids.end(), [](const Json* a, const Json* b) {
      return (*a)["frame"]["name"].s > (*b)["frame"]["name"].s;
    });
    for (const Json* c : kids) stack.emplace_back(c, path + "/" + (*c)["frame"]["name"].s);
  }
  return out;
}

}  // namespace proton::test
