// A runtime's sessions and the one backend they share (profiler.md §1.2-§1.4, §3.9); the
// runtime (src/core/runtime/runtime.h) owns it and hands it the registry, clock, naming and
// phase writer it uses. API calls run under one lock; application threads read an immutable
// snapshot of the session list through an epoch counter, so scope and launch paths take no
// global lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/dump/node_metrics.h"
#include "core/fork_guard.h"
#include "core/session/session.h"
#include "proton/proton.h"

namespace proton {

class Correlator;
class Runtime;
struct PartJob;  // session_phases.cc
using SessionList = std::vector<std::shared_ptr<Session>>;

class SessionManager {
 public:
  explicit SessionManager(Runtime& runtime);
  ~SessionManager();
  SessionManager(const SessionManager&) = delete;
  SessionManager& operator=(const SessionManager&) = delete;
  // Application threads: the current session list and the epoch it belongs to
  // (g_hot.session_epoch).
  std::shared_ptr<const SessionList> Snapshot(uint64_t* epoch);

  // `cli_start` bypasses the command-line-mode rule that makes start() return None.
  // `scopes_only` (CLI lazy start): no backend now; a later CLI start of the same session
  // starts it.
  Result<std::optional<int>> Start(const StartOptions& options, bool cli_start,
                                   bool scopes_only = false) PROTON_EXCLUDES(mutex_);
  Status Activate(std::optional<int> session) PROTON_EXCLUDES(mutex_);
  Status Deactivate(std::optional<int> session, bool flushing) PROTON_EXCLUDES(mutex_);
  // Writes and drops `session` (all: nullopt). `synchronize` false (the signal path, §2.10):
  // the flush does not wait for the device, so a hung kernel cannot block the write.
  Status Finalize(std::optional<int> session, std::string_view output_format,
                  bool synchronize = true) PROTON_EXCLUDES(mutex_);
  Result<std::string> GetData(int session, int phase, bool msgpack) PROTON_EXCLUDES(mutex_);
  Status Clear(int session, int phase, bool clear_up_to_phase) PROTON_EXCLUDES(mutex_);
  // Phases (§1.7, §3.11): the new phase's number; whether `phase` is complete.
  Result<int> AdvancePhase(int session) PROTON_EXCLUDES(mutex_);
  Result<bool> IsPhaseComplete(int session, int phase) PROTON_EXCLUDES(mutex_);
  // The phase writer thread (phase_writer.h): writes the completed phases of periodic-flushing
  // sessions as part files and frees them. Returns true while a sealed phase still waits for
  // its records (call again after a pause).
  bool WriteCompletedParts() PROTON_EXCLUDES(mutex_);
  bool profiling_on() const { return profiling_on_.load(); }
  // CLI mode, no session yet: runs the runtime's lazy start once (cli_mode.h).
  // `entering_scope_id`: the scope being entered (it belongs to the new session), or 0.
  void MaybeStartLazily(uint64_t entering_scope_id);
  // The first scope id a lazily started CLI session counts.
  uint64_t FirstScopeIdOfLazyStart() const;
  // Drops every session without writing (a forked child must never write its parent's data).
  // `stop_backend` false (fork): the parent's backend object is abandoned, never called.
  // True (tests, a runtime's end): the backend is stopped and freed.
  void DiscardAll(bool stop_backend = false) PROTON_EXCLUDES(mutex_);
  // In a forked child (Runtime::AfterForkChild): remembers whether the parent had a GPU
  // backend, then drops the parent's sessions.
  void AfterForkChild() PROTON_EXCLUDES(mutex_);
  // In a forked child: whether the parent had a GPU backend when it forked.
  bool parent_had_backend() PROTON_EXCLUDES(mutex_);
  Correlator& correlator() { return *correlator_; }
  // Whether a real backend (not scopes-only) is running; tests use it.
  bool backend_running() PROTON_EXCLUDES(mutex_);
  // Sessions held now (tests).
  size_t session_count() PROTON_EXCLUDES(mutex_);
  // Publishes the session list again (the runtime became the process-wide one).
  void Republish() PROTON_EXCLUDES(mutex_);

