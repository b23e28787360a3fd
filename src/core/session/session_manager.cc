// SessionManager; see session_manager.h.
#include "core/session/session_manager.h"

#include <cstdio>

#include "core/backend/registry.h"
#include "core/config/config.h"
#include "core/context/thread_context.h"
#include "core/correlation/correlator.h"
#include "core/data/trace_data.h"
#include "core/data/tree_data.h"
#include "core/dump/output_file.h"
#include "core/record/recorder.h"
#include "core/runtime/runtime.h"
#include "core/session/cli_mode.h"
#include "core/session/format_names.h"
#include "core/session/mode.h"
#include "core/session/phase_writer.h"
#include "core/session/write_data.h"
#include "util/ascii.h"

namespace proton {
namespace {

std::atomic<uint64_t> g_next_scope_id{1};

Error RuntimeError(std::string message) {
  return Status::Error(std::move(message), ErrorKind::kRuntime);
}

void WarnNoDriverOnce() {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  std::fprintf(stderr,
               "[proton] warning: no NVIDIA GPU driver found (libcuda.so.1 cannot be loaded or "
               "reports no device); recording scopes and host metrics only\n");
}

bool IsStdoutName(std::string_view name) { return name.empty() || name == "-"; }

}  // namespace

uint64_t NextScopeIdPeek() { return g_next_scope_id.load(); }

uint64_t SessionManager::FirstScopeIdOfLazyStart() const {
  uint64_t entering = lazy_first_scope_id_.load();
  uint64_t next = NextScopeIdPeek();
  return entering != 0 && entering < next ? entering : next;
}
uint64_t NewScopeId() { return g_next_scope_id.fetch_add(1); }

SessionManager::SessionManager(Runtime& runtime)
    : runtime_(runtime),
      correlator_(std::make_unique<Correlator>()),
      snapshot_(std::make_shared<const SessionList>()) {}

SessionManager::~SessionManager() = default;

// Every guarded lock is free again (fork_guard.h). The child drops the parent's sessions
// without writing them (profiler.md §2.9); whether the parent had a GPU backend decides
// whether the child may start one (a driver initialised before fork is unusable after it).
void SessionManager::AfterForkChild() {
  {
    ForkGuardedLock lock(mutex_);
    // Sticky: a grandchild inherits the driver state its grandparent initialised.
    parent_had_backend_ = parent_had_backend_ || backend_ != nullptr;
  }
  DiscardAll();
}

bool SessionManager::parent_had_backend() {
  ForkGuardedLock lock(mutex_);
  return parent_had_backend_;
}

std::shared_ptr<const SessionList> SessionManager::Snapshot(uint64_t* epoch) {
  ForkGuardedLock lock(snapshot_mutex_);
  *epoch = g_hot.session_epoch.load(std::memory_order_acquire);
  return snapshot_;
}

void SessionManager::PublishLocked() {
  auto list = std::make_shared<SessionList>();
  bool trace = false;
  for (const auto& [id, s] : sessions_) {
    list->push_back(s);
    trace = trace || s->CurrentData()->is_trace();
  }
  // Launches stamp their CPU time only while a trace session exists (correlator.cc); only the
  // process runtime's sessions see launches.
  if (runtime_.is_process_wide()) {
    if (trace) {
      g_hot.launch_extras.fetch_or(kLaunchExtraTrace);
    } else {
      g_hot.launch_extras.fetch_and(~kLaunchExtraTrace);
    }
  }
  ForkGuardedLock lock(snapshot_mutex_);
  snapshot_ = std::move(list);
  g_hot.session_epoch.fetch_add(1, std::memory_order_acq_rel);
}

void SessionManager::Republish() {
  ForkGuardedLock lock(mutex_);
  PublishLocked();
}

bool SessionManager::backend_running() {
  ForkGuardedLock lock(mutex_);
  return backend_ != nullptr;
}

size_t SessionManager::session_count() {
  ForkGuardedLock lock(mutex_);
  return sessions_.size();
}

Status SessionManager::StartBackendLocked(const std::string& backend, const std::string& mode,
                                          bool cli_start) {
  const BackendRegistration* reg = runtime_.backends().Find(backend);
  if (reg == nullptr || !reg->available()) {
    WarnNoDriverOnce();
    return Status();
  }
  std::unique_ptr<Backend> instance = reg->create();
  correlator_->Reset();
  Status st = instance->Start(correlator_.get(), mode);
  if (!st.ok()) {
    // §5.2: the API raises the backend's message as is (RuntimeError). In CLI mode the
    // backend already printed its one step-aside line: the process runs unprofiled and
    // writes no file, so no session is created and nothing more is printed.
    if (!cli_start) return RuntimeError(st.message());
    cli_backend_refused_ = true;
    return Status();
  }
  backend_ = std::move(instance);
  backend_name_ = backend;
  runtime_.clock().Install(backend_->Timestamp());
  return Status();
}

namespace {

// StartOptions checked once and typed, so the rest of Start compares no strings.
struct CheckedStartOptions {
  std::string backend;  // lower-cased; "cupti" when unset
  ContextKind context = ContextKind::kShadow;
  bool trace = false;  // data="trace"; otherwise data="tree"
  ModeSpec mode;
  std::string flush_format;  // periodic_flushing only: the format each phase is written in
};

// periodic_flushing:format= defaults to the data's format and must be able to write it.
Result<std::string> FlushFormat(const ModeSpec& mode, const std::string& data_kind) {
  if (mode.name != "periodic_flushing") return std::string();
  auto format = mode.options.find("format");
  std::string flush_format = format != mode.options.end()
                                 ? format->second
                                 : (data_kind == "trace" ? "chrome_trace" : "hatchet");
  if (IsTraceFormat(flush_format) != (data_kind == "trace")) {
    return RuntimeError("periodic_flushing:format=" + flush_format + " cannot write data=\"" +
                        data_kind + "\" (" + std::string(kFormatKindsText) + ")");
  }
  return flush_format;
}

Result<CheckedStartOptions> CheckStartOptions(const StartOptions& options,
                                              BackendRegistry& backends) {
  CheckedStartOptions checked;
  checked.backend = AsciiLower(options.backend);
  if (checked.backend.empty()) checked.backend = "cupti";
  if (checked.backend != "cupti" && backends.Find(checked.backend) == nullptr) {
    return RuntimeError("Unknown profiler: " + options.backend);
  }
  std::string context = AsciiLower(options.context);
  if (context != "shadow" && context != "python") {
    return RuntimeError("Unknown context source: " + options.context);
  }
  checked.context = context == "python" ? ContextKind::kPython : ContextKind::kShadow;
  std::string data_kind = AsciiLower(options.data);
  if (data_kind != "tree" && data_kind != "trace") {
    return RuntimeError("Unknown data: " + options.data);
  }
  checked.trace = data_kind == "trace";
  PROTON_ASSIGN_OR_RETURN(checked.mode, ParseMode(options.mode));
  PROTON_ASSIGN_OR_RETURN(checked.flush_format, FlushFormat(checked.mode, data_kind));
  return checked;
}

PhaseSet::DataFactory MakeDataFactory(bool trace, bool pc_sampling) {
  return [trace, pc_sampling] {
    std::unique_ptr<Data> made;
    if (trace) {
      made = std::make_unique<TraceData>();
    } else {
      auto tree = std::make_unique<TreeData>();
      tree->SetPcSamplingMode(pc_sampling);
      made = std::move(tree);
    }
    return Correlator::MakeData(std::move(made));
  };
}

}  // namespace

Status SessionManager::ReactivateLocked(Session& session, const std::string& backend,
                                        const std::string& mode, bool cli_start, bool scopes_only) {
  // A CLI session started lazily (scopes only) gets its backend from the injection's start.
  if (cli_start && !scopes_only && backend_ == nullptr) {
    PROTON_RETURN_IF_ERROR(StartBackendLocked(backend, mode, cli_start));
  }
  session.SetActive(true);
  profiling_on_.store(true);
  return Status();
}

Status SessionManager::CheckSameModeLocked(const std::string& backend, const std::string& mode) {
  for (auto& [id, session] : sessions_) {
    if (session->backend == backend && session->mode != mode) {
      return RuntimeError(
          "Cannot add a session with the same profiler but a different mode than existing "
          "sessions");
    }
  }
  return Status();
}

Result<std::optional<int>> SessionManager::Start(const StartOptions& options, bool cli_start,
                                                 bool scopes_only) {
  ForkGuardedLock lock(mutex_);
  if (runtime_.command_line_mode() && !cli_start) return std::optional<int>();
  if (auto knob = LookupKnob("PROTON_DISABLE"); knob && ParseBool(*knob)) {
    return std::optional<int>();
  }
  PROTON_ASSIGN_OR_RETURN(CheckedStartOptions checked,
                          CheckStartOptions(options, runtime_.backends()));
  // A CLI process whose backend refused to start runs unprofiled (§5.2): later starts (the
  // lazy start from a scope, the injection) must not try again or print again.
  if (cli_start && cli_backend_refused_) return std::optional<int>();

  bool default_name = !options.name.has_value();
  std::string name = options.name.value_or(std::string(kDefaultProfileName));
  for (auto& [id, session] : sessions_) {
    if (session->name != name) continue;
    PROTON_RETURN_IF_ERROR(
        ReactivateLocked(*session, checked.backend, options.mode, cli_start, scopes_only));
    return std::optional<int>(id);
  }
  PROTON_RETURN_IF_ERROR(CheckSameModeLocked(checked.backend, options.mode));
  if (backend_ == nullptr && !scopes_only) {
    PROTON_RETURN_IF_ERROR(StartBackendLocked(checked.backend, options.mode, cli_start));
    if (cli_backend_refused_) return std::optional<int>();
  }
  profiling_on_.store(true);

  // ROOT carries the 20 PC-sampling placeholders in this mode, as in the reference (§5.13).
  bool pc_sampling = checked.mode.name == "pcsampling";
  int id = next_id_++;
  sessions_[id] = std::make_shared<Session>(
      id, name, default_name, checked.context, MakeDataFactory(checked.trace, pc_sampling),
      checked.backend, options.mode, std::move(checked.flush_format),
      scopes_only ? FirstScopeIdOfLazyStart() : NextScopeIdPeek(), ThreadToken());
  PublishLocked();
  if (GetConfig().verbose) {
    std::fprintf(stderr, "[proton] session %d started (%s)\n", id, name.c_str());
  }
  return std::optional<int>(id);
}

Status SessionManager::CheckCliSession(std::optional<int> session, const char* what) {
  if (!runtime_.command_line_mode() || !session.has_value() || *session == 0) return Status();
  return Status::Error(
      std::string("Only one session can be ") + what + " when running from the command line.",
      ErrorKind::kValue);
}

std::vector<std::shared_ptr<Session>> SessionManager::TargetsLocked(std::optional<int> session,
                                                                    Status* status) {
  std::vector<std::shared_ptr<Session>> out;
  if (!session.has_value()) {
    for (auto& [id, s] : sessions_) out.push_back(s);
    return out;
  }
  auto it = sessions_.find(*session);
  if (it == sessions_.end()) {
    *status = RuntimeError("Session has not been initialized: " + std::to_string(*session));
    return out;
  }
  out.push_back(it->second);
  return out;
}

Status SessionManager::Activate(std::optional<int> session) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "activated"));
  ForkGuardedLock lock(mutex_);
  if (runtime_.command_line_mode() && !session.has_value() && sessions_.count(0)) {
    session = 0;  // D1
  }
  Status st;
  for (auto& s : TargetsLocked(session, &st)) s->SetActive(true);
  return st;
}

