// Per-thread context state; see thread_context.h.
//
// Each thread caches the session list (refreshed when the manager's epoch changes) and keeps
// one scope stack per session. Frames remember their node in the session's data; a frame
// pushed while the session was inactive, or before a Clear, is resolved again from the names
// when needed.
#include "core/context/thread_context.h"

#include <algorithm>
#include <array>
#include <atomic>

#include "core/backend/trace_clock.h"
#include "core/context/python_frames.h"
#include "core/data/trace_data.h"
#include "core/runtime/runtime.h"
#include "core/session/session_manager.h"

namespace proton {
namespace {

constexpr std::string_view kLaunchMetadataPrefix = "__proton_launch_metadata:";

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

// The node of a recent launch (shadow context): repeated launches of the same kernel under
// the same path and state reuse it without hashing the name or locking the data.
struct LaunchCache {
  NodeRef parent;
  NodeRef node;
  std::string name;
  std::string state;  // its pointer and size in the entry's first 64 bytes, with the rest
};
constexpr size_t kLaunchCacheSize = 8;

// Laid out for the launch path, which reads the first line and a launch cache entry: between
// two launches the application evicts our state, so each line touched is a cache miss.
struct alignas(64) Stack {
  // Copies of the session's facts, valid while g_hot.session_epoch is unchanged (Refresh renews
  // them): the launch path reads these instead of the Session and Data objects.
  Data* data = nullptr;
  int session_id = -1;
  uint32_t generation = 0;  // the data's
  ContextKind context = ContextKind::kShadow;
  bool active = false;
  bool is_main = false;
  bool trace = false;  // the data is TraceData: scopes and launches are stamped
  std::vector<Frame> frames;
  size_t next_launch = 0;  // round-robin replacement in `launches`
  alignas(64) std::array<LaunchCache, kLaunchCacheSize> launches{};
  std::shared_ptr<Session> session;
  // The data `data` points at (the session's current phase): a thread's context cache owns
  // the data it captures into (correlator.h, Correlator::MakeData).
  std::shared_ptr<Data> data_owner;
  NodeRef base;                   // shadow: parent of frames[0]
  std::vector<ChildCache> cache;  // by depth
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
  std::string state;
  uint64_t token = ThreadToken();
  uint64_t op_id = 0;
  std::vector<OpTarget> op_targets;
  std::vector<std::pair<uint64_t, std::string>> nvtx;  // scope ids of open NVTX ranges
  std::vector<std::string_view> python;                // scratch: frames from the provider
  std::vector<std::string_view> names;                 // scratch: frames to descend
};

ThreadState& State() {
  thread_local ThreadState state;
  return state;
}

bool IsMain(const ThreadState& t, const Session& s) { return s.main_thread == t.token; }

void RepublishMainTop(const ThreadState& t, Stack& stack);

// Brings the thread's stacks in line with the current session list and the sessions' state.
void Refresh(ThreadState& t) {
  // seq_cst (a plain load on x86): pairs with the slot store before it (Correlator::TakeSlot).
  if (g_hot.session_epoch.load(std::memory_order_seq_cst) == t.epoch) return;
  uint64_t epoch = 0;
  std::shared_ptr<const SessionList> sessions = ProcessRuntime().sessions().Snapshot(&epoch);
  std::vector<Stack> stacks;
  stacks.reserve(sessions->size());
  for (const auto& session : *sessions) {
    Stack* old = nullptr;
    for (Stack& s : t.stacks) {
      if (s.session == session) old = &s;
    }
    if (old != nullptr) {
      stacks.push_back(std::move(*old));
    } else {
      Stack fresh;
      fresh.session = session;
      stacks.push_back(std::move(fresh));
    }
    Stack& stack = stacks.back();
    std::shared_ptr<Data> current = session->CurrentData();
    bool new_phase = stack.data_owner != current;
    if (stack.data_owner == nullptr) stack.base = current->Root();
    stack.data_owner = std::move(current);
    stack.data = stack.data_owner.get();
    stack.session_id = session->id;
    stack.context = session->context;
    stack.is_main = IsMain(t, *session);
    stack.trace = stack.data->is_trace();
    // Read after the epoch (Snapshot): a later change bumps the epoch again.
    stack.active = session->active.load(std::memory_order_acquire);
    stack.generation = stack.data->generation();
    if (new_phase) RepublishMainTop(t, stack);
  }
  t.stacks = std::move(stacks);
  std::erase_if(t.op_targets, [&](const OpTarget& op) {
    for (const auto& s : *sessions) {
      if (s->id == op.session_id) return false;
    }
    return true;
  });
  t.epoch = epoch;
}

// Data::IsCurrent against the generation copied at Refresh.
bool IsCurrent(const Stack& stack, NodeRef ref) {
  return ref.node == kRootNode || (ref.node != kNoNode && ref.gen == stack.generation);
}

NodeRef Root(const Stack& stack) { return NodeRef{kRootNode, stack.generation}; }

void Publish(const ThreadState& t, Stack& stack) {
  Session& s = *stack.session;
  if (s.context != ContextKind::kShadow || !IsMain(t, s)) return;
  NodeRef top = stack.frames.empty() ? Root(stack) : stack.frames.back().node;
  s.main_top.store(Session::PackNode(top), std::memory_order_release);
}

// The main thread's current top in the stack's data, or ROOT when unknown or stale.
NodeRef MainTop(const Stack& stack) {
  NodeRef ref = Session::UnpackNode(stack.session->main_top.load(std::memory_order_acquire));
  return IsCurrent(stack, ref) ? ref : Root(stack);
}

// The shadow top node of `stack`, creating the nodes of frames that have none (yet).
NodeRef ResolveTop(Stack& stack) {
  Data& data = *stack.data;
  size_t n = stack.frames.size();
  size_t i = n;
  while (i > 0 && !IsCurrent(stack, stack.frames[i - 1].node)) --i;
  if (i == n)
    return n == 0 ? (IsCurrent(stack, stack.base) ? stack.base : Root(stack))
                  : stack.frames[n - 1].node;
  NodeRef parent =
      i > 0 ? stack.frames[i - 1].node : (IsCurrent(stack, stack.base) ? stack.base : Root(stack));
  for (; i < n; ++i) {
    stack.frames[i].node = data.Child(parent, stack.frames[i].name);
    parent = stack.frames[i].node;
  }
  return parent;
}

// The session's data changed (a new phase): the main thread publishes its open scopes' node
// in the new data, so that threads following it (D9) do not fall back to ROOT.
void RepublishMainTop(const ThreadState& t, Stack& stack) {
  if (stack.context != ContextKind::kShadow || !stack.is_main) return;
  if (!stack.active && !stack.frames.empty()) return;  // resolved when it is activated
  if (!stack.frames.empty()) ResolveTop(stack);
  Publish(t, stack);
}

// Where the thread's work lands in a shadow session before state frames and leaf (D9).
NodeRef ShadowPath(Stack& stack) {
  if (!stack.frames.empty()) return ResolveTop(stack);
  if (stack.is_main) return Root(stack);
  return MainTop(stack);
}

// Fills t.python once per capture.
void FetchPython(ThreadState& t, bool* fetched) {
  if (*fetched) return;
  *fetched = true;
  t.python.clear();
  if (PythonFrameProvider provider = GetPythonFrameProvider()) provider(&t.python);
}

// The node of the thread's python frames (t.python), reusing the previous capture's nodes for
// the frames it shares with this one.
NodeRef PythonPath(const ThreadState& t, Stack& stack) {
  Data& data = *stack.data;
  const std::vector<std::string_view>& now = t.python;
  size_t same = 0;
  size_t limit = std::min(now.size(), stack.python_frames.size());
  while (same < limit && now[same].data() == stack.python_frames[same].data() &&
         now[same].size() == stack.python_frames[same].size()) {
    ++same;
  }
  if (same > 0 && !IsCurrent(stack, stack.python_nodes[same - 1])) same = 0;  // cleared since
  stack.python_frames.resize(same);
  stack.python_nodes.resize(same);
  NodeRef node = same > 0 ? stack.python_nodes[same - 1] : Root(stack);
  for (size_t i = same; i < now.size(); ++i) {
    node = data.Child(node, now[i]);
    if (!node.valid()) break;
    stack.python_frames.push_back(now[i]);
    stack.python_nodes.push_back(node);
  }
  return node;
}

// Where a capture lands before state frames and leaf: the shadow stack or the python frames.
NodeRef ContextParent(ThreadState& t, Stack& stack, bool* python_fetched) {
  if (stack.context == ContextKind::kShadow) return ShadowPath(stack);
  FetchPython(t, python_fetched);
  return PythonPath(t, stack);
}

// `parent`, then state frames and `leaf`.
NodeRef BelowParent(ThreadState& t, Stack& stack, NodeRef parent, std::string_view leaf) {
  t.names.clear();
  if (!t.state.empty()) AppendStateFrames(t.state, &t.names);
  if (!leaf.empty()) t.names.push_back(leaf);
  if (t.names.empty()) return parent;
  return stack.data->Descend(parent, t.names);
}

// The path node of a capture: shadow stack or python frames, then state frames and `leaf`.
NodeRef CapturePath(ThreadState& t, Stack& stack, bool* python_fetched, std::string_view leaf) {
  return BelowParent(t, stack, ContextParent(t, stack, python_fetched), leaf);
}

// Trace sessions keep CPU scope events (formats.md §4.4); nothing for tree sessions.
void TraceScopeBegin(const Stack& stack, Frame& frame) {
  if (!stack.trace) return;
  frame.trace_scope =
      static_cast<TraceData*>(stack.data)->BeginScope(TraceThreadId(), frame.name, TraceClockNs());
}

void TraceScopeEnd(const Stack& stack, const Frame& frame) {
  if (!stack.trace || !frame.trace_scope.valid()) return;
  static_cast<TraceData*>(stack.data)->EndScope(frame.trace_scope, TraceClockNs());
}

Status TraceScopeMetrics(const Stack& stack, const Frame& frame, const Metrics& metrics) {
  if (!stack.trace || !frame.trace_scope.valid()) return Status();
  return static_cast<TraceData*>(stack.data)->AddScopeEventMetrics(frame.trace_scope, metrics);
}

Stack* FindStack(ThreadState& t, int session_id) {
  for (Stack& s : t.stacks) {
    if (s.session->id == session_id) return &s;
  }
  return nullptr;
}

}  // namespace

uint64_t ThreadToken() {
  static std::atomic<uint64_t> next{1};
  thread_local uint64_t token = next.fetch_add(1);
  return token;
}

void ContextRefresh() { Refresh(State()); }

void AppendStateFrames(std::string_view state, std::vector<std::string_view>* frames) {
  if (state.substr(0, kLaunchMetadataPrefix.size()) == kLaunchMetadataPrefix) {
    frames->push_back(state.substr(0, kLaunchMetadataPrefix.size() - 1));
    frames->push_back(state.substr(kLaunchMetadataPrefix.size()));
  } else {
    frames->push_back(state);
  }
}

void ContextEnterScope(uint64_t scope_id, std::string_view name) {
  ThreadState& t = State();
  Refresh(t);
  bool python_fetched = false;
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (scope_id < s.first_scope_id) continue;
    Frame frame{scope_id, std::string(name), NodeRef{}, NodeRef{}, ScopeEventRef{}};
    bool active = s.active.load(std::memory_order_acquire);
    if (active) TraceScopeBegin(stack, frame);
    if (s.context == ContextKind::kShadow) {
      if (stack.frames.empty()) stack.base = IsMain(t, s) ? Root(stack) : MainTop(stack);
      if (active) {
        NodeRef parent = ResolveTop(stack);
        size_t depth = stack.frames.size();
        if (stack.cache.size() <= depth) stack.cache.resize(depth + 1);
        ChildCache& c = stack.cache[depth];
        if (c.parent.node == parent.node && c.parent.gen == parent.gen && c.name == name &&
            stack.data->IsCurrent(c.node)) {
          frame.node = c.node;
        } else {
          frame.node = stack.data->Child(parent, name);
          c = ChildCache{parent, std::string(name), frame.node};
        }
        frame.metric_node = frame.node;
        if (!t.state.empty()) {
          t.names.clear();
          AppendStateFrames(t.state, &t.names);
          frame.metric_node = stack.data->Descend(frame.node, t.names);
        }
      }
      stack.frames.push_back(std::move(frame));
      Publish(t, stack);
    } else {
      if (active) {
        frame.node = CapturePath(t, stack, &python_fetched, "");
        frame.metric_node = frame.node;
      }
      stack.frames.push_back(std::move(frame));
    }
  }
}

