// A context source (profiler.md §3.4-§3.5): what gives a session's captures their path. Each
// session has one (shadow scopes, or the interpreter's Python frames), and the thread context
// (thread_context.cc) asks it, per session stack, where a capture lands, what a scope enter
// does, the stack's depth and a graph node's path names. Sources hold no state of their own:
// each is one immutable object, the per-thread state lives in the Stack they are handed.
// Every method runs on the application thread that owns `t`.
#pragma once

#include <string>
#include <vector>

#include "core/context/thread_state.h"

namespace proton {

class ContextSource {
 public:
  // Where a capture lands before state frames and leaf, as a plain function: Refresh copies
  // it into the stack's first cache line (Stack::parent), so that a launch reads neither this
  // object nor its vtable, two more cache misses per launch once the application has evicted
  // them (bench/core/cache_lines_per_launch.sh).
  virtual ParentFn parent_fn() const = 0;
  // A scope is entered on this thread: when the session is `active`, `frame` gets its node
  // and metric node; then it goes on top of the stack. One call, and the frame's name moves
  // once (into the stack): the scope path is as cheap as before the sources were split.
  virtual void PushScope(ThreadState& t, Stack& stack, Frame&& frame, bool active) const = 0;
  // A scope is exited: its frame, the stack's top, comes off.
  virtual void PopScope(const ThreadState& t, Stack& stack) const = 0;
  // The session moved to new data (a phase): republish what other threads read.
  virtual void AfterNewData(const ThreadState& t, Stack& stack) const = 0;
  // The metric node of `frame` when it was entered while inactive or before a Clear: the path
  // now, with the current state frames.
  virtual NodeRef CurrentMetricNode(ThreadState& t, Stack& stack, const Frame& frame) const = 0;
  // context.depth: open scopes, or Python frames.
  virtual int Depth(ThreadState& t, const Stack& stack) const = 0;
  // Graph capture: the frame names below ROOT of Parent's path.
  virtual std::vector<std::string> PathNames(ThreadState& t, Stack& stack) const = 0;

 protected:
  // Sources are constant objects that are never destroyed (a thread may still capture during
  // static destruction) nor deleted through this interface.
  ~ContextSource() = default;
};

// The source of every session of `kind`.
const ContextSource& ContextSourceFor(ContextKind kind);
// The sources, one file each: shadow_source.cc, python_source.cc. Constant-initialized and
// never destroyed.
const ContextSource& ShadowContextSource();
const ContextSource& PythonContextSource();

}  // namespace proton