Status SessionManager::Deactivate(std::optional<int> session, bool flushing) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "deactivated"));
  ForkGuardedLock lock(mutex_);
  if (runtime_.command_line_mode() && !session.has_value() && sessions_.count(0)) {
    session = 0;  // D1
  }
  Status st;
  std::vector<std::shared_ptr<Session>> targets = TargetsLocked(session, &st);
  for (auto& s : targets) s->SetActive(false);
  if (st.ok() && flushing) {
    // §3.11: every record of the sealed phases is in now; they complete (and periodic
    // flushing writes them on its thread).
    if (backend_ != nullptr) {
      backend_->Flush(true);
      correlator_->AfterFlush();
    }
    UpdateCompletionLocked(targets);
    for (auto& s : targets) {
      if (s->periodic_flushing()) runtime_.phase_writer().Wake();
    }
  }
  return st;
}

DeviceTable SessionManager::DevicesForLocked(Data& data) {
  DeviceTable table;
  for (uint32_t id : data.DeviceIds()) {
    auto it = device_cache_.find(id);
    if (it == device_cache_.end() && backend_ != nullptr) {
      if (std::optional<DeviceInfo> info = backend_->QueryDevice(id)) {
        it = device_cache_.emplace(id, *info).first;
      }
    }
    if (it != device_cache_.end()) table.emplace(id, it->second);
  }
  // Each write records the properties it uses, so a replay writes the same device table.
  if (Recording()) {
    for (const auto& [id, info] : table) RecordDevice(id, info);
  }
  return table;
}

