// The pure parts of PC sampling; see pc_sampling_decoder.h.
#include "cupti/pc_sampling_decoder.h"

#include <charconv>

namespace proton::cupti {

int IntervalToExponent(uint64_t interval) {
  if (interval <= 1) return kMinSamplingExponent;
  int exponent = 63 - __builtin_clzll(interval);  // floor(log2(interval))
  if (exponent < 63) {
    uint64_t below = uint64_t{1} << exponent;
    uint64_t above = below << 1;
    if (above - interval < interval - below) ++exponent;
  }
  if (exponent < kMinSamplingExponent) return kMinSamplingExponent;
  if (exponent > kMaxSamplingExponent) return kMaxSamplingExponent;
  return exponent;
}

int SamplingExponentOfMode(std::string_view mode) {
  constexpr std::string_view kKey = "interval=";
  size_t at = mode.find(kKey);
  if (at == std::string_view::npos) return kDefaultSamplingExponent;
  std::string_view value = mode.substr(at + kKey.size());
  value = value.substr(0, value.find(':'));
  uint64_t interval = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), interval);
  if (ec != std::errc() || end != value.data() + value.size() || interval == 0) {
    // Out of range for uint64 (ParseMode accepted it): the largest period.
    return ec == std::errc::result_out_of_range ? kMaxSamplingExponent : kDefaultSamplingExponent;
  }
  return IntervalToExponent(interval);
}

StallReasonTable MatchStallReasons(std::span<const std::string> names,
                                   std::span<const uint32_t> indices) {
  StallReasonTable table;
  table.available = names.size();
  for (size_t i = 0; i < names.size() && i < indices.size(); ++i) {
    const std::string& name = names[i];
    for (size_t metric = kPcNumStalledSamples + 1; metric < kPcSamplingNames.size(); ++metric) {
      if (name.find(kPcSamplingNames[metric]) == std::string::npos) continue;
      table.indices.push_back(indices[i]);
      table.by_index[indices[i]] = {metric, name.find("not_issued") != std::string::npos};
      break;
    }
  }
  return table;
}

uint64_t AddPcRecord(const StallReasonTable& table, const CUpti_PCSamplingPCData& pc,
                     PcCounters* counters) {
  uint64_t unknown = 0;
  if (pc.stallReason == nullptr) return 0;
  for (size_t j = 0; j < pc.stallReasonCount; ++j) {
    const CUpti_PCSamplingStallReason& reason = pc.stallReason[j];
    auto it = table.by_index.find(reason.pcSamplingStallReasonIndex);
    if (it == table.by_index.end()) {
      unknown += reason.samples;
      continue;
    }
    uint64_t stalled = it->second.not_issued ? 0 : reason.samples;
    (*counters)[kPcNumSamples] += reason.samples;
    (*counters)[kPcNumStalledSamples] += stalled;
    (*counters)[it->second.metric] += stalled;
  }
  return unknown;
}

std::string FormatSourceLocation(std::string_view dir, std::string_view file, uint32_t line,
                                 std::string_view function) {
  if (file.empty()) return "";
  std::string out(dir);
  out += '/';
  out += file;
  out += ':';
  out += std::to_string(line);
  out += '@';
  out += function;
  return out;
}

Status CheckPcRecordAbi(uint32_t library_version, uint32_t header_version) {
  bool library_new = library_version >= kPcRecordAbiVersion;
  bool headers_new = header_version >= kPcRecordAbiVersion;
  if (library_new == headers_new) return Status();
  return Status::Error(
      "mode pcsampling needs a CUPTI library on the same side of CUPTI 12.4 (API version 22) "
      "as the headers proton was built with: the library has API version " +
          std::to_string(library_version) + ", the headers " + std::to_string(header_version) +
          ", and the PC record layout changed in between; set PROTON_CUPTI_LIBRARY to a "
          "matching libcupti or rebuild proton against this CUDA toolkit",
      ErrorKind::kRuntime);
}

std::string PcSamplingCallError(const CuptiApi* api, const char* function, CUptiResult result) {
  std::string text = CuptiCallError(api, function, result);
  if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
    text +=
        ": the user does not have permission to access NVIDIA GPU Performance Counters "
        "(ERR_NVGPUCTRPERM); load the nvidia kernel module with "
        "NVreg_RestrictProfilingToAdminUsers=0 or run as root";
  }
  return text;
}

}  // namespace proton::cupti
