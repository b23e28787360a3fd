// The python context source (profiler.md §3.5): a capture's path is the interpreter's frames
// of the capturing thread, named by the binding's provider (python_frames.h). Scopes are still
// pushed (their metrics need a node), at the Python path of their enter.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/context/context_source.h"
#include "core/context/python_frames.h"

namespace proton {
namespace {

// Fills t.python once per capture.
void FetchPython(ThreadState& t) {
  if (t.python_fetched) return;
  t.python_fetched = true;
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

NodeRef Parent(ThreadState& t, Stack& stack) {
  FetchPython(t);
  return PythonPath(t, stack);
}

class PythonSource final : public ContextSource {
 public:
  ParentFn parent_fn() const override { return &Parent; }

  void PushScope(ThreadState& t, Stack& stack, Frame&& frame, bool active) const override {
    if (active) {
      frame.node = BelowParent(t, stack, Parent(t, stack), "");
      frame.metric_node = frame.node;
    }
    stack.frames.push_back(std::move(frame));
  }

  void PopScope(const ThreadState& /*t*/, Stack& stack) const override { stack.frames.pop_back(); }

  void AfterNewData(const ThreadState& /*t*/, Stack& /*stack*/) const override {}

  NodeRef CurrentMetricNode(ThreadState& t, Stack& stack, const Frame& /*frame*/) const override {
    return BelowParent(t, stack, Parent(t, stack), "");
  }

  int Depth(ThreadState& t, const Stack& /*stack*/) const override {
    FetchPython(t);
    return static_cast<int>(t.python.size());
  }

  std::vector<std::string> PathNames(ThreadState& t, Stack& /*stack*/) const override {
    FetchPython(t);
    return std::vector<std::string>(t.python.begin(), t.python.end());
  }
};

constexpr PythonSource kPythonSource;

}  // namespace

const ContextSource& PythonContextSource() { return kPythonSource; }

}  // namespace proton
