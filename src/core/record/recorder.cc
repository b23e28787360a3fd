// The PROTON_RECORD writer; see recorder.h.
#include "core/record/recorder.h"

#include <cstdio>

#include "core/config/config.h"
#include "core/context/thread_context.h"
#include "core/dump/json_text.h"
#include "core/fork_guard.h"
#include "core/hot_flags.h"

namespace proton {
namespace {

struct RecordFile {
  ForkGuardedMutex mutex{LockRank::kLeaf};
  std::FILE* file PROTON_GUARDED_BY(mutex) = nullptr;
};

RecordFile& File() {
  static RecordFile* f = new RecordFile();
  return *f;
}

void OpenLocked(RecordFile& f, const std::string& path) PROTON_REQUIRES(f.mutex) {
  if (f.file != nullptr) std::fclose(f.file);
  f.file = path.empty() ? nullptr : std::fopen(path.c_str(), "w");
  if (!path.empty() && f.file == nullptr) {
    std::fprintf(stderr, "[proton] warning: cannot write the recording %s\n", path.c_str());
  }
  g_hot.recording.store(f.file != nullptr ? 1 : 0);
  if (f.file != nullptr) {
    g_hot.launch_extras.fetch_or(kLaunchExtraRecording);
  } else {
    g_hot.launch_extras.fetch_and(~kLaunchExtraRecording);
  }
}

}  // namespace

// PROTON_RECORD is read at first use, under the file's lock.
bool RecordingDecideOnce() {
  RecordFile& f = File();
  ForkGuardedLock lock(f.mutex);
  if (g_hot.recording.load() < 0) OpenLocked(f, GetConfig().record);
  return g_hot.recording.load() == 1;
}

void SetRecordPath(const std::string& path) {
  RecordFile& f = File();
  ForkGuardedLock lock(f.mutex);
  OpenLocked(f, path);
}

RecordLine::RecordLine(std::string_view event) {
  line_ = "{\"ev\":";
  AppendJsonString(line_, event);
  line_ += ",\"tid\":";
  AppendJsonUint(line_, ThreadToken());
}

RecordLine::~RecordLine() {
  line_ += "}\n";
  RecordFile& f = File();
  ForkGuardedLock lock(f.mutex);
  if (f.file != nullptr) {
    std::fwrite(line_.data(), 1, line_.size(), f.file);
    std::fflush(f.file);
  }
}

void RecordLine::Key(std::string_view key) {
  line_ += ",";
  AppendJsonString(line_, key);
  line_ += ":";
}

RecordLine& RecordLine::Int(std::string_view key, int64_t v) {
  Key(key);
  AppendJsonInt(line_, v);
  return *this;
}

RecordLine& RecordLine::Uint(std::string_view key, uint64_t v) {
  Key(key);
  AppendJsonUint(line_, v);
  return *this;
}

RecordLine& RecordLine::Str(std::string_view key, std::string_view v) {
  Key(key);
  AppendJsonString(line_, v);
  return *this;
}

RecordLine& RecordLine::OptInt(std::string_view key, std::optional<int> v) {
  if (v.has_value()) return Int(key, *v);
  Key(key);
  line_ += "null";
  return *this;
}

RecordLine& RecordLine::Bool(std::string_view key, bool v) {
  Key(key);
  line_ += v ? "true" : "false";
  return *this;
}

// [[name, {"i": v} | {"d": v} | {"vi": [...]} | {"vd": [...]}], ...]: types survive the trip.
RecordLine& RecordLine::MetricList(std::string_view key, const Metrics& metrics) {
  Key(key);
  line_ += "[";
  for (size_t i = 0; i < metrics.size(); ++i) {
    if (i) line_ += ",";
    line_ += "[";
    AppendJsonString(line_, metrics[i].first);
    const MetricValue& v = metrics[i].second;
    if (auto* x = std::get_if<int64_t>(&v)) {
      line_ += ",{\"i\":";
      AppendJsonInt(line_, *x);
    } else if (auto* d = std::get_if<double>(&v)) {
      line_ += ",{\"d\":";
      AppendJsonDouble(line_, *d);
    } else if (auto* vi = std::get_if<std::vector<int64_t>>(&v)) {
      line_ += ",{\"vi\":[";
      for (size_t j = 0; j < vi->size(); ++j) {
        if (j) line_ += ",";
        AppendJsonInt(line_, (*vi)[j]);
      }
      line_ += "]";
    } else {
      const auto& vd = std::get<std::vector<double>>(v);
      line_ += ",{\"vd\":[";
      for (size_t j = 0; j < vd.size(); ++j) {
        if (j) line_ += ",";
        AppendJsonDouble(line_, vd[j]);
      }
      line_ += "]";
    }
    line_ += "}]";
  }
  line_ += "]";
  return *this;
}

void RecordDevice(uint32_t id, const DeviceInfo& info) {
  RecordLine("device")
      .Uint("id", id)
      .Str("type", info.type)
      .Str("arch", info.arch)
      .Uint("bus_width", info.bus_width)
      .Uint("clock_rate", info.clock_rate)
      .Uint("memory_clock_rate", info.memory_clock_rate)
      .Uint("num_sms", info.num_sms);
}

}  // namespace proton
