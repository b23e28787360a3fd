// The calling thread's context state, shared by thread_context.cc and the context sources
// (context_source.h); internal to src/core/context. Everything here is thread-local state of
// one application thread plus copies of its sessions' facts.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/context/thread_context.h"
#include "core/data/data.h"
#include "core/data/trace_data.h"
#include "core/session/session.h"

namespace proton {

class ContextSource;
struct Stack;
struct ThreadState;

// Where a capture lands in `stack` before state frames and leaf (ContextSource::parent_fn).
using ParentFn = NodeRef (*)(ThreadState& t, Stack& stack);

struct Frame {
  uint64_t scope_id;
  std::string name;
  NodeRef node;               // the scope's node (shadow) or the captured python path (python)
  NodeRef metric_node;        // node + state frames at enter: where the scope's metrics go
  ScopeEventRef trace_scope;  // trace sessions: the scope's CPU event
};

// The node last entered at one depth: a loop that re-enters the same scope finds its node
// here without locking the data (the scope enter+exit hot path).
struct ChildCache {
  NodeRef parent;
  std::string name;
  NodeRef node;
};

// The node of a recent launch: repeated launches of the same kernel under the same path and
// state reuse it without hashing the name or locking the data.
struct LaunchCache {
  NodeRef parent;
  NodeRef node;
  std::string name;
  std::string state;  // its pointer and size in the entry's first 64 bytes, with the rest
};
constexpr size_t kLaunchCacheSize = 8;

// One session as seen by this thread. Laid out for the launch path, which reads the first line
// and a launch cache entry: between two launches the application evicts our state, so each
// line touched is a cache miss.
struct alignas(64) Stack {
  // Copies of the session's facts, valid while g_hot.session_epoch is unchanged (Refresh renews
  // them): the launch path reads these instead of the Session and Data objects.
  Data* data = nullptr;
  int session_id = -1;
  uint32_t generation = 0;    // the data's
  ParentFn parent = nullptr;  // the source's parent_fn()
  bool active = false;
  bool is_main = false;
  bool trace = false;  // the data is TraceData: scopes and launches are stamped
  std::vector<Frame> frames;
  size_t next_launch = 0;                 // round-robin replacement in `launches`
  const ContextSource* source = nullptr;  // the session's context source
  alignas(64) std::array<LaunchCache, kLaunchCacheSize> launches{};
  std::shared_ptr<Session> session;
  // The data `data` points at (the session's current phase): a thread's context cache owns
  // the data it captures into (correlator.h, Correlator::MakeData).
  std::shared_ptr<Data> data_owner;
  NodeRef base;                   // shadow: parent of frames[0]
  std::vector<ChildCache> cache;  // shadow: by depth
  // python: the frames of the last capture (compared by address: the provider's views are
  // stable, python_frames.h) and the node each resolved to, so that a capture descends the
  // tree, hashing names under its lock, only below the first frame that changed.
  std::vector<std::string_view> python_frames;
  std::vector<NodeRef> python_nodes;
};

struct OpTarget {
  int session_id;
  std::shared_ptr<Data> data;
  NodeRef node;
};

// What a launch reads comes first, in one cache line (state's pointer and size included).
struct alignas(64) ThreadState {
  uint64_t epoch = 0;
  std::vector<Stack> stacks;
  bool op_open = false;
  // Whether `python` holds this capture's frames: cleared at the start of every capture, so
  // the provider runs at most once per capture, whatever the number of python sessions.
  bool python_fetched = false;
  std::string state;
  uint64_t token = ThreadToken();
  uint64_t op_id = 0;
  std::vector<OpTarget> op_targets;
  std::vector<std::pair<uint64_t, std::string>> nvtx;  // scope ids of open NVTX ranges
  std::vector<std::string_view> python;                // scratch: frames from the provider
  std::vector<std::string_view> names;                 // scratch: frames to descend
};

inline bool IsMain(const ThreadState& t, const Session& s) { return s.main_thread == t.token; }

// Data::IsCurrent against the generation copied at Refresh.
inline bool IsCurrent(const Stack& stack, NodeRef ref) {
  return ref.node == kRootNode || (ref.node != kNoNode && ref.gen == stack.generation);
}

inline NodeRef Root(const Stack& stack) { return NodeRef{kRootNode, stack.generation}; }

// `parent`, then the thread's state frames and `leaf` (none when empty).
NodeRef BelowParent(ThreadState& t, Stack& stack, NodeRef parent, std::string_view leaf);

}  // namespace proton
