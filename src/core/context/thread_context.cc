// Per-thread context state; see thread_context.h.
//
// Each thread caches the session list (refreshed when the manager's epoch changes) and keeps
// one stack per session. What a capture's path is comes from the session's context source
// (context_source.h: shadow scopes or Python frames); this file iterates the stacks and adds
// what every source shares: the state frames, the open op, the launch cache and trace events.
// Frames remember their node in the session's data; a frame pushed while the session was
// inactive, or before a Clear, is resolved again from the names when needed.
#include "core/context/thread_context.h"

#include <algorithm>
#include <atomic>

#include "core/backend/trace_clock.h"
#include "core/context/context_source.h"
#include "core/context/thread_state.h"
#include "core/data/trace_data.h"
#include "core/runtime/runtime.h"
#include "core/session/session_manager.h"

namespace proton {
namespace {

constexpr std::string_view kLaunchMetadataPrefix = "__proton_launch_metadata:";

ThreadState& State() {
  thread_local ThreadState state;
  return state;
}

}  // namespace

const ContextSource& ContextSourceFor(ContextKind kind) {
  return kind == ContextKind::kPython ? PythonContextSource() : ShadowContextSource();
}

NodeRef BelowParent(ThreadState& t, Stack& stack, NodeRef parent, std::string_view leaf) {
  t.names.clear();
  if (!t.state.empty()) AppendStateFrames(t.state, &t.names);
  if (!leaf.empty()) t.names.push_back(leaf);
  if (t.names.empty()) return parent;
  return stack.data->Descend(parent, t.names);
}

namespace {

// The stack of `session` carried over from the thread's previous list, or a new one.
Stack TakeStack(ThreadState& t, const std::shared_ptr<Session>& session) {
  for (Stack& s : t.stacks) {
    if (s.session == session) return std::move(s);
  }
  Stack fresh;
  fresh.session = session;
  return fresh;
}

// Brings the thread's stacks in line with the current session list and the sessions' state.
void Refresh(ThreadState& t) {
  // seq_cst (a plain load on x86): pairs with the slot store before it (LaunchRing::TakeSlot).
  if (g_hot.session_epoch.load(std::memory_order_seq_cst) == t.epoch) return;
  uint64_t epoch = 0;
  std::shared_ptr<const SessionList> sessions = ProcessRuntime().sessions().Snapshot(&epoch);
  std::vector<Stack> stacks;
  stacks.reserve(sessions->size());
  for (const auto& session : *sessions) {
    stacks.push_back(TakeStack(t, session));
    Stack& stack = stacks.back();
    std::shared_ptr<Data> current = session->CurrentData();
    bool new_phase = stack.data_owner != current;
    if (stack.data_owner == nullptr) stack.base = current->Root();
    stack.data_owner = std::move(current);
    stack.data = stack.data_owner.get();
    stack.session_id = session->id;
    stack.source = &ContextSourceFor(session->context);
    stack.parent = stack.source->parent_fn();
    stack.is_main = IsMain(t, *session);
    stack.trace = stack.data->is_trace();
    // Read after the epoch (Snapshot): a later change bumps the epoch again.
    stack.active = session->active.load(std::memory_order_acquire);
    stack.generation = stack.data->generation();
    if (new_phase) stack.source->AfterNewData(t, stack);
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

// The thread's state for one capture (scope, op, launch, graph node): its sessions are
// current and the Python frames not yet fetched.
ThreadState& BeginCapture() {
  ThreadState& t = State();
  Refresh(t);
  t.python_fetched = false;
  return t;
}

// The path node of a capture: the source's path, then state frames and `leaf`.
NodeRef CapturePath(ThreadState& t, Stack& stack, std::string_view leaf) {
  return BelowParent(t, stack, stack.parent(t, stack), leaf);
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
  ThreadState& t = BeginCapture();
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (scope_id < s.first_scope_id) continue;
    Frame frame{scope_id, std::string(name), NodeRef{}, NodeRef{}, ScopeEventRef{}};
    bool active = s.active.load(std::memory_order_acquire);
    if (active) TraceScopeBegin(stack, frame);
    stack.source->PushScope(t, stack, std::move(frame), active);
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
    stack.source->PopScope(t, stack);
  }
  return result;
}

Status ContextAddScopeMetrics(uint64_t scope_id, const Metrics& metrics) {
  ThreadState& t = BeginCapture();
  Status result;
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (!s.active.load(std::memory_order_acquire)) continue;
    for (size_t i = stack.frames.size(); i > 0; --i) {
      Frame& frame = stack.frames[i - 1];
      if (frame.scope_id != scope_id) continue;
      if (!stack.data->IsCurrent(frame.metric_node)) {
        // Entered while inactive or before a Clear: the path now, with the current state.
        frame.metric_node = stack.source->CurrentMetricNode(t, stack, frame);
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
  ThreadState& t = BeginCapture();
  t.op_open = true;
  t.op_id = op_id;
  t.op_targets.clear();
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (!s.active.load(std::memory_order_acquire)) continue;
    NodeRef node = CapturePath(t, stack, name);
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
  ThreadState& t = BeginCapture();
  Stack* stack = FindStack(t, session);
  if (stack == nullptr) return 0;
  return stack->source->Depth(t, *stack);
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
NodeRef LaunchNode(ThreadState& t, Stack& stack, std::string_view kernel_name) {
  NodeRef parent = stack.parent(t, stack);
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

// The open op's node in `stack`'s session, when the op was captured in the current data.
const OpTarget* OpenOp(const ThreadState& t, const Stack& stack) {
  const OpTarget* op = nullptr;
  for (const OpTarget& o : t.op_targets) {
    if (o.session_id == stack.session_id) op = &o;
  }
  return op != nullptr && IsCurrent(stack, op->node) ? op : nullptr;
}

}  // namespace

size_t CaptureLaunch(std::string_view kernel_name, CaptureTarget* out, size_t capacity) {
  ThreadState& t = BeginCapture();
  size_t count = 0;
  for (Stack& stack : t.stacks) {
    if (!stack.active) continue;  // as of the last Refresh, which this call made
    size_t index = count++;
    if (index >= capacity) continue;
    CaptureTarget& target = out[index];
    target.data = stack.data;
    target.session_id = stack.session_id;
    if (t.op_open) {
      if (const OpTarget* op = OpenOp(t, stack)) {
        target.node = op->node;
        target.name_known = true;
        target.in_op = true;
        continue;
      }
    }
    target.node = LaunchNode(t, stack, kernel_name);
    target.name_known = !kernel_name.empty();
    target.in_op = false;
  }
  return count;
}

void CaptureGraphPaths(std::string_view kernel_name,
                       std::vector<std::pair<int, std::vector<std::string>>>* out) {
  ThreadState& t = BeginCapture();
  for (Stack& stack : t.stacks) {
    Session& s = *stack.session;
    if (!s.active.load(std::memory_order_acquire)) continue;
    // Names only: the captured leaf gets a node when a replayed record lands there (§3.8).
    std::vector<std::string> names = stack.source->PathNames(t, stack);
    t.names.clear();
    if (!t.state.empty()) AppendStateFrames(t.state, &t.names);
    names.insert(names.end(), t.names.begin(), t.names.end());
    if (!kernel_name.empty()) names.emplace_back(kernel_name);
    out->emplace_back(s.id, std::move(names));
  }
}

}  // namespace proton
