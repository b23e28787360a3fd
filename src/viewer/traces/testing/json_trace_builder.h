// Test helper: Chrome-trace JSON in our profiler's layout (formats.md §6), with or without
// baseTimeNanoseconds, built event by event.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace proton::viewer::traces::testing {

class JsonTraceBuilder {
 public:
  // Lanes by tid: names as our profiler writes them.
  void Lane(int tid, const std::string& name) {
    Add(R"({"args":{"name":")" + name + R"("},"name":"thread_name","ph":"M","pid":0,"tid":)" +
        std::to_string(tid) + "}");
  }
  void Kernel(int tid, double ts_us, double dur_us, const std::string& name,
              const std::vector<std::string>& stack = {}) {
    std::string args = R"({"call_stack":["ROOT")";
    for (const std::string& f : stack) args += ",\"" + f + "\"";
    args += ",\"" + name + "\"]}";
    Add(R"({"args":)" + args + R"(,"cat":"kernel","dur":)" + Num(dur_us) + R"(,"name":")" + name +
        R"(","ph":"X","pid":0,"tid":)" + std::to_string(tid) + R"(,"ts":)" + Num(ts_us) + "}");
  }
  void Scope(int tid, double ts_us, double dur_us, const std::string& name) {
    Add(R"({"cat":"scope","dur":)" + Num(dur_us) + R"(,"name":")" + name +
        R"(","ph":"X","pid":0,"tid":)" + std::to_string(tid) + R"(,"ts":)" + Num(ts_us) + "}");
  }
  void Flow(char phase, int tid, double ts_us, uint64_t id) {
    Add(std::string(phase == 'f' ? R"({"bp":"e",)" : "{") + R"("cat":"flow","id":)" +
        std::to_string(id) + R"(,"name":"launch->kernel","ph":")" + phase + R"(","pid":0,"tid":)" +
        std::to_string(tid) + R"(,"ts":)" + Num(ts_us) + "}");
  }
  std::string Build(std::optional<int64_t> base_ns) const {
    std::string out = "{";
    if (base_ns) out += R"("baseTimeNanoseconds":)" + std::to_string(*base_ns) + ",";
    out += R"("displayTimeUnit":"us","traceEvents":[)";
    for (size_t i = 0; i < events_.size(); ++i) out += (i ? "," : "") + events_[i];
    return out + "]}\n";
  }

 private:
  static std::string Num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
  }
  void Add(std::string e) { events_.push_back(std::move(e)); }
  std::vector<std::string> events_;
};

}  // namespace proton::viewer::traces::testing
