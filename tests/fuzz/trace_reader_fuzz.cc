// libFuzzer target for the trace readers and the merged trace (viewer.md §11.17): the input is
// one trace file (Chrome JSON or Perfetto protobuf, told apart as the command does), read
// through a small window so that items straddle its ends, and, when it reads, merged into a
// Perfetto trace that testing/merged_trace_checker.h then decodes on its own.
// Invariants checked: a read either succeeds or fails with one non-empty line naming the file;
// the visitor sees OnBegin once before any track or event, every event on an announced track
// with end >= start, OnEnd once after a success; the merged output breaks no rule of
// formats.md §9 (tracks, nesting, timestamps, flows, interning). Nothing crashes, leaks, hangs
// or hits undefined behaviour.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "viewer/traces/merged_trace_writer.h"
#include "viewer/traces/testing/merged_trace_checker.h"
#include "viewer/traces/trace_reader.h"
#include "viewer/traces/trace_store.h"

namespace {

using proton::Status;
namespace traces = proton::viewer::traces;

// Checks the visitor protocol, then hands everything to the store.
class CheckingStore : public traces::TraceStore {
 public:
  Status OnBegin(const traces::TraceInfo& info) override {
    if (begun_ || ended_) std::abort();
    begun_ = true;
    return TraceStore::OnBegin(info);
  }
  Status OnTrack(const traces::Track& track) override {
    if (!begun_ || ended_) std::abort();
    if (track.index > tracks_seen_) std::abort();  // numbered in order of first sight
    if (track.index == tracks_seen_) ++tracks_seen_;
    return TraceStore::OnTrack(track);
  }
  Status OnEvent(const traces::TraceEvent& e) override {
    if (!begun_ || ended_ || e.track >= tracks_seen_ || e.end_ns < e.start_ns) std::abort();
    if (e.instant && e.end_ns != e.start_ns) std::abort();
    return TraceStore::OnEvent(e);
  }
  Status OnEnd(const traces::TraceSummary& summary) override {
    if (!begun_ || ended_) std::abort();
    ended_ = true;
    return TraceStore::OnEnd(summary);
  }
  bool ended() const { return ended_; }

 private:
  bool begun_ = false, ended_ = false;
  uint32_t tracks_seen_ = 0;
};

// A memfd holding `bytes`, so that the reader's file path (window refills) runs; -1 on failure.
int MemoryFile(std::string_view bytes) {
  const int fd = ::memfd_create("trace_fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += static_cast<size_t>(n);
  }
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool kSmallWindow = [] {
    traces::TraceInput::SetChunkForTest(61);  // items straddle window ends everywhere
    return true;
  }();
  (void)kSmallWindow;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const int fd = MemoryFile(bytes);
  if (fd < 0) return 0;
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  CheckingStore store;
  const Status read = traces::ReadTraceFile(path, store);
  ::close(fd);
  if (!read.ok()) {
    const std::string& m = read.message();
    if (m.empty() || m.find('\n') != std::string::npos || m.find(path) == std::string::npos) {
      std::abort();
    }
    return 0;
  }
  if (!store.ended()) std::abort();
  std::string merged;
  traces::MergedTraceWriter writer([&](std::string_view b) {
    merged.append(b);
    return true;
  });
  traces::InputCounts counts;
  if (!writer.Begin(1, 1) || !writer.WriteInput(store, 0, "rank 0", path, counts) ||
      !writer.Finish()) {
    std::abort();
  }
  if (!traces::testing::CheckMergedTrace(merged).problems.empty()) std::abort();
  return 0;
}
