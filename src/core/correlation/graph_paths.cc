// GraphPaths; see graph_paths.h.
#include "core/correlation/graph_paths.h"

#include <atomic>
#include <cstdio>

namespace proton {
namespace {

constexpr std::string_view kCapturedAt = "<captured_at>";

std::atomic<bool> g_graph_fallback_warned{false};

}  // namespace

void GraphPaths::Captured(uint64_t capture_key, std::string_view kernel_name, SessionPaths paths) {
  ForkGuardedLock lock(mutex_);
  paths_[capture_key] = std::move(paths);
  auto [name_it, added] = key_names_.emplace(capture_key, std::string(kernel_name));
  if (added) keys_by_name_[name_it->second].push_back(capture_key);
}

void GraphPaths::Released(uint64_t capture_key) {
  ForkGuardedLock lock(mutex_);
  paths_.erase(capture_key);
  auto name = key_names_.find(capture_key);
  if (name == key_names_.end()) return;
  auto keys = keys_by_name_.find(name->second);
  if (keys != keys_by_name_.end()) {
    std::erase(keys->second, capture_key);
    if (keys->second.empty()) keys_by_name_.erase(keys);
  }
  key_names_.erase(name);
}

const std::vector<std::string>* GraphPaths::CapturedPathLocked(uint64_t capture_key,
                                                               int session_id) const {
  auto it = paths_.find(capture_key);
  if (it == paths_.end()) return nullptr;
  for (const auto& [session, names] : it->second) {
    if (session == session_id) return &names;
  }
  return nullptr;
}

const std::vector<std::string>* GraphPaths::GraphPathLocked(const KernelRecord& record,
                                                            int session_id) const {
  if (record.graph_node_id != 0) {
    if (const auto* path = CapturedPathLocked(record.graph_node_id, session_id)) return path;
  }
  // Some CUPTI versions name, in a replayed kernel's record, a node of the exec that no
  // resource callback reported (the exec's own copy of the graph). The captured node of the
  // same kernel stands for it when every capture of that kernel has the same path.
  auto keys = keys_by_name_.find(std::string(record.name));
  if (keys == keys_by_name_.end()) return nullptr;
  const std::vector<std::string>* found = nullptr;
  for (uint64_t key : keys->second) {
    const auto* path = CapturedPathLocked(key, session_id);
    if (path == nullptr) continue;
    if (found != nullptr && *found != *path) return nullptr;  // ambiguous: the launch context
    found = path;
  }
  return found;
}

bool GraphPaths::AddBelowCapturePath(const CaptureTarget& target, const KernelRecord& record) {
  ForkGuardedLock lock(mutex_);
  const std::vector<std::string>* path = GraphPathLocked(record, target.session_id);
  if (path == nullptr) return false;
  std::vector<std::string_view> names{kCapturedAt};
  names.insert(names.end(), path->begin(), path->end());
  NodeRef node = target.data->Descend(target.node, names);
  target.data->AddKernel(node, record, false);
  return true;
}

void GraphPaths::AddReplayedKernel(const CaptureTarget& target, const KernelRecord& record) {
  if (AddBelowCapturePath(target, record)) return;
  if (!g_graph_fallback_warned.exchange(true)) {
    std::fprintf(stderr,
                 "[proton] warning: a CUDA graph captured before profiling started was "
                 "launched; its kernels are attributed to the launch context\n");
  }
  target.data->AddKernel(target.node, record, true);
}

void GraphPaths::Clear() {
  ForkGuardedLock lock(mutex_);
  paths_.clear();
  key_names_.clear();
  keys_by_name_.clear();
}

size_t GraphPaths::size() {
  ForkGuardedLock lock(mutex_);
  return paths_.size();
}

}  // namespace proton
