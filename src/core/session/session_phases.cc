// SessionManager's phase calls and the phase writer's work (profiler.md §1.7, §3.11, §5.14).
// Completion is exact: a sealed phase is complete once no launch captured into its data still
// waits for a record (Correlator::CollectDataInFlight), whatever order records arrive in.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <unordered_map>

#include "core/config/config.h"
#include "core/correlation/correlator.h"
#include "core/runtime/runtime.h"
#include "core/session/phase_writer.h"
#include "core/session/session_manager.h"
#include "core/session/write_data.h"

namespace proton {

// One completed phase taken for writing, with what its write needs once the lock is gone.
struct PartJob {
  std::shared_ptr<Session> session;
  int phase;
  std::shared_ptr<Data> data;
  DeviceTable devices;
};

namespace {

// Writes one part and frees its data; a failed write gives the phase back to the session, so
// that finalize writes it (or reports why it cannot): nothing recorded is dropped.
void WritePart(const Runtime& runtime, const PartJob& job) {
  Session& s = *job.session;
  if (job.data->RecordedNothing()) return;  // no part for an empty phase (§3.11)
  std::string base = s.name.empty() || s.name == "-" ? std::string(kDefaultProfileName) : s.name;
  std::string path =
      runtime.OutputPathFor(PartName(base, job.phase), s.flush_format, s.default_name);
  auto begin = std::chrono::steady_clock::now();
  Status st = WriteDataFile(*job.data, job.devices, path, s.flush_format, /*pretty=*/false);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  if (!st.ok()) {
    std::fprintf(stderr, "[proton] error: phase %d of session %d not written: %s\n", job.phase,
                 s.id, st.message().c_str());
    job.session->phases.Restore(job.phase, job.data);
    return;
  } else {
    std::error_code ec;
    uintmax_t size = std::filesystem::file_size(path, ec);
    PhaseWriter::AddWritten(ec ? 0 : size, ms / 1000.0);
    s.parts_written.fetch_add(1);
    s.last_part_path = path;
    if (GetConfig().data_flush_timing) {
      std::fprintf(stderr, "[proton] flushed phase %d of session %d to %s: %ju bytes in %.3f ms\n",
                   job.phase, s.id, path.c_str(), ec ? uintmax_t{0} : size, ms);
    } else if (GetConfig().verbose) {
      std::fprintf(stderr, "[proton] wrote %s\n", path.c_str());
    }
  }
  // Freed now; threads that still hold the data from before their next refresh keep only an
  // empty tree, and a late record for it is dropped as stale.
  job.data->Clear();
}

// PROTON_VERBOSE: why a sealed phase is not written yet, at most once a second per process
// (the writer checks every 20 ms).
void ReportWaitingPhase(const Session& s, int phase, size_t launches) {
  if (!GetConfig().verbose) return;
  static std::atomic<int64_t> last_ms{0};
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count();
  int64_t last = last_ms.load(std::memory_order_relaxed);
  if (now - last < 1000 || !last_ms.compare_exchange_strong(last, now)) return;
  std::fprintf(stderr, "[proton] phase %d of session %d waits for the records of %zu launches\n",
               phase, s.id, launches);
}

}  // namespace

void SessionManager::UpdateCompletionLocked(const std::vector<std::shared_ptr<Session>>& sessions) {
  bool any_sealed = false;
  for (const auto& s : sessions) any_sealed = any_sealed || !s->phases.SealedIncomplete().empty();
  if (!any_sealed) return;
  std::unordered_map<const Data*, size_t> in_flight;
  correlator_->CollectDataInFlight(&in_flight);
  for (const auto& s : sessions) {
    for (auto [phase, data] : s->phases.SealedIncomplete()) {
      auto it = in_flight.find(data);
      if (it == in_flight.end()) {
        s->phases.MarkComplete(phase);
      } else {
        ReportWaitingPhase(*s, phase, it->second);
      }
    }
  }
}

Result<int> SessionManager::AdvancePhase(int session) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "advanced"));
  ForkGuardedLock lock(mutex_);
  PROTON_ASSIGN_OR_RETURN(std::shared_ptr<Session> target, SessionLocked(session));
  Session& s = *target;
  int phase = s.phases.Advance();
  // Threads pick up the new phase's data at their next launch or scope.
  g_hot.session_epoch.fetch_add(1, std::memory_order_seq_cst);
  if (s.periodic_flushing()) runtime_.phase_writer().Wake();
  return phase;
}