Status ContextExitScope(uint64_t scope_id, std::string_view name) {
  ThreadState& t = State();
  Refresh(t);
  Status result;
  for (Stack& stack : t.stacks) {
    if (scope_id < stack.session->first_scope_id) continue;
    if (stack.frames.empty()) {
      result = Status::Error("Context stack is empty", ErrorKind::kRuntime);
      continue;
    }
    const Frame& top = stack.frames.back();
    if (top.scope_id != scope_id || top.name != name) {
      result = Status::Error("Context stack is not balanced", ErrorKind::kRuntime);
      continue;
    }
    TraceScopeEnd(stack, top);
    stack.frames.pop_back();
    Publish(t, stack);
  }
  return result;
}

Status ContextAddScopeMetrics(uint64_t scope_id, const Metrics& metrics) {
  ThreadState& t = State();
  Refresh(t);
  Status result;
  bool python_fetched = false;
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (!s.active.load(std::memory_order_acquire)) continue;
    for (size_t i = stack.frames.size(); i > 0; --i) {
      Frame& frame = stack.frames[i - 1];
      if (frame.scope_id != scope_id) continue;
      if (!stack.data->IsCurrent(frame.metric_node)) {
        // Entered while inactive or before a Clear: the path now, with the current state.
        if (s.context == ContextKind::kShadow) {
          ResolveTop(stack);
          t.names.clear();
          if (!t.state.empty()) AppendStateFrames(t.state, &t.names);
          frame.metric_node = stack.data->Descend(frame.node, t.names);
        } else {
          frame.metric_node = CapturePath(t, stack, &python_fetched, "");
        }
      }
      Status st = stack.data->AddMetrics(frame.metric_node, metrics);
      if (!st.ok()) result = st;
      if (Status traced = TraceScopeMetrics(stack, frame, metrics); !traced.ok()) result = traced;
      break;
    }
  }
  return result;
}