 private:
  void PublishLocked() PROTON_REQUIRES(mutex_);
  Status CheckCliSession(std::optional<int> session, const char* what);
  // Finalize's steps, in order (Finalize reads as their list).
  std::vector<std::shared_ptr<Session>> FinalizeTargetsLocked(std::optional<int> session)
      PROTON_REQUIRES(mutex_);
  Status CheckFormatsLocked(const std::vector<std::shared_ptr<Session>>& targets,
                            const std::string& format) PROTON_REQUIRES(mutex_);
  void SealLocked(const std::vector<std::shared_ptr<Session>>& targets) PROTON_REQUIRES(mutex_);
  void FlushBackendLocked(bool synchronize) PROTON_REQUIRES(mutex_);
  Status WriteSessionsLocked(const std::vector<std::shared_ptr<Session>>& targets,
                             const std::string& format) PROTON_REQUIRES(mutex_);
  void FreeLocked(const std::vector<std::shared_ptr<Session>>& targets) PROTON_REQUIRES(mutex_);
  // The session with id `session`, or "Session has not been initialized: <n>".
  Result<std::shared_ptr<Session>> SessionLocked(int session) PROTON_REQUIRES(mutex_);
  std::vector<std::shared_ptr<Session>> TargetsLocked(std::optional<int> session, Status* status)
      PROTON_REQUIRES(mutex_);
  DeviceTable DevicesForLocked(Data& data) PROTON_REQUIRES(mutex_);
  Status WriteSessionLocked(Session& session, std::string_view format) PROTON_REQUIRES(mutex_);
  std::vector<std::shared_ptr<Session>> WatchedSessionsLocked() PROTON_REQUIRES(mutex_);
  // Marks complete every sealed phase of `sessions` with no launch in flight.
  void UpdateCompletionLocked(const std::vector<std::shared_ptr<Session>>& sessions)
      PROTON_REQUIRES(mutex_);
  // The phase writer's steps (session_phases.cc).
  Backend* BackendToFlushLocked() PROTON_REQUIRES(mutex_);
  bool TakeCompletedPartsLocked(std::vector<PartJob>* jobs) PROTON_REQUIRES(mutex_);
  void StopBackendIfUnusedLocked() PROTON_REQUIRES(mutex_);
  // Starts the shared backend when none runs. In CLI mode a refusal sets
  // cli_backend_refused_ and returns OK; for the API it returns the backend's error.
  Status StartBackendLocked(const std::string& backend, const std::string& mode, bool cli_start)
      PROTON_REQUIRES(mutex_);
  // Start on a session name that exists: the session is active again (and, for the CLI's
  // start after a lazy one, the backend starts).
  Status ReactivateLocked(Session& session, const std::string& backend, const std::string& mode,
                          bool cli_start, bool scopes_only) PROTON_REQUIRES(mutex_);
  // Sessions sharing a backend share its mode.
  Status CheckSameModeLocked(const std::string& backend, const std::string& mode)
      PROTON_REQUIRES(mutex_);

  Runtime& runtime_;
  ForkGuardedMutex mutex_{LockRank::kSessions};
  std::map<int, std::shared_ptr<Session>> sessions_ PROTON_GUARDED_BY(mutex_);
  int next_id_ PROTON_GUARDED_BY(mutex_) = 0;
  std::unique_ptr<Backend> backend_ PROTON_GUARDED_BY(mutex_);
  std::string backend_name_ PROTON_GUARDED_BY(mutex_);
  std::map<uint32_t, DeviceInfo> device_cache_ PROTON_GUARDED_BY(mutex_);
  // Set once in the constructor; the correlator has its own locks.
  const std::unique_ptr<Correlator> correlator_;
  std::atomic<bool> profiling_on_{false};
  // CLI mode: the backend refused to start; stay unprofiled.
  bool cli_backend_refused_ PROTON_GUARDED_BY(mutex_) = false;
  // Forked child: an ancestor's backend was running.
  bool parent_had_backend_ PROTON_GUARDED_BY(mutex_) = false;
  // The lazy start ran (once per process: a forked child gets another try).
  std::atomic<bool> lazy_start_tried_{false};
  // The scope id whose EnterScope triggered the lazy start (0: another call did): the new
  // session counts that scope, but not older ones (a forked child's inherited scopes).
  std::atomic<uint64_t> lazy_first_scope_id_{0};

  ForkGuardedMutex snapshot_mutex_{LockRank::kSnapshot};
  std::shared_ptr<const SessionList> snapshot_ PROTON_GUARDED_BY(snapshot_mutex_);
};

// The process-wide scope id counter (starts at 1).
uint64_t NextScopeIdPeek();

}  // namespace proton
