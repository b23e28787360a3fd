// PcSampler; see pc_sampling.h. Every CUptiResult is checked; a failure is reported once per
// distinct message and the launch goes on unsampled (its kernel is still timed).
#include "cupti/pc_sampling.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "cupti/cupti_backend.h"
#include "cupti/cupti_env.h"

namespace proton::cupti {
namespace {

// A sampled launch in flight normally ends in moments; one that never ends (a hung kernel at
// exit) must not hang a flush or stop for ever.
constexpr std::chrono::seconds kQuiesceWait{10};

// `mutex` if it can be had within `wait`, polling: std::timed_mutex's timed lock is
// pthread_mutex_clocklock, which GCC 12's ThreadSanitizer does not intercept (it then reports
// every unlock as one of an unlocked mutex), and these waits are rare (stop, flush, context
// teardown), so a 1 ms poll costs nothing.
// The lock analysis follows the callers' TryLock loops (`while (!lock.TryLock())`), so this
// only decides whether to poll again.
bool KeepPolling(std::chrono::steady_clock::time_point deadline) {
  if (std::chrono::steady_clock::now() >= deadline) return false;
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return true;
}

std::chrono::steady_clock::time_point QuiesceDeadline() {
  return std::chrono::steady_clock::now() + kQuiesceWait;
}
// GetData rounds per launch: each round reads up to kPcsPerRead PCs; the bound only guards
// against a library that keeps reporting remaining PCs without handing any out.
constexpr int kMaxDrainRounds = 1 << 16;

}  // namespace

// A CUpti_PCSamplingData with room for kPcsPerRead PCs of `reasons` stall reasons each.
struct PcSampler::PcBuffer {
  CUpti_PCSamplingData data{};
  std::vector<CUpti_PCSamplingPCData> pcs;
  std::vector<CUpti_PCSamplingStallReason> reason_storage;