void ContextEnterState(std::string_view name) { State().state.assign(name); }
void ContextExitState() { State().state.clear(); }

void ContextEnterOp(uint64_t op_id, std::string_view name) {
  ThreadState& t = State();
  Refresh(t);
  t.op_open = true;
  t.op_id = op_id;
  t.op_targets.clear();
  bool python_fetched = false;
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (!s.active.load(std::memory_order_acquire)) continue;
    NodeRef node = CapturePath(t, stack, &python_fetched, name);
    t.op_targets.push_back(OpTarget{s.id, stack.data_owner, node});
  }
}

void ContextExitOp(uint64_t op_id) {
  ThreadState& t = State();
  if (!t.op_open || t.op_id != op_id) return;
  t.op_open = false;
  t.op_targets.clear();
}

Status ContextAddOpMetrics(uint64_t op_id, const Metrics& metrics) {
  ThreadState& t = State();
  if (!t.op_open || t.op_id != op_id) return Status();
  Status result;
  for (const OpTarget& op : t.op_targets) {
    Status st = op.data->AddMetrics(op.node, metrics);
    if (!st.ok()) result = st;
  }
  return result;
}

int ContextDepthOf(int session) {
  ThreadState& t = State();
  Refresh(t);
  Stack* stack = FindStack(t, session);
  if (stack == nullptr) return 0;
  if (stack->session->context == ContextKind::kPython) {
    bool fetched = false;
    FetchPython(t, &fetched);
    return static_cast<int>(t.python.size());
  }
  return static_cast<int>(stack->frames.size());
}