namespace {

// The run's end marker (formats.md §5), written after the session's last part file: a reader
// that sees it finds every part on disk (each was renamed into place before), so a live view
// knows the run has ended (viewer.md §11.14). None when no part was written.
Status WriteEndMarker(const Session& session) {
  const std::string path = EndMarkerPath(session.last_part_path);
  if (path.empty()) return Status();
  Status st = WriteFileAtomic(path, EndMarkerText(session.parts_written.load()));
  if (st.ok() && GetConfig().verbose) std::fprintf(stderr, "[proton] wrote %s\n", path.c_str());
  return st;
}

}  // namespace

Status SessionManager::WriteSessionLocked(Session& session, std::string_view format) {
  // A session that advanced phases writes each phase still in memory as a part file (§3.11).
  bool parts = session.phases.ever_advanced();
  Status result;
  auto held = session.phases.TakeAll();
  for (size_t i = 0; i < held.size(); ++i) {
    auto& [phase, data] = held[i];
    // No part for a phase that recorded nothing, unless the session would leave no file.
    bool last = i + 1 == held.size();
    if (parts && data->RecordedNothing() && !(last && session.parts_written.load() == 0)) {
      continue;
    }
    // Parts never go to standard output: they are several documents.
    std::string base = IsStdoutName(session.name) ? std::string(kDefaultProfileName) : session.name;
    std::string name = parts ? PartName(base, phase) : session.name;
    std::string path = IsStdoutName(session.name) && !parts
                           ? "-"
                           : runtime_.OutputPathFor(name, format, session.default_name);
    Status st = WriteDataFile(*data, DevicesForLocked(*data), path, format, /*pretty=*/true);
    if (!st.ok() && result.ok()) result = st;
    if (st.ok()) session.parts_written.fetch_add(1);
    if (st.ok() && parts) session.last_part_path = path;
    if (st.ok() && GetConfig().verbose) std::fprintf(stderr, "[proton] wrote %s\n", path.c_str());
  }
  if (parts) {
    Status st = WriteEndMarker(session);
    if (!st.ok() && result.ok()) result = st;
  }
  return result;
}