  void Allocate(size_t reasons) {
    pcs.assign(kPcsPerRead, CUpti_PCSamplingPCData{});
    reason_storage.assign(kPcsPerRead * reasons, CUpti_PCSamplingStallReason{});
    for (size_t i = 0; i < kPcsPerRead; ++i) {
      pcs[i].size = sizeof(CUpti_PCSamplingPCData);
      pcs[i].stallReason = reason_storage.data() + i * reasons;
    }
    data = CUpti_PCSamplingData{};
    data.size = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = kPcsPerRead;
    data.pPcData = pcs.data();
  }
};

struct PcSampler::ContextState {
  CUcontext context = nullptr;
  bool enabled = false;  // cuptiPCSamplingEnable succeeded: Disable is owed
  bool usable = false;   // configured: launches are sampled
  StallReasonTable reasons;
  // The configuration's data buffer, which CUPTI fills when a range stops, and the buffer
  // cuptiPCSamplingGetData fills with the rest: a separate one, so a read never overwrites
  // PCs that the stop delivered and were not consumed yet.
  PcBuffer configured;
  PcBuffer output;
};

PcSampler::PcSampler(const DriverApi* driver, const CuptiApi* cupti, int sampling_exponent)
    : driver_(driver), cupti_(cupti), exponent_(sampling_exponent) {}

PcSampler::~PcSampler() = default;

Status PcSampler::CheckAvailable(const CuptiApi* cupti) {
  if (const char* missing = cupti->MissingPcSamplingSymbol()) {
    return Status::Error("mode pcsampling needs " + std::string(missing) + ", which " +
                             cupti->path + " does not export",
                         ErrorKind::kRuntime);
  }
  uint32_t version = 0;
  CUptiResult result = cupti->get_version(&version);
  if (result != CUPTI_SUCCESS) {
    return Status::Error(CuptiCallError(cupti, "cuptiGetVersion", result), ErrorKind::kRuntime);
  }
  return CheckPcRecordAbi(version, CUPTI_API_VERSION);
}

void PcSampler::ReportOnce(const std::string& message) {
  {
    MutexLock lock(report_mutex_);
    if (std::find(reported_.begin(), reported_.end(), message) != reported_.end()) return;
    reported_.push_back(message);
  }
  std::fprintf(stderr, "[proton] warning: PC sampling: %s\n", message.c_str());
}

Status PcSampler::EnableContext(ContextState* state) {
  CUpti_PCSamplingEnableParams params{};
  params.size = CUpti_PCSamplingEnableParamsSize;
  params.ctx = state->context;
  CUptiResult result = cupti_->pc_sampling_enable(&params);
  if (result != CUPTI_SUCCESS) {
    return Status::Error(PcSamplingCallError(cupti_, "cuptiPCSamplingEnable", result),
                         ErrorKind::kRuntime);
  }
  state->enabled = true;
  return Status();
}

Status PcSampler::ConfigureStallReasons(ContextState* state) {
  size_t count = 0;
  CUpti_PCSamplingGetNumStallReasonsParams num{};
  num.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
  num.ctx = state->context;
  num.numStallReasons = &count;
  CUptiResult result = cupti_->pc_sampling_get_num_stall_reasons(&num);
  if (result != CUPTI_SUCCESS) {
    return Status::Error(PcSamplingCallError(cupti_, "cuptiPCSamplingGetNumStallReasons", result),
                         ErrorKind::kRuntime);
  }
  std::vector<std::vector<char>> storage(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
  std::vector<char*> pointers(count);
  for (size_t i = 0; i < count; ++i) pointers[i] = storage[i].data();
  std::vector<uint32_t> indices(count);
  CUpti_PCSamplingGetStallReasonsParams get{};
  get.size = CUpti_PCSamplingGetStallReasonsParamsSize;
  get.ctx = state->context;
  get.numStallReasons = count;
  get.stallReasonIndex = indices.data();
  get.stallReasons = pointers.data();
  result = cupti_->pc_sampling_get_stall_reasons(&get);
  if (result != CUPTI_SUCCESS) {
    return Status::Error(PcSamplingCallError(cupti_, "cuptiPCSamplingGetStallReasons", result),
                         ErrorKind::kRuntime);
  }
  std::vector<std::string> names;
  names.reserve(storage.size());
  for (const auto& name : storage) {
    names.emplace_back(name.data(), strnlen(name.data(), name.size()));
  }
  state->reasons = MatchStallReasons(names, indices);
  if (state->reasons.indices.empty()) {
    return Status::Error("none of the " + std::to_string(count) +
                             " stall reasons CUPTI offers matches a counter name",
                         ErrorKind::kRuntime);
  }
  return Status();
}

Status PcSampler::Configure(ContextState* state) {
  PROTON_RETURN_IF_ERROR(ConfigureStallReasons(state));
  size_t reasons = state->reasons.indices.size();
  state->configured.Allocate(reasons);
  state->output.Allocate(reasons);

  std::vector<CUpti_PCSamplingConfigurationInfo> info(7);
  info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
  info[0].attributeData.stallReasonData.stallReasonCount = reasons;
  info[0].attributeData.stallReasonData.pStallReasonIndex = state->reasons.indices.data();
  info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
  info[1].attributeData.samplingPeriodData.samplingPeriod = static_cast<uint32_t>(exponent_);
  info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
  info[2].attributeData.hardwareBufferSizeData.hardwareBufferSize = kHardwareBufferBytes;
  info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
  info[3].attributeData.scratchBufferSizeData.scratchBufferSize = kScratchBufferBytes;
  info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
  info[4].attributeData.samplingDataBufferData.samplingDataBuffer = &state->configured.data;
  info[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
  info[5].attributeData.enableStartStopControlData.enableStartStopControl = 1;
  info[6].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
  info[6].attributeData.collectionModeData.collectionMode =
      CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
  CUpti_PCSamplingConfigurationInfoParams params{};
  params.size = CUpti_PCSamplingConfigurationInfoParamsSize;
  params.ctx = state->context;
  params.numAttributes = info.size();
  params.pPCSamplingConfigurationInfo = info.data();
  CUptiResult result = cupti_->pc_sampling_set_configuration(&params);
  if (result != CUPTI_SUCCESS) {
    std::string text =
        PcSamplingCallError(cupti_, "cuptiPCSamplingSetConfigurationAttribute", result);
    for (const auto& attribute : info) {
      if (attribute.attributeStatus != CUPTI_SUCCESS) {
        text += "; attribute " + std::to_string(static_cast<int>(attribute.attributeType)) + ": " +
                CuptiResultName(cupti_, attribute.attributeStatus);
      }
    }
    return Status::Error(text, ErrorKind::kRuntime);
  }
  if (VerboseEnabled()) {
    std::fprintf(stderr,
                 "[proton] pcsampling: enabled on context %p: %zu of %zu stall reasons, "
                 "sampling period 2^%d cycles, hardware buffer %zu MiB, scratch buffer %zu MiB, "
                 "%zu PCs per read, start/stop control, continuous collection\n",
                 static_cast<void*>(state->context), reasons, state->reasons.available, exponent_,
                 kHardwareBufferBytes >> 20, kScratchBufferBytes >> 20, kPcsPerRead);
  }
  return Status();
}

PcSampler::ContextState* PcSampler::EnsureContext(CUcontext context) {
  auto it = contexts_.find(context);
  if (it != contexts_.end()) return it->second.get();
  auto state = std::make_unique<ContextState>();
  state->context = context;
  Status status = EnableContext(state.get());
  if (status.ok()) status = Configure(state.get());
  if (status.ok()) {
    state->usable = true;
  } else {
    // Not retried in this context: the kernels of its launches are still timed.
    ReportOnce(status.message() + "; kernels run unsampled");
  }
  ContextState* raw = state.get();
  contexts_[context] = std::move(state);
  return raw;
}

void PcSampler::BeforeLaunch(CUcontext context) {
  launch_mutex_.lock();
  active_ = nullptr;
  if (context == nullptr) return;
  ContextState* state = EnsureContext(context);
  if (!state->usable) return;
  {
    // Samples between start and stop belong to this launch only: earlier work must be done.
    ScopedCallbackGuard guard;
    CUresult synced = driver_->ctx_synchronize();
    if (synced != CUDA_SUCCESS) {
      ReportOnce(DriverCallError(driver_, "cuCtxSynchronize", synced) +
                 "; samples of earlier kernels may be attributed to the next launch");
    }
  }
  CUpti_PCSamplingStartParams params{};
  params.size = CUpti_PCSamplingStartParamsSize;
  params.ctx = context;
  CUptiResult result = cupti_->pc_sampling_start(&params);
  if (result != CUPTI_SUCCESS) {
    ReportOnce(PcSamplingCallError(cupti_, "cuptiPCSamplingStart", result) +
               "; launches run unsampled");
    return;
  }
  active_ = state;
}

void PcSampler::AfterLaunch(LaunchSamples* out) {
  // The launch lock is released whatever happens here (an allocation failure included).
  try {
    StopAndDrain(out);
  } catch (...) {
    out->Clear();
  }
  launch_mutex_.unlock();
}

void PcSampler::StopAndDrain(LaunchSamples* out) {
  out->Clear();
  if (ContextState* state = active_) {
    active_ = nullptr;
    CUpti_PCSamplingStopParams params{};
    params.size = CUpti_PCSamplingStopParamsSize;
    params.ctx = state->context;
    CUptiResult result = cupti_->pc_sampling_stop(&params);
    if (result == CUPTI_SUCCESS) {
      ++sampled_launches_;
      Drain(state, out);
    } else {
      ReportOnce(PcSamplingCallError(cupti_, "cuptiPCSamplingStop", result));
    }
  }
}

// The range's PCs come in two parts: what cuptiPCSamplingStop put into the configuration's
// buffer, then what cuptiPCSamplingGetData hands out until no PC remains. Both are read: on
// CUDA 13.0 with start/stop control the stop delivers them, and a read that replaced the
// configured buffer's contents first lost every sample of the launch.
void PcSampler::Drain(ContextState* state, LaunchSamples* out) {
  std::unordered_map<std::string, size_t> groups;  // function '\0' source -> sample index
  size_t from_stop = Consume(state->reasons, state->configured, &groups, out);
  size_t from_reads = 0;
  for (int round = 0; round < kMaxDrainRounds; ++round) {
    CUpti_PCSamplingGetDataParams params{};
    params.size = CUpti_PCSamplingGetDataParamsSize;
    params.ctx = state->context;
    params.pcSamplingData = &state->output.data;
    state->output.data.totalNumPcs = 0;
    state->output.data.remainingNumPcs = 0;
    CUptiResult result = cupti_->pc_sampling_get_data(&params);
    if (result != CUPTI_SUCCESS) {
      ReportOnce(PcSamplingCallError(cupti_, "cuptiPCSamplingGetData", result) +
                 "; samples of this launch were lost");
      break;
    }
    size_t remaining = state->output.data.remainingNumPcs;
    from_reads += Consume(state->reasons, state->output, &groups, out);
    if (remaining == 0) break;
    if (round + 1 == kMaxDrainRounds) {
      ReportOnce("cuptiPCSamplingGetData kept reporting remaining PCs; the rest was left");
    }
  }
  ReportFirstDrain(from_stop, from_reads);
}

// Adds the PCs in `buffer` to `out` (grouped by function and source line) and empties it, so
// the next range's stop starts from an empty buffer. Returns the number of PCs read.
size_t PcSampler::Consume(const StallReasonTable& reasons, PcBuffer& buffer,
                          std::unordered_map<std::string, size_t>* groups, LaunchSamples* out) {
  CUpti_PCSamplingData& data = buffer.data;
  dropped_samples_ += data.droppedSamples;
  if (data.hardwareBufferFull != 0) hardware_buffer_full_ = true;
  size_t count = std::min(data.totalNumPcs, kPcsPerRead);
  for (size_t i = 0; i < count; ++i) {
    const CUpti_PCSamplingPCData& pc = buffer.pcs[i];
    // functionName is CUPTI's, shared with other records of the function: copied, never freed.
    std::string function = pc.functionName != nullptr ? pc.functionName : "";
    const std::string& source = SourceOf(pc);
    std::string key = function;
    key += '\0';
    key += source;
    auto [it, added] = groups->try_emplace(std::move(key), out->samples.size());
    if (added) {
      out->names.push_back(std::make_unique<std::string>(std::move(function)));
      const std::string* f = out->names.back().get();
      out->names.push_back(std::make_unique<std::string>(source));
      out->samples.push_back(PcSample{*f, *out->names.back(), {}});
    }
    PcCounters& counters = out->samples[it->second].counters;
    uint64_t before = counters[kPcNumSamples];
    unknown_reason_samples_ += AddPcRecord(reasons, pc, &counters);
    total_samples_ += counters[kPcNumSamples] - before;
  }
  data.totalNumPcs = 0;
  data.remainingNumPcs = 0;
  data.droppedSamples = 0;
  data.hardwareBufferFull = 0;
  return count;
}

// PROTON_VERBOSE: where the first sampled launch's PCs came from, the fact that tells whether
// this CUPTI delivers a range's data at stop or at the reads.
void PcSampler::ReportFirstDrain(size_t from_stop, size_t from_reads) {
  if (reported_first_drain_ || !VerboseEnabled()) return;
  reported_first_drain_ = true;
  std::fprintf(stderr,
               "[proton] pcsampling: first sampled launch: %zu PCs from the stop, %zu from "
               "cuptiPCSamplingGetData\n",
               from_stop, from_reads);
}

uint64_t PcSampler::CubinCrc(const char* cubin, size_t size) const {
  CUpti_GetCubinCrcParams params{};
  params.size = CUpti_GetCubinCrcParamsSize;
  params.cubinSize = size;
  params.cubin = cubin;
  if (cupti_->get_cubin_crc(&params) != CUPTI_SUCCESS) return 0;
  return params.cubinCrc;
}

void PcSampler::ModuleLoaded(const char* cubin, size_t size) {
  if (cubin == nullptr || size == 0) return;
  uint64_t crc = CubinCrc(cubin, size);
  if (crc == 0) return;
  MutexLock lock(modules_mutex_);
  Cubin& entry = cubins_[crc];
  entry.data = cubin;
  entry.size = size;
  ++entry.references;
}

void PcSampler::ModuleUnloading(const char* cubin, size_t size) {
  if (cubin == nullptr || size == 0) return;
  uint64_t crc = CubinCrc(cubin, size);
  MutexLock lock(modules_mutex_);
  auto it = cubins_.find(crc);
  if (it != cubins_.end() && --it->second.references <= 0) cubins_.erase(it);
}

const std::string& PcSampler::SourceOf(const CUpti_PCSamplingPCData& pc) {
  std::string key = std::to_string(pc.cubinCrc) + ':' + std::to_string(pc.functionIndex) + ':' +
                    std::to_string(pc.pcOffset);
  auto cached = sources_.find(key);
  if (cached != sources_.end()) return cached->second;
  std::string source;
  CUpti_GetSassToSourceCorrelationParams params{};
  params.size = CUpti_GetSassToSourceCorrelationParamsSize;
  params.functionName = pc.functionName;
  params.pcOffset = pc.pcOffset;
  bool have_cubin = false;
  {
    MutexLock lock(modules_mutex_);
    auto it = cubins_.find(pc.cubinCrc);
    if (it != cubins_.end()) {
      params.cubin = it->second.data;
      params.cubinSize = it->second.size;
      have_cubin = true;
    }
  }
  // Fails for cubins without line info (cuBLAS) or loaded before profiling: the counters then
  // stay on the kernel's node, as in the reference.
  if (have_cubin && pc.functionName != nullptr &&
      cupti_->get_sass_to_source_correlation(&params) == CUPTI_SUCCESS) {
    source = FormatSourceLocation(params.dirName != nullptr ? params.dirName : "",
                                  params.fileName != nullptr ? params.fileName : "",
                                  params.lineNumber, pc.functionName);
  }
  std::free(params.fileName);  // ours to free (cupti_pcsampling.h)
  std::free(params.dirName);
  return sources_.emplace(std::move(key), std::move(source)).first->second;
}

void PcSampler::Disable(ContextState* state) {
  if (!state->enabled) return;
  state->enabled = false;
  state->usable = false;
  CUpti_PCSamplingDisableParams params{};
  params.size = CUpti_PCSamplingDisableParamsSize;
  params.ctx = state->context;
  CUptiResult result = cupti_->pc_sampling_disable(&params);
  if (result != CUPTI_SUCCESS && VerboseEnabled()) {
    std::fprintf(stderr, "[proton] pcsampling: %s\n",
                 CuptiCallError(cupti_, "cuptiPCSamplingDisable", result).c_str());
  }
}

void PcSampler::ContextDestroying(CUcontext context) {
  MutexLock lock(launch_mutex_, std::defer_lock);
  auto deadline = QuiesceDeadline();
  while (!lock.TryLock()) {
    if (!KeepPolling(deadline)) return;
  }
  auto it = contexts_.find(context);
  if (it == contexts_.end()) return;
  Disable(it->second.get());
  contexts_.erase(it);
}

std::unique_lock<Mutex> PcSampler::Quiesce() {
  // A std::unique_lock (unchecked) because it goes to the caller, who reads nothing the lock
  // guards.
  std::unique_lock<Mutex> lock(launch_mutex_, std::defer_lock);
  auto deadline = QuiesceDeadline();
  while (!lock.try_lock()) {
    if (!KeepPolling(deadline)) {
      ReportQuiesceTimeout();
      break;
    }
  }
  return lock;
}

void PcSampler::ReportQuiesceTimeout() {
  ReportOnce("a sampled launch did not finish within 10 s; flushing without waiting for it");
}

void PcSampler::Shutdown() {
  MutexLock lock(launch_mutex_, std::defer_lock);
  auto deadline = QuiesceDeadline();
  while (!lock.TryLock()) {
    if (!KeepPolling(deadline)) {
      ReportQuiesceTimeout();
      return;  // the launch in flight still uses its context's state
    }
  }
  ShutdownLocked();
}

void PcSampler::ShutdownLocked() {
  for (auto& [context, state] : contexts_) Disable(state.get());
  contexts_.clear();
  if (dropped_samples_ != 0 || hardware_buffer_full_) {
    ReportOnce(std::to_string(dropped_samples_) +
               " samples were dropped because the hardware buffer filled; raise the "
               "interval to sample less often");
  }
  if (unknown_reason_samples_ != 0) {
    ReportOnce(std::to_string(unknown_reason_samples_) +
               " samples had a stall reason that was not configured and were ignored");
  }
  if (VerboseEnabled()) {
    std::fprintf(stderr, "[proton] pcsampling: %llu samples in %llu sampled launches\n",
                 static_cast<unsigned long long>(total_samples_),
                 static_cast<unsigned long long>(sampled_launches_));
  }
}

}  // namespace proton::cupti
