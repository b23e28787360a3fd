// The retired data list; see retired_data.h.
#include "core/correlation/retired_data.h"

#include "core/fork_guard.h"

namespace proton {
namespace {

// Never destroyed, so that data retired during static destruction still has somewhere to go.
struct Retired {
  ForkGuardedMutex mutex{LockRank::kRetiredData};
  std::vector<Data*> data PROTON_GUARDED_BY(mutex);
};

Retired& RetiredList() {
  static Retired* retired = new Retired;
  return *retired;
}

}  // namespace

void RetireData(Data* data) {
  Retired& r = RetiredList();
  ForkGuardedLock lock(r.mutex);
  r.data.push_back(data);
}

std::vector<Data*> TakeRetiredData() {
  std::vector<Data*> taken;
  Retired& r = RetiredList();
  ForkGuardedLock lock(r.mutex);
  taken.swap(r.data);
  return taken;
}

size_t RetiredDataCount() {
  Retired& r = RetiredList();
  ForkGuardedLock lock(r.mutex);
  return r.data.size();
}

}  // namespace proton
