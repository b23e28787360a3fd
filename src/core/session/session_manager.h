// The process's sessions and the one backend they share (profiler.md §1.2-§1.4, §3.9). API
// calls run under one lock; application threads read an immutable snapshot of the session
// list through an epoch counter, so scope and launch paths take no global lock.
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
using SessionList = std::vector<std::shared_ptr<Session>>;

class SessionManager {
 public:
  static SessionManager& Get();  // never destroyed

  // Application threads: the current session list and the epoch it belongs to
  // (g_hot.session_epoch).
  std::shared_ptr<const SessionList> Snapshot(uint64_t* epoch);

  // `cli_start` bypasses the command-line-mode rule that makes start() return None.
  // `scopes_only` (CLI lazy start): no backend now; a later CLI start of the same session
  // starts it.
  Result<std::optional<int>> Start(const StartOptions& options, bool cli_start,
                                   bool scopes_only = false);
  Status Activate(std::optional<int> session);
  Status Deactivate(std::optional<int> session, bool flushing);
  // `synchronize` false (the signal path, §2.10): the flush does not wait for the device, so
  // a hung kernel cannot block the write.
  Status Finalize(std::optional<int> session, std::string_view output_format,
                  bool synchronize = true);
  Result<std::string> GetData(int session, int phase, bool msgpack);
  Status Clear(int session, int phase, bool clear_up_to_phase);
  // Phases (§1.7, §3.11): the new phase's number; whether `phase` is complete.
  Result<int> AdvancePhase(int session);
  Result<bool> IsPhaseComplete(int session, int phase);
  // The phase writer thread (phase_writer.h): writes the completed phases of periodic-flushing
  // sessions as part files and frees them. Returns true while a sealed phase still waits for
  // its records (call again after a pause).
  bool WriteCompletedParts();
  bool profiling_on() const { return profiling_on_.load(); }
  // Drops every session without writing (a forked child must never write its parent's data).
  // `stop_backend` false (fork): the parent's backend object is abandoned, never called.
  // True (tests): the backend is stopped and freed.
  void DiscardAll(bool stop_backend = false);
  // In a forked child: whether the parent had a GPU backend when it forked.
  bool parent_had_backend();
  Correlator& correlator() { return *correlator_; }
  // Whether a real backend (not scopes-only) is running; tests use it.
  bool backend_running();

 private:
  SessionManager();
  void PublishLocked();
  void AfterForkChild();
  Status CheckCliSession(std::optional<int> session, const char* what);
  // The session with id `session`, or "Session has not been initialized: <n>".
  Result<std::shared_ptr<Session>> SessionLocked(int session);
  std::vector<std::shared_ptr<Session>> TargetsLocked(std::optional<int> session, Status* status);
  DeviceTable DevicesForLocked(Data& data);
  Status WriteSessionLocked(Session& session, std::string_view format);
  // Marks complete every sealed phase of `sessions` with no launch in flight.
  std::vector<std::shared_ptr<Session>> WatchedSessionsLocked();
  void UpdateCompletionLocked(const std::vector<std::shared_ptr<Session>>& sessions);
  void StopBackendIfUnusedLocked();
  // Starts the shared backend when none runs. In CLI mode a refusal sets
  // cli_backend_refused_ and returns OK; for the API it returns the backend's error.
  Status StartBackendLocked(const std::string& backend, const std::string& mode, bool cli_start);
  // Start on a session name that exists: the session is active again (and, for the CLI's
  // start after a lazy one, the backend starts).
  Status ReactivateLocked(Session& session, const std::string& backend, const std::string& mode,
                          bool cli_start, bool scopes_only);
  // Sessions sharing a backend share its mode.
  Status CheckSameModeLocked(const std::string& backend, const std::string& mode);

  ForkGuardedMutex mutex_{LockRank::kSessions};
  std::map<int, std::shared_ptr<Session>> sessions_;
  int next_id_ = 0;
  std::unique_ptr<Backend> backend_;
  std::string backend_name_;
  std::map<uint32_t, DeviceInfo> device_cache_;
  std::unique_ptr<Correlator> correlator_;
  std::atomic<bool> profiling_on_{false};
  bool cli_backend_refused_ = false;  // CLI mode: the backend refused to start; stay unprofiled
  bool parent_had_backend_ = false;   // forked child: an ancestor's backend was running

  ForkGuardedMutex snapshot_mutex_{LockRank::kSnapshot};
  std::shared_ptr<const SessionList> snapshot_;
};

// The process-wide scope id counter (starts at 1).
uint64_t NextScopeIdPeek();
// The first scope id a lazily started CLI session counts (cli_mode.h).
uint64_t FirstScopeIdOfLazyStart();

}  // namespace proton
