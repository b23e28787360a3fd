// The shadow context source (profiler.md §3.4): the scopes the thread entered, one stack per
// session, and for a thread without scopes of its own the main thread's open scopes (D9),
// which the main thread publishes in the session (Session::main_top) whenever its top changes.
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "core/context/context_source.h"

namespace proton {
namespace {

void Publish(const ThreadState& t, Stack& stack) {
  Session& s = *stack.session;
  if (!IsMain(t, s)) return;
  NodeRef top = stack.frames.empty() ? Root(stack) : stack.frames.back().node;
  s.main_top.store(Session::PackNode(top), std::memory_order_release);
}

// The main thread's current top in the stack's data, or ROOT when unknown or stale.
NodeRef MainTop(const Stack& stack) {
  NodeRef ref = Session::UnpackNode(stack.session->main_top.load(std::memory_order_acquire));
  return IsCurrent(stack, ref) ? ref : Root(stack);
}

// The top node of `stack`, creating the nodes of frames that have none (yet).
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

// The node of a scope entered below `parent`, through the stack's child cache for its depth.
NodeRef ScopeNode(Stack& stack, NodeRef parent, std::string_view name) {
  size_t depth = stack.frames.size();
  if (stack.cache.size() <= depth) stack.cache.resize(depth + 1);
  ChildCache& c = stack.cache[depth];
  if (c.parent.node == parent.node && c.parent.gen == parent.gen && c.name == name &&
      stack.data->IsCurrent(c.node)) {
    return c.node;
  }
  NodeRef node = stack.data->Child(parent, name);
  c = ChildCache{parent, std::string(name), node};
  return node;
}

// `node` below the thread's state frames: where a scope's metrics go.
NodeRef WithStateFrames(ThreadState& t, Stack& stack, NodeRef node) {
  if (t.state.empty()) return node;
  t.names.clear();
  AppendStateFrames(t.state, &t.names);
  return stack.data->Descend(node, t.names);
}

// Where the thread's work lands before state frames and leaf (D9).
NodeRef Parent(ThreadState& /*t*/, Stack& stack) {
  if (!stack.frames.empty()) return ResolveTop(stack);
  if (stack.is_main) return Root(stack);
  return MainTop(stack);
}

class ShadowSource final : public ContextSource {
 public:
  ParentFn parent_fn() const override { return &Parent; }

  void PushScope(ThreadState& t, Stack& stack, Frame&& frame, bool active) const override {
    if (stack.frames.empty()) stack.base = IsMain(t, *stack.session) ? Root(stack) : MainTop(stack);
    if (active) {
      frame.node = ScopeNode(stack, ResolveTop(stack), frame.name);
      frame.metric_node = WithStateFrames(t, stack, frame.node);
    }
    stack.frames.push_back(std::move(frame));
    Publish(t, stack);
  }

  void PopScope(const ThreadState& t, Stack& stack) const override {
    stack.frames.pop_back();
    Publish(t, stack);
  }

  // The main thread publishes its open scopes' node in the new data, so that threads following
  // it (D9) do not fall back to ROOT.
  void AfterNewData(const ThreadState& t, Stack& stack) const override {
    if (!stack.is_main) return;
    if (!stack.active && !stack.frames.empty()) return;  // resolved when it is activated
    if (!stack.frames.empty()) ResolveTop(stack);
    Publish(t, stack);
  }

  NodeRef CurrentMetricNode(ThreadState& t, Stack& stack, const Frame& frame) const override {
    ResolveTop(stack);
    // Descended even without state frames: the node comes back checked against the data.
    t.names.clear();
    if (!t.state.empty()) AppendStateFrames(t.state, &t.names);
    return stack.data->Descend(frame.node, t.names);
  }

  int Depth(ThreadState& /*t*/, const Stack& stack) const override {
    return static_cast<int>(stack.frames.size());
  }

  std::vector<std::string> PathNames(ThreadState& t, Stack& stack) const override {
    return stack.data->PathNames(Parent(t, stack));
  }
};

constexpr ShadowSource kShadowSource;

}  // namespace

const ContextSource& ShadowContextSource() { return kShadowSource; }

}  // namespace proton
