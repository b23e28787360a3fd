// LossAccounting; see loss_counters.h.
#include "core/correlation/loss_counters.h"

namespace proton {

void LossAccounting::AddLost(RecordLoss why, uint64_t count) {
  switch (why) {
    case RecordLoss::kDropped: Add(dropped_, count); break;
    case RecordLoss::kIncomplete: Add(incomplete_, count); break;
    case RecordLoss::kUnknownCorrelation: Add(unknown_, count); break;
  }
}

LossCounters LossAccounting::Snapshot() const {
  LossCounters c;
  c.dropped = dropped_.load(std::memory_order_relaxed);
  c.incomplete = incomplete_.load(std::memory_order_relaxed);
  c.unknown = unknown_.load(std::memory_order_relaxed);
  c.uncorrelated_launches = uncorrelated_launches_.load(std::memory_order_relaxed);
  c.pc_samples_unattributed = pc_samples_unattributed_.load(std::memory_order_relaxed);
  return c;
}

void LossAccounting::Clear() {
  for (std::atomic<uint64_t>* counter :
       {&dropped_, &incomplete_, &unknown_, &uncorrelated_launches_, &pc_samples_unattributed_}) {
    counter->store(0, std::memory_order_relaxed);
  }
}

std::string LossAccounting::Warning() const {
  LossCounters c = Snapshot();
  uint64_t unexpected =
      c.unknown > c.uncorrelated_launches ? c.unknown - c.uncorrelated_launches : 0;
  uint64_t total = c.dropped + c.incomplete + unexpected;
  if (total == 0) return "";
  std::string parts;
  auto add = [&](uint64_t n, const std::string& what) {
    if (n == 0) return;
    if (!parts.empty()) parts += "; ";
    parts += std::to_string(n) + " " + what;
  };
  add(c.dropped,
      "dropped because the activity buffers overflowed; raise PROTON_PROFILE_BUFFER_SIZE");
  add(c.incomplete, "incomplete (start >= end)");
  add(unexpected, "with an unknown correlation id");
  return "[proton] warning: " + std::to_string(total) + " kernel records were lost (" + parts + ")";
}

}  // namespace proton