Result<bool> SessionManager::IsPhaseComplete(int session, int phase) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "checked"));
  ForkGuardedLock lock(mutex_);
  PROTON_ASSIGN_OR_RETURN(std::shared_ptr<Session> target, SessionLocked(session));
  if (!target->phases.IsComplete(phase) && phase < target->phases.current_phase()) {
    UpdateCompletionLocked({target});
    if (!target->phases.IsComplete(phase)) {
      // Records of finished kernels may still sit in the backend's buffers: the writer thread
      // fetches them (it may wait for the device; this call must not), so that polling makes
      // progress without deactivate(flushing=True).
      target->completion_polled.store(true);
      runtime_.phase_writer().Wake();
    }
  }
  return target->phases.IsComplete(phase);
}

// Sessions whose sealed phases the writer watches: periodic-flushing ones, and those whose
// completion a program polls (is_phase_complete), until their sealed phases are complete.
std::vector<std::shared_ptr<Session>> SessionManager::WatchedSessionsLocked() {
  std::vector<std::shared_ptr<Session>> watched;
  for (auto& [id, s] : sessions_) {
    if (s->periodic_flushing() || s->completion_polled.load()) watched.push_back(s);
  }
  return watched;
}

// The backend to fetch finished records from: the one running while a watched session has a
// sealed phase that is not complete yet.
Backend* SessionManager::BackendToFlushLocked() {
  Backend* backend = nullptr;
  for (auto& s : WatchedSessionsLocked()) {
    if (!s->phases.SealedIncomplete().empty()) backend = backend_.get();
  }
  return backend;
}

// Takes the completed phases of periodic-flushing sessions for writing; returns whether a
// sealed phase still waits for its records.
bool SessionManager::TakeCompletedPartsLocked(std::vector<PartJob>* jobs) {
  bool waiting = false;
  std::vector<std::shared_ptr<Session>> watched = WatchedSessionsLocked();
  UpdateCompletionLocked(watched);
  for (auto& s : watched) {
    if (s->periodic_flushing()) {
      for (auto& [phase, data] : s->phases.TakeCompleteUnwritten()) {
        jobs->push_back(PartJob{s, phase, data, DevicesForLocked(*data)});
      }
    }
    bool sealed = !s->phases.SealedIncomplete().empty();
    if (!sealed) s->completion_polled.store(false);
    waiting = waiting || sealed;
  }
  return waiting;
}

// Never waits for the lock: finalize holds it while it waits for this thread to be idle.
bool SessionManager::WriteCompletedParts() {
  Backend* backend = nullptr;
  {
    ForkGuardedLock lock(mutex_, std::defer_lock);
    if (!lock.TryLock()) return true;
    backend = BackendToFlushLocked();
  }
  // Outside the lock, since it may wait for the device. The backend outlives the call: whatever
  // stops it first waits for this thread to be idle (PhaseWriter::WaitIdle).
  if (backend != nullptr) backend->FlushCompleted();
  std::vector<PartJob> jobs;
  bool waiting = false;
  {
    ForkGuardedLock lock(mutex_, std::defer_lock);
    if (!lock.TryLock()) return true;
    waiting = TakeCompletedPartsLocked(&jobs);
  }
  for (const PartJob& job : jobs) WritePart(runtime_, job);
  if (!jobs.empty()) {
    jobs.clear();  // our shares of the written data go first: the last share retires it
    ForkGuardedLock lock(mutex_, std::defer_lock);
    if (lock.TryLock()) correlator_->FreeRetiredData();
  }
  return waiting;
}

}  // namespace proton