void ContextNvtxPush(std::string_view message) {
  uint64_t id = NewScopeId();
  State().nvtx.emplace_back(id, std::string(message));
  ContextEnterScope(id, message);
}

void ContextNvtxPop() {
  ThreadState& t = State();
  if (t.nvtx.empty()) return;
  auto [id, name] = std::move(t.nvtx.back());
  t.nvtx.pop_back();
  (void)ContextExitScope(id, name);
}

namespace {

// The launch node, through the stack's launch cache.
NodeRef LaunchNode(ThreadState& t, Stack& stack, bool* python_fetched,
                   std::string_view kernel_name) {
  NodeRef parent = ContextParent(t, stack, python_fetched);
  for (const LaunchCache& c : stack.launches) {
    if (c.parent.node == parent.node && c.parent.gen == parent.gen && c.name == kernel_name &&
        c.state == t.state && c.node.valid() && IsCurrent(stack, c.node)) {
      return c.node;
    }
  }
  NodeRef node = BelowParent(t, stack, parent, kernel_name);
  LaunchCache& c = stack.launches[stack.next_launch];
  stack.next_launch = (stack.next_launch + 1) % kLaunchCacheSize;
  c.parent = parent;
  c.state.assign(t.state);
  c.name.assign(kernel_name);
  c.node = node;
  return node;
}

}  // namespace

