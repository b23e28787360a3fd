// CUDA graph bookkeeping: nodes, captured origins with reference counts, execs.
#include "cupti/graph_tracker.h"

namespace proton::cupti {

void GraphTracker::NodeCreated(uint64_t node_id, uint32_t graph_id, bool is_kernel, bool captured) {
  MutexLock lock(mutex_);
  std::vector<uint64_t> ignored;
  if (nodes_.count(node_id) != 0) EraseNode(node_id, &ignored);  // a reused id
  nodes_[node_id] = Node{node_id, graph_id, 0, is_kernel};
  Origin& origin = origins_[node_id];
  origin.refs = 1;
  origin.captured = captured;
  graphs_[graph_id].insert(node_id);
}

void GraphTracker::NodeCloned(uint64_t node_id, uint64_t original_id, uint32_t graph_id,
                              uint32_t exec_id, bool is_kernel) {
  MutexLock lock(mutex_);
  uint64_t origin = original_id;
  auto original = nodes_.find(original_id);
  if (original != nodes_.end()) {
    origin = original->second.origin;
    is_kernel = is_kernel || original->second.is_kernel;
  }
  std::vector<uint64_t> released;
  auto existing = nodes_.find(node_id);
  if (existing != nodes_.end()) {
    // CUPTI also reported the clone as created: re-point it at the original's origin.
    Unref(existing->second.origin, &released);
    graphs_[existing->second.graph_id].erase(node_id);
  }
  nodes_[node_id] = Node{origin, graph_id, exec_id, is_kernel};
  origins_[origin].refs += 1;
  graphs_[graph_id].insert(node_id);
  if (exec_id != 0) execs_[exec_id].nodes.insert(node_id);
}

void GraphTracker::Unref(uint64_t origin, std::vector<uint64_t>* released) {
  auto it = origins_.find(origin);
  if (it == origins_.end()) return;
  if (it->second.refs > 1) {
    --it->second.refs;
    return;
  }
  if (it->second.captured) released->push_back(origin);
  origins_.erase(it);
}

void GraphTracker::EraseNode(uint64_t node_id, std::vector<uint64_t>* released, uint64_t horizon) {
  auto it = nodes_.find(node_id);
  if (it == nodes_.end() || (horizon != 0 && it->second.retired_horizon != 0)) return;
  Node node = it->second;
  if (horizon != 0) {
    it->second.retired_horizon = horizon;
    retired_.push_back(node_id);
  } else {
    nodes_.erase(it);
  }
  auto graph = graphs_.find(node.graph_id);
  if (graph != graphs_.end()) {
    graph->second.erase(node_id);
    if (graph->second.empty()) graphs_.erase(graph);
  }
  if (node.exec_id != 0) {
    auto exec = execs_.find(node.exec_id);
    if (exec != execs_.end()) exec->second.nodes.erase(node_id);
  }
  if (horizon == 0) Unref(node.origin, released);
}

std::vector<uint64_t> GraphTracker::ReleaseRetired(uint64_t completed) {
  MutexLock lock(mutex_);
  std::vector<uint64_t> released;
  std::erase_if(retired_, [&](uint64_t id) PROTON_REQUIRES(mutex_) {
    auto it = nodes_.find(id);
    if (it == nodes_.end() || it->second.retired_horizon == 0) return true;  // id reused
    if (it->second.retired_horizon > completed) return false;
    uint64_t origin = it->second.origin;
    nodes_.erase(it);
    Unref(origin, &released);
    return true;
  });
  return released;
}

size_t GraphTracker::retired_count() const {
  MutexLock lock(mutex_);
  return retired_.size();
}

std::vector<uint64_t> GraphTracker::NodeDestroyed(uint64_t node_id, uint64_t horizon) {
  MutexLock lock(mutex_);
  std::vector<uint64_t> released;
  EraseNode(node_id, &released, horizon);
  return released;
}

std::vector<uint64_t> GraphTracker::GraphDestroyed(uint32_t graph_id, uint64_t horizon) {
  MutexLock lock(mutex_);
  std::vector<uint64_t> released;
  auto graph = graphs_.find(graph_id);
  if (graph == graphs_.end()) return released;
  std::vector<uint64_t> ids(graph->second.begin(), graph->second.end());
  for (uint64_t id : ids) EraseNode(id, &released, horizon);
  graphs_.erase(graph_id);
  return released;
}

std::vector<uint64_t> GraphTracker::ExecDestroyed(uint32_t exec_id, uint64_t horizon) {
  MutexLock lock(mutex_);
  std::vector<uint64_t> released;
  auto exec = execs_.find(exec_id);
  if (exec == execs_.end()) return released;
  std::vector<uint64_t> ids(exec->second.nodes.begin(), exec->second.nodes.end());
  for (uint64_t id : ids) EraseNode(id, &released, horizon);
  execs_.erase(exec_id);
  return released;
}

uint32_t GraphTracker::CountKernels(const std::unordered_set<uint64_t>& nodes) const {
  uint32_t count = 0;
  for (uint64_t id : nodes) {
    auto it = nodes_.find(id);
    if (it != nodes_.end() && it->second.is_kernel) ++count;
  }
  return count;
}

void GraphTracker::ExecCreated(uint32_t exec_id, uint32_t source_graph_id) {
  MutexLock lock(mutex_);
  Exec& exec = execs_[exec_id];
  exec.created = true;
  exec.source_graph_id = source_graph_id;
  // Prefer the exec's own (cloned) nodes; CUPTI versions that do not name the exec in the
  // clone events leave them empty, and the source graph has the same kernel nodes.
  exec.kernel_nodes = CountKernels(exec.nodes);
  if (exec.kernel_nodes == 0) {
    auto graph = graphs_.find(source_graph_id);
    if (graph != graphs_.end()) exec.kernel_nodes = CountKernels(graph->second);
  }
}

GraphTracker::ExecInfo GraphTracker::LookupExec(uint32_t exec_id) const {
  MutexLock lock(mutex_);
  auto it = execs_.find(exec_id);
  if (it == execs_.end() || !it->second.created) return {};
  return {true, it->second.kernel_nodes};
}

uint64_t GraphTracker::CaptureOrigin(uint64_t node_id) const {
  MutexLock lock(mutex_);
  auto node = nodes_.find(node_id);
  uint64_t origin = node == nodes_.end() ? node_id : node->second.origin;
  auto it = origins_.find(origin);
  return it != origins_.end() && it->second.captured ? origin : 0;
}

std::vector<uint64_t> GraphTracker::Clear() {
  MutexLock lock(mutex_);
  std::vector<uint64_t> released;
  for (const auto& [id, origin] : origins_) {
    if (origin.captured) released.push_back(id);
  }
  nodes_.clear();
  retired_.clear();
  origins_.clear();
  graphs_.clear();
  execs_.clear();
  return released;
}

size_t GraphTracker::node_count() const {
  MutexLock lock(mutex_);
  return nodes_.size();
}
size_t GraphTracker::origin_count() const {
  MutexLock lock(mutex_);
  return origins_.size();
}
size_t GraphTracker::exec_count() const {
  MutexLock lock(mutex_);
  return execs_.size();
}

}  // namespace proton::cupti
