// Pieces shared by the JSON and MessagePack readers (see reader_common.h).
#include "format/reader_common.h"

#include <string>

namespace proton::format {

using tree::ValueType;

void SetTokenValue(tree::ProfileTree& tree, tree::NodeId n, std::string_view key,
                   const TokenValue& t) {
  switch (t.type) {
    case ValueType::kInt: tree.SetInt(n, key, t.i); break;
    case ValueType::kDouble: tree.SetDouble(n, key, t.d); break;
    case ValueType::kNull: tree.SetNull(n, key); break;
    case ValueType::kString: tree.SetString(n, key, t.text); break;
    case ValueType::kAbsent: break;
    default: tree.SetOther(n, key, t.type); break;
  }
}

void SetDeviceField(tree::DeviceInfo& info, std::string_view field, const TokenValue& t) {
  const bool number = t.type == ValueType::kInt || t.type == ValueType::kDouble;
  if (field == "arch") {
    if (t.type == ValueType::kString || number) {
      info.arch.assign(t.text);
      info.has_arch = true;
    } else {
      info.has_arch = false;
    }
    return;
  }
  double* slot = field == "bus_width"           ? &info.bus_width
                 : field == "clock_rate"        ? &info.clock_rate
                 : field == "memory_clock_rate" ? &info.memory_clock_rate
                 : field == "num_sms"           ? &info.num_sms
                                                : nullptr;
  if (slot != nullptr) *slot = number ? t.d : tree::kMissing;
}

void AddDevice(tree::DeviceTable& table, std::string device_type, std::string index,
               tree::DeviceInfo info) {
  for (auto& e : table.entries)
    if (e.device_type == device_type && e.device_index == index) {
      e.info = std::move(info);
      return;
    }
  table.entries.push_back({std::move(device_type), std::move(index), std::move(info)});
}

Error ReadFailError(ReadFail fail, std::string_view display_name) {
  PROTON_CHECK(fail != ReadFail::kNone) << "a read that did not fail has no error";
  // Built with append: g++ 12 -O3 warns falsely (-Wrestrict) on "'" + std::string(...).
  std::string m;
  switch (fail) {
    case ReadFail::kNone: break;
    case ReadFail::kRead:
      m.append("cannot read '").append(display_name).append("': not a JSON or MessagePack profile");
      break;
    case ReadFail::kChrome:
      m.append("'").append(display_name).append("' is a Chrome trace, not a Proton tree profile");
      break;
    case ReadFail::kShape:
      m.append("'").append(display_name).append("' is not a Proton tree profile");
      break;
  }
  return Status::Error(std::move(m));
}

}  // namespace proton::format
