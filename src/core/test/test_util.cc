// Test helpers; see test_util.h.
#include "core/test/test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>

#include "core/session/cli_mode.h"
#include "core/session/session_manager.h"
#include "core/data/tree_data.h"
#include "proton/proton.h"

namespace proton::test {

void ResetCore() {
  SessionManager::Get().DiscardAll(/*stop_backend=*/true);
  SetCommandLineMode(false);
  SetOutputPathFunction(nullptr);
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

std::string RefPath(const std::string& file) { return std::string(PROTON_REFDATA_DIR) + "/" + file; }

std::string TempDir() {
  static std::atomic<int> n{0};
  auto dir = std::filesystem::temp_directory_path() /
             ("proton_core_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

void BuildTree(const Json& doc, TreeData* data, DeviceTable* devices) {
  const Json& root = doc.array.at(0);
  const Json& root_metrics = root["metrics"];
  for (const auto& [name, v] : root_metrics.object) {
    if (name == "num_samples") data->SetPcSamplingMode(true);
  }
  // Explicit stack of (json node, data node).
  std::vector<std::pair<const Json*, NodeRef>> stack{{&root, data->Root()}};
  while (!stack.empty()) {
    auto [json, ref] = stack.back();
    stack.pop_back();
    const Json& metrics = (*json)["metrics"];
    if (ref.node != kRootNode) {
      if (const Json* count = metrics.Find("count")) {
        KernelRecord r;
        r.device_id = static_cast<uint32_t>(std::stoul(metrics["device_id"].s));
        for (int64_t i = 0; i < count->i; ++i) {
          r.start_ns = 0;
          r.end_ns = i == 0 ? static_cast<uint64_t>(metrics["time (ns)"].i) : 0;
          data->AddKernel(ref, r, false);
        }
      }
      PcCounters pc{};
      bool has_pc = false;
      for (size_t i = 0; i < kPcSamplingNames.size(); ++i) {
        if (const Json* v = metrics.Find(kPcSamplingNames[i])) {
          pc[i] = static_cast<uint64_t>(v->i);
          has_pc = true;
        }
      }
      if (has_pc) data->AddPcSampling(ref, pc);
      for (const auto& [name, v] : metrics.object) {
        if (name == "count" || name == "time (ns)" || name == "device_id" ||
            name == "device_type" ||
            std::find(kPcSamplingNames.begin(), kPcSamplingNames.end(), name) !=
                kPcSamplingNames.end()) {
          continue;
        }
        MetricKind kind =
            root_metrics.Find(name) ? MetricKind::kInclusive : MetricKind::kExclusive;
        MetricValue value;
        if (v.type == Json::Type::kInt) {
          value = v.i;
        } else {
          value = v.d;
        }
        EXPECT_TRUE(data->AddRawMetric(ref, name, kind, value).ok());
      }
    }
    for (const Json& child : (*json)["children"].array) {
      stack.emplace_back(&child, data->Child(ref, child["frame"]["name"].s));
    }
  }
  if (doc.array.size() > 1) {
    for (const auto& [type, ids] : doc.array[1].object) {
      for (const auto& [index, info] : ids.object) {
        DeviceInfo d;
        d.type = type;
        d.arch = info["arch"].s;
        d.bus_width = static_cast<uint64_t>(info["bus_width"].i);
        d.clock_rate = static_cast<uint64_t>(info["clock_rate"].i);
        d.memory_clock_rate = static_cast<uint64_t>(info["memory_clock_rate"].i);
        d.num_sms = static_cast<uint64_t>(info["num_sms"].i);
        (*devices)[static_cast<uint32_t>(std::stoul(index))] = d;
      }
    }
  }
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
