// For the reader tests: everything observable of a parsed tree as text, so that two readers'
// trees compare with one EXPECT_EQ (and a mismatch shows where they differ).
#pragma once

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

#include "tree/profile_tree.h"

namespace proton::format {

inline std::string Bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return std::to_string(u);
}

// Finalizes `t` (the metric table) and writes nodes, columns and devices.
inline std::string Dump(tree::ProfileTree& t) {
  t.Finalize();
  std::ostringstream o;
  o << t.size() << "\n";
  for (tree::NodeId n = 0; n < t.size(); ++n)
    o << t.parent(n) << " " << t.name(n) << "|" << t.type(n) << " " << t.has_metrics(n) << "\n";
  for (const auto& c : t.columns()) {
    o << c.key << " " << c.inclusive << " " << static_cast<int>(c.kind) << "\n";
    for (tree::NodeId n = 0; n < t.size(); ++n)
      o << static_cast<int>(c.type[n]) << ":" << Bits(c.own[n]) << ":" << c.int_value(n) << ":"
        << c.str(n) << ":" << (c.inc.empty() ? "" : Bits(c.inc[n])) << " ";
    o << "\n";
  }
  for (const auto& e : t.devices().entries)
    o << e.device_type << "/" << e.device_index << " " << e.info.arch << e.info.has_arch << " "
      << Bits(e.info.bus_width) << Bits(e.info.clock_rate) << Bits(e.info.memory_clock_rate)
      << Bits(e.info.num_sms) << "\n";
  return o.str();
}

}  // namespace proton::format