size_t CaptureLaunch(std::string_view kernel_name, CaptureTarget* out, size_t capacity) {
  ThreadState& t = State();
  Refresh(t);
  bool python_fetched = false;
  size_t count = 0;
  for (Stack& stack : t.stacks) {
    if (!stack.active) continue;  // as of the last Refresh, which this call made
    size_t index = count++;
    if (index >= capacity) continue;
    CaptureTarget& target = out[index];
    target.data = stack.data;
    target.session_id = stack.session_id;
    if (t.op_open) {
      const OpTarget* op = nullptr;
      for (const OpTarget& o : t.op_targets) {
        if (o.session_id == stack.session_id) op = &o;
      }
      if (op != nullptr && IsCurrent(stack, op->node)) {
        target.node = op->node;
        target.name_known = true;
        target.in_op = true;
        continue;
      }
    }
    target.node = LaunchNode(t, stack, &python_fetched, kernel_name);
    target.name_known = !kernel_name.empty();
    target.in_op = false;
  }
  return count;
}

void ContextStampTraceLaunch(uint64_t correlation_id) {
  ThreadState& t = State();
  Refresh(t);
  uint64_t now = 0;
  for (Stack& stack : t.stacks) {
    if (!stack.active || !stack.trace) continue;
    if (now == 0) now = TraceClockNs();
    static_cast<TraceData*>(stack.data)->AddLaunch(correlation_id, TraceThreadId(), now);
  }
}

void CaptureGraphPaths(std::string_view kernel_name,
                       std::vector<std::pair<int, std::vector<std::string>>>* out) {
  ThreadState& t = State();
  Refresh(t);
  bool python_fetched = false;
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (!s.active.load(std::memory_order_acquire)) continue;
    // Names only: the captured leaf gets a node when a replayed record lands there (§3.8).
    std::vector<std::string> names;
    if (s.context == ContextKind::kShadow) {
      names = stack.data->PathNames(ShadowPath(stack));
    } else {
      FetchPython(t, &python_fetched);
      names.assign(t.python.begin(), t.python.end());
    }
    t.names.clear();
    if (!t.state.empty()) AppendStateFrames(t.state, &t.names);
    names.insert(names.end(), t.names.begin(), t.names.end());
    if (!kernel_name.empty()) names.emplace_back(kernel_name);
    out->emplace_back(s.id, std::move(names));
  }
}

}  // namespace proton
