// See merge_traces.h.
#include "viewer/merge/merge_traces.h"

#include <cstdio>
#include <memory>
#include <optional>

#include "format/profile_reader.h"
#include "util/out_of_memory.h"
#include "util/thread_annotations.h"
#include "viewer/merge/load_in_order.h"
#include "viewer/merge/rank_label.h"
#include "viewer/outputs/output_file.h"
#include "viewer/traces/merged_trace_writer.h"
#include "viewer/traces/trace_reader.h"
#include "viewer/traces/trace_store.h"

namespace proton::viewer {
namespace {

using traces::TraceFileKind;

constexpr std::string_view kStopped = "(stopped at the first event)";

// Reads a trace only until its first track or event: enough to know that it is one.
class FirstEventProbe : public traces::TraceVisitor {
 public:
  Status OnBegin(const traces::TraceInfo&) override { return Status(); }
  Status OnTrack(const traces::Track&) override { return Status::Error(std::string(kStopped)); }
  Status OnEvent(const traces::TraceEvent&) override {
    return Status::Error(std::string(kStopped));
  }
  Status OnEnd(const traces::TraceSummary&) override { return Status(); }
};

// A regular FILE's first bytes (and a JSON file's first event), checked before anything is
// written: a tree profile among the traces is refused at once, not after the traces before it
// were converted. Pipes and standard input are decided while they are read.
Status CheckStart(const std::string& file) {
  const std::optional<TraceFileKind> kind = traces::SniffTraceFile(file);
  const std::string name = format::DisplayName(file);
  if (!kind || *kind == TraceFileKind::kPerfetto) return Status();
  if (*kind == TraceFileKind::kTreeProfile) {
    return Status::Error("'" + name + "' is a Proton tree profile, not a trace");
  }
  if (*kind == TraceFileKind::kNeither) {
    return Status::Error("cannot read '" + name +
                         "': not a Chrome (JSON) or Perfetto (protobuf) trace");
  }
  FirstEventProbe probe;
  Status s = traces::ReadTraceFile(file, probe);
  if (s.ok() || s.message() == kStopped) return Status();
  return s;
}

void Warnings(const std::string& name, const traces::TraceStore& store,
              const traces::InputCounts& counts,
              const std::function<void(std::string_view)>& warn) {
  if (!store.info().absolute_time && !store.events().empty()) {
    warn("'" + name + "' has no absolute time (no baseTimeNanoseconds, or not on the REALTIME " +
         "clock): it is placed at its own zero");
  }
  if (store.summary().unsupported != 0) {
    warn("'" + name + "': " + std::to_string(store.summary().unsupported) +
         " events of kinds a merged trace does not show (counters, B/E pairs, ...) left out");
  }
  if (store.summary().unmatched != 0) {
    warn("'" + name + "': " + std::to_string(store.summary().unmatched) +
         " slice begins or ends without their other half left out");
  }
  if (counts.flows.dropped != 0) {
    warn("'" + name + "': " + std::to_string(counts.flows.dropped) +
         " flows without exactly one start and one end left out");
  }
}

// The stores of the inputs in flight (the one being written, the next being read), kept and
// handed out again: a fresh store for every input would fault in its pages each time.
class StorePool {
 public:
  std::unique_ptr<traces::TraceStore> Take() PROTON_EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    if (free_.empty()) return std::make_unique<traces::TraceStore>();
    std::unique_ptr<traces::TraceStore> store = std::move(free_.back());
    free_.pop_back();
    return store;
  }
  void Give(std::unique_ptr<traces::TraceStore> store) PROTON_EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    free_.push_back(std::move(store));
  }

 private:
  Mutex mutex_;
  std::vector<std::unique_ptr<traces::TraceStore>> free_ PROTON_GUARDED_BY(mutex_);
};

using StorePtr = std::unique_ptr<traces::TraceStore>;

// Reads one input into a store from the pool (on the loader thread).
Result<StorePtr> LoadTrace(const std::string& file, StorePool& pool) {
  const std::string name = format::DisplayName(file);
  return CatchOutOfMemory("merging '" + name + "'", [&]() -> Result<StorePtr> {
    PROTON_ASSIGN_OR_RETURN(std::unique_ptr<traces::TraceInput> input,
                            traces::TraceInput::Open(file));
    StorePtr store = pool.Take();
    store->Clear();
    store->set_name(name);
    store->ReserveFor(input->file_size());
    PROTON_RETURN_IF_ERROR(traces::ReadTrace(*input, *store));
    return store;
  });
}

// Writes one read input as the process `position` (on the calling thread, in FILE order).
Status WriteTrace(const std::string& file, uint32_t position, traces::TraceStore& store,
                  traces::MergedTraceWriter& writer, bool& write_failed,
                  const std::function<void(std::string_view)>& warn) {
  const std::string name = format::DisplayName(file);
  return CatchOutOfMemory("merging '" + name + "'", [&]() -> Status {
    traces::InputCounts counts;
    write_failed = !writer.WriteInput(store, position, RankLabel(file, position), name, counts);
    if (!write_failed) Warnings(name, store, counts, warn);
    return Status();
  });
}

}  // namespace

Status MergeTraces(const std::vector<std::string>& files, const std::string& out_path,
                   const std::function<void(std::string_view)>& warn) {
  for (const std::string& file : files) PROTON_RETURN_IF_ERROR(format::CheckInput(file));
  for (const std::string& file : files) PROTON_RETURN_IF_ERROR(CheckStart(file));
  PROTON_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(out_path));
  std::FILE* stream = out.get();
  traces::MergedTraceWriter writer([stream](std::string_view bytes) {
    return std::fwrite(bytes.data(), 1, bytes.size(), stream) == bytes.size();
  });
  bool write_failed = !writer.Begin();
  StorePool pool;
  // One loader thread reads FILE i + 1 while FILE i is written: two inputs in memory at most.
  const Status status = InOrderLoader<StorePtr>::Run(
      files.size(), /*threads=*/1, /*window=*/1,
      [&](size_t i) { return LoadTrace(files[i], pool); },
      [&](size_t i, StorePtr& store) -> Status {
        if (write_failed) return Status();  // the output's error comes from Commit
        PROTON_RETURN_IF_ERROR(
            WriteTrace(files[i], static_cast<uint32_t>(i), *store, writer, write_failed, warn));
        pool.Give(std::move(store));
        return Status();
      });
  PROTON_RETURN_IF_ERROR(status);
  if (!write_failed) writer.Finish();
  return out.Commit();  // a failed write is its error
}

}  // namespace proton::viewer
