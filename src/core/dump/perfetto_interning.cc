// Interning index; see perfetto_interning.h.
#include "core/dump/perfetto_interning.h"

#include "util/perfetto_fields.h"
#include "util/proto_wire.h"

namespace proton {

uint64_t InternTable::Intern(std::string_view s) {
  auto it = iids_.find(s);
  if (it != iids_.end()) return it->second;
  strings_.emplace_back(s);
  uint64_t iid = strings_.size();
  iids_.emplace(strings_.back(), iid);
  return iid;
}

void InternTable::WritePending(std::string& out, uint32_t field) {
  std::string entry;
  for (; written_ < strings_.size(); ++written_) {
    entry.clear();
    proto::AppendUint(entry, perfetto::kInternedIid, written_ + 1);
    proto::AppendBytes(entry, perfetto::kInternedName, strings_[written_]);
    proto::AppendBytes(out, field, entry);
  }
}

}  // namespace proton