void SessionManager::StopBackendIfUnusedLocked() {
  if (!sessions_.empty() || backend_ == nullptr) return;
  // Clear the correlation maps before unsubscribing: correlation ids restart afterwards.
  std::string warning = correlator_->LossWarning();
  correlator_->Reset();
  backend_->Stop();
  backend_.reset();
  backend_name_.clear();
  runtime_.clock().Install(nullptr);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
}

// The finalize path (profiler.md §1.2, §2.10, §3.11), one step per call, all under the lock.
Status SessionManager::Finalize(std::optional<int> session, std::string_view output_format,
                                bool synchronize) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "finalized"));
  ForkGuardedLock lock(mutex_);
  // No format given: the command's -f, if any (every finalize path of a CLI process).
  if (output_format.empty()) output_format = runtime_.default_output_format();
  PROTON_ASSIGN_OR_RETURN(std::string format, ParseOutputFormat(output_format));
  std::vector<std::shared_ptr<Session>> targets = FinalizeTargetsLocked(session);
  PROTON_RETURN_IF_ERROR(CheckFormatsLocked(targets, format));
  SealLocked(targets);
  if (!targets.empty()) FlushBackendLocked(synchronize);
  Status result = WriteSessionsLocked(targets, format);
  FreeLocked(targets);
  return result;
}

// The sessions to finalize; finalizing all of them turns profiling off.
std::vector<std::shared_ptr<Session>> SessionManager::FinalizeTargetsLocked(
    std::optional<int> session) {
  std::vector<std::shared_ptr<Session>> targets;
  if (!session.has_value()) {
    for (auto& [id, s] : sessions_) targets.push_back(s);
    profiling_on_.store(false);
  } else if (auto it = sessions_.find(*session); it != sessions_.end()) {
    targets.push_back(it->second);
  }
  return targets;
}

// Validates before anything is written or opened (D5).
Status SessionManager::CheckFormatsLocked(const std::vector<std::shared_ptr<Session>>& targets,
                                          const std::string& format) {
  for (auto& s : targets) PROTON_RETURN_IF_ERROR(CheckFormatForData(*s->CurrentData(), format));
  return Status();
}

