// Data objects whose last owner let go while correlation ring slots may still point at them
// (Correlator::MakeData says why slots hold plain pointers). Retired from any thread, freed by
// Correlator::FreeRetiredData once no busy slot refers to them.
#pragma once

#include <cstddef>
#include <vector>

#include "core/data/data.h"

namespace proton {

void RetireData(Data* data);
// Hands every retired data over to the caller, who deletes it.
std::vector<Data*> TakeRetiredData();
size_t RetiredDataCount();

}  // namespace proton
