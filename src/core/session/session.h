// One profiling session (profiler.md §1.2, §3.9): its name, context source, data and state.
// Sessions are shared (shared_ptr) between the session manager, the per-thread context caches
// and in-flight correlation entries, so a record arriving after finalize never touches freed
// memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "core/data/data.h"
#include "core/hot_flags.h"
#include "core/session/phases.h"

namespace proton {

enum class ContextKind { kShadow, kPython };

class Session {
 public:
  Session(int id_in, std::string name_in, bool default_name_in, ContextKind context_in,
          PhaseSet::DataFactory make_data, std::string backend_in, std::string mode_in,
          std::string flush_format_in, uint64_t first_scope_id_in, uint64_t main_thread_in)
      : id(id_in),
        name(std::move(name_in)),
        default_name(default_name_in),
        context(context_in),
        phases(std::move(make_data)),
        backend(std::move(backend_in)),
        mode(std::move(mode_in)),
        flush_format(std::move(flush_format_in)),
        first_scope_id(first_scope_id_in),
        main_thread(main_thread_in),
        main_top(PackNode(phases.Current()->Root())) {}

  const int id;
  const std::string name;   // as given; "" or "-" = standard output
  const bool default_name;  // name=None: the rank suffix may apply (§1.2)
  const ContextKind context;
  PhaseSet phases;
  // The current phase's data: where new launches and scopes go.
  std::shared_ptr<Data> CurrentData() const { return phases.Current(); }
  const std::string backend;  // requested backend, lower case ("cupti" for auto)
  const std::string mode;
  // periodic_flushing's part format (a name of format_names.h); "" when
  // the mode is not periodic_flushing.
  const std::string flush_format;
  bool periodic_flushing() const { return !flush_format.empty(); }
  // is_phase_complete was asked about a sealed phase that was not complete: the phase writer
  // fetches finished records for this session until its sealed phases are complete.
  std::atomic<bool> completion_polled{false};
  // Part files of this session written so far: a phase that recorded nothing is written only
  // when the session would otherwise leave no file (§3.11).
  std::atomic<int> parts_written{0};
  // The path of the last part file written, whose stem names the run's end marker
  // (`<stem>.done`, formats.md §5). Written by the phase writer thread while it is busy and
  // by finalize under the manager's lock after PhaseWriter::WaitIdle, which orders the two;
  // read only by finalize.
  std::string last_part_path;
  // Scopes with smaller ids were entered before this session existed: their exits are
  // ignored by this session instead of raising "Context stack is empty".
  const uint64_t first_scope_id;
  // The thread token of the session's main thread (§3.4): the one that started it.
  const uint64_t main_thread;
  std::atomic<bool> active{true};  // written through SetActive only
  void SetActive(bool on) {
    active.store(on, std::memory_order_release);
    g_hot.session_epoch.fetch_add(1, std::memory_order_acq_rel);
  }
  // The main thread's current top node, packed (generation << 32 | node), published on every
  // enter and exit (D9): threads without scopes of their own attribute to it.
  std::atomic<uint64_t> main_top;

  static uint64_t PackNode(NodeRef ref) { return (uint64_t{ref.gen} << 32) | ref.node; }
  static NodeRef UnpackNode(uint64_t packed) {
    return NodeRef{static_cast<uint32_t>(packed & 0xffffffffu),
                   static_cast<uint32_t>(packed >> 32)};
  }
};

}  // namespace proton