// No new record reaches the targets. The phase writer finishes what it does first (a part it
// took, or a backend flush); while this holds the lock it takes nothing more, so finalize
// writes every phase still held, each exactly once, and nobody else uses the backend it may
// stop.
void SessionManager::SealLocked(const std::vector<std::shared_ptr<Session>>& targets) {
  for (auto& s : targets) s->SetActive(false);
  runtime_.phase_writer().WaitIdle();
}

// Every record of the launches so far reaches its data.
void SessionManager::FlushBackendLocked(bool synchronize) {
  if (backend_ == nullptr) return;
  backend_->Flush(synchronize);
  correlator_->AfterFlush();
}

// Writes each target's phases; the first error is the result, the other sessions still write.
Status SessionManager::WriteSessionsLocked(const std::vector<std::shared_ptr<Session>>& targets,
                                           const std::string& format) {
  Status result;
  for (auto& s : targets) {
    // A periodic-flushing session's remaining parts keep its part format unless one is given.
    std::string f = format.empty() && s->periodic_flushing() ? s->flush_format : format;
    Status st = WriteSessionLocked(*s, FormatForData(*s->CurrentData(), f));
    if (!st.ok() && result.ok()) result = st;
  }
  return result;
}

// Drops the targets, stops the backend when no session needs it, and frees the data that
// sessions finalized earlier left to the correlator (no thread holds it now).
void SessionManager::FreeLocked(const std::vector<std::shared_ptr<Session>>& targets) {
  for (auto& s : targets) sessions_.erase(s->id);
  PublishLocked();
  StopBackendIfUnusedLocked();
  correlator_->FreeRetiredData();
}

Result<std::shared_ptr<Session>> SessionManager::SessionLocked(int session) {
  Status st;
  auto targets = TargetsLocked(session, &st);
  PROTON_RETURN_IF_ERROR(st);
  return targets.front();
}

Result<std::string> SessionManager::GetData(int session, int phase, bool msgpack) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "retrieved"));
  ForkGuardedLock lock(mutex_);
  PROTON_ASSIGN_OR_RETURN(std::shared_ptr<Session> target, SessionLocked(session));
  Session& s = *target;
  if (s.CurrentData()->is_trace()) {
    return RuntimeError("Only TreeData is supported for getData() for now");
  }
  PROTON_ASSIGN_OR_RETURN(std::shared_ptr<Data> data, s.phases.Get(phase));
  std::string out;
  // Compact JSON: the text is only parsed (proton.data.get), and the file layout's indentation
  // grows with the square of the depth (10,000 levels: hundreds of MB).
  PROTON_RETURN_IF_ERROR(SerializeData(*data, DevicesForLocked(*data),
                                       msgpack ? "hatchet_msgpack" : "hatchet", false, out));
  return out;
}

Status SessionManager::Clear(int session, int phase, bool clear_up_to_phase) {
  PROTON_RETURN_IF_ERROR(CheckCliSession(session, "cleared"));
  ForkGuardedLock lock(mutex_);
  PROTON_ASSIGN_OR_RETURN(std::shared_ptr<Session> target, SessionLocked(session));
  target->phases.Clear(phase, clear_up_to_phase);
  return Status();
}

void SessionManager::DiscardAll(bool stop_backend) {
  ForkGuardedLock lock(mutex_);
  runtime_.phase_writer()
      .WaitIdle();  // no-op in a forked child, whose writer did not survive the fork
  sessions_.clear();
  next_id_ = 0;
  if (stop_backend && backend_ != nullptr) {
    correlator_->Reset();
    backend_->Stop();
    backend_.reset();
  }
  // The parent's backend state is meaningless in a forked child: never call into it.
  (void)backend_.release();
  backend_name_.clear();
  correlator_->Reset(/*after_fork=*/!stop_backend);
  profiling_on_.store(false);
  cli_backend_refused_ = false;
  lazy_start_tried_.store(false);
  // What the dropped sessions recorded is gone with them (a forked child inherits the flag).
  ResetRecorded();
  PublishLocked();
}

void SessionManager::MaybeStartLazily(uint64_t entering_scope_id) {
  if (!runtime_.command_line_mode()) return;
  if (profiling_on()) return;
  LazyCliStartFn fn = runtime_.lazy_cli_start();
  // Once per process (a forked child gets another try): after the exit's finalize, a scope
  // in an atexit handler must not start a new session.
  if (fn == nullptr || lazy_start_tried_.exchange(true)) return;
  lazy_first_scope_id_.store(entering_scope_id);
  fn();
  lazy_first_scope_id_.store(0);
}

}  // namespace proton
