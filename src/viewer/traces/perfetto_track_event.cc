// See perfetto_track_event.h.
#include "viewer/traces/perfetto_track_event.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "util/proto_wire.h"
#include "viewer/traces/perfetto_fields.h"

namespace proton::viewer::traces {
namespace {

bool ReadVarint(const char*& p, const char* end, uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 70 && p < end; shift += 7) {
    const auto b = static_cast<uint8_t>(*p++);
    value |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

// A repeated integer field's values: one varint or fixed64, or a packed run of them.
bool AppendRepeated(const proto::Field& f, bool fixed, std::vector<uint64_t>& out) {
  if (f.type == (fixed ? proto::kFixed64 : proto::kVarint)) {
    out.push_back(f.varint);
    return true;
  }
  if (f.type != proto::kLengthDelimited) return false;
  const char* p = f.bytes.data();
  const char* end = p + f.bytes.size();
  if (fixed) {
    if (f.bytes.size() % 8 != 0) return false;
    for (; p < end; p += 8) {
      uint64_t v = 0;
      for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
      out.push_back(v);
    }
    return true;
  }
  while (p < end) {
    uint64_t v = 0;
    if (!ReadVarint(p, end, v)) return false;
    out.push_back(v);
  }
  return true;
}

void AppendNumber(std::string& text, const Metric& m) {
  char buf[32];
  std::to_chars_result r{};
  switch (m.type) {
    case Metric::Type::kInt: r = std::to_chars(buf, buf + sizeof buf, m.int_value); break;
    case Metric::Type::kUint: r = std::to_chars(buf, buf + sizeof buf, m.uint_value); break;
    case Metric::Type::kDouble: r = std::to_chars(buf, buf + sizeof buf, m.double_value); break;
    case Metric::Type::kString:
      text += '"';
      text += m.text;
      text += '"';
      return;
  }
  text.append(buf, r.ptr);
}

}  // namespace

void DecodedTrackEvent::Clear() {
  type = 0;
  track_uuid.reset();
  name = category = {};
  call_stack.clear();
  metrics.clear();
  flows_out.clear();
  flows_in.clear();
  original_dur_ns.reset();
}

bool TrackEventDecoder::Fail(std::string message) {
  error_ = std::move(message);
  return false;
}

bool TrackEventDecoder::Interned(const PerfettoSequence& sequence, traces::Interned kind,
                                 uint64_t iid, std::string_view& out, const char* what) {
  const std::string* s = sequence.Find(kind, iid);
  if (s == nullptr)
    return Fail(std::string(what) + " iid " + std::to_string(iid) + " is not interned");
  out = *s;
  return true;
}

bool TrackEventDecoder::Decode(std::string_view bytes, const PerfettoSequence& sequence,
                               DecodedTrackEvent& out) {
  out.Clear();
  frames_.clear();
  texts_.clear();
  proto::Reader r(bytes);
  proto::Field f;
  std::optional<uint64_t> name_iid, category_iid;
  std::vector<uint64_t> ids;
  bool ok = true;
  while (ok && r.Next(f)) {
    const bool bytes_field = f.type == proto::kLengthDelimited;
    switch (f.number) {
      case pf::event::kType: out.type = static_cast<uint32_t>(f.varint); break;
      case pf::event::kTrackUuid: out.track_uuid = f.varint; break;
      case pf::event::kNameIid: name_iid = f.varint; break;
      case pf::event::kName: out.name = bytes_field ? f.bytes : out.name; break;
      case pf::event::kCategoryIids:
        ids.clear();
        ok = AppendRepeated(f, false, ids);
        if (!category_iid && !ids.empty()) category_iid = ids.front();
        break;
      case pf::event::kCategories:
        if (bytes_field && out.category.empty()) out.category = f.bytes;
        break;
      case pf::event::kDebugAnnotations:
        if (bytes_field && !Annotation(f.bytes, sequence, out)) return false;
        break;
      case pf::event::kFlowIdsOld: ok = AppendRepeated(f, false, out.flows_out); break;
      case pf::event::kFlowIds: ok = AppendRepeated(f, true, out.flows_out); break;
      case pf::event::kTerminatingFlowIdsOld: ok = AppendRepeated(f, false, out.flows_in); break;
      case pf::event::kTerminatingFlowIds: ok = AppendRepeated(f, true, out.flows_in); break;
      default: break;
    }
  }
  if (!ok || !r.ok()) return Fail("a malformed TrackEvent");
  if (name_iid && !Interned(sequence, Interned::kEventName, *name_iid, out.name, "event name")) {
    return false;
  }
  if (category_iid &&
      !Interned(sequence, Interned::kCategory, *category_iid, out.category, "category")) {
    return false;
  }
  std::stable_sort(frames_.begin(), frames_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  // Triton main's kernels name their whole stack ("call_stack_0" is "ROOT", the last frame
  // the kernel); ours (formats.md §7.5) only the frames between, ROOT and the kernel's name
  // being implied. The model's stack is whole either way.
  const bool implied = EventKindOfCategory(out.category) == EventKind::kKernel &&
                       (frames_.empty() || frames_.front().second != "ROOT");
  if (implied) out.call_stack.push_back("ROOT");
  for (const auto& frame : frames_) out.call_stack.push_back(frame.second);
  if (implied) out.call_stack.push_back(out.name);
  return true;
}

bool TrackEventDecoder::Annotation(std::string_view bytes, const PerfettoSequence& sequence,
                                   DecodedTrackEvent& out) {
  Metric value;
  std::string_view name;
  bool has_value = false;
  if (!AnnotationValue(bytes, sequence, value, name, has_value)) return false;
  if (!has_value) return true;  // nested values and dictionaries are left out
  const AnnotationRole role = ClassifyAnnotationName(name);
  if (role.kind == AnnotationRole::kFrame && value.type == Metric::Type::kString) {
    frames_.emplace_back(role.frame, value.text);
    return true;
  }
  if (role.kind == AnnotationRole::kOriginalDuration && value.type != Metric::Type::kString) {
    out.original_dur_ns = value.type == Metric::Type::kUint
                              ? value.uint_value
                              : static_cast<uint64_t>(value.int_value);
    return true;
  }
  value.name = role.kind == AnnotationRole::kFrame ? name : role.metric_name;
  out.metrics.push_back(value);
  return true;
}

}  // namespace proton::viewer::traces

namespace proton::viewer::traces {
namespace {

// A scalar value field of a DebugAnnotation into `v`; false when `f` is not one.
bool ScalarValue(const proto::Field& f, Metric& v) {
  switch (f.number) {
    case pf::annotation::kBool:
      v.type = Metric::Type::kInt;
      v.int_value = f.varint != 0 ? 1 : 0;
      return f.type == proto::kVarint;
    case pf::annotation::kUint:
    case pf::annotation::kPointer:
      v.type = Metric::Type::kUint;
      v.uint_value = f.varint;
      return f.type == proto::kVarint;
    case pf::annotation::kInt:
      v.type = Metric::Type::kInt;
      v.int_value = static_cast<int64_t>(f.varint);
      return f.type == proto::kVarint;
    case pf::annotation::kDouble:
      v.type = Metric::Type::kDouble;
      v.double_value = f.as_double();
      return f.type == proto::kFixed64;
    case pf::annotation::kString:
    case pf::annotation::kLegacyJson:
      v.type = Metric::Type::kString;
      v.text = f.bytes;
      return f.type == proto::kLengthDelimited;
    default: return false;
  }
}

}  // namespace

bool TrackEventDecoder::AnnotationValue(std::string_view bytes, const PerfettoSequence& sequence,
                                        Metric& v, std::string_view& name, bool& has_value) {
  proto::Reader r(bytes);
  proto::Field f;
  std::string* array = nullptr;
  while (r.Next(f)) {
    if (f.number == pf::annotation::kNameIid && f.type == proto::kVarint) {
      if (!Interned(sequence, Interned::kAnnotationName, f.varint, name, "annotation name")) {
        return false;
      }
    } else if (f.number == pf::annotation::kName && f.type == proto::kLengthDelimited) {
      name = f.bytes;
    } else if (ScalarValue(f, v)) {
      has_value = true;
    } else if (f.number == pf::annotation::kStringIid && f.type == proto::kVarint) {
      v.type = Metric::Type::kString;
      if (!Interned(sequence, Interned::kAnnotationString, f.varint, v.text, "annotation string")) {
        return false;
      }
      has_value = true;
    } else if (f.number == pf::annotation::kArrayValues && f.type == proto::kLengthDelimited) {
      if (array == nullptr) {
        texts_.emplace_back("[");
        array = &texts_.back();
      } else {
        *array += ',';
      }
      if (!ArrayElement(f.bytes, sequence, *array)) return false;
    }
  }
  if (!r.ok()) return Fail("a malformed debug annotation");
  if (array != nullptr) {
    *array += ']';
    v.type = Metric::Type::kString;
    v.text = *array;
    has_value = true;
  }
  return true;
}

// One element of array_values: its scalar value (a nested array or dictionary is written as
// null: nothing here recurses on the input's depth).
bool TrackEventDecoder::ArrayElement(std::string_view bytes, const PerfettoSequence& sequence,
                                     std::string& text) {
  proto::Reader r(bytes);
  proto::Field f;
  Metric v;
  bool has_value = false;
  while (r.Next(f)) {
    if (ScalarValue(f, v)) has_value = true;
    if (f.number == pf::annotation::kStringIid && f.type == proto::kVarint) {
      v.type = Metric::Type::kString;
      if (!Interned(sequence, Interned::kAnnotationString, f.varint, v.text, "annotation string")) {
        return false;
      }
      has_value = true;
    }
  }
  if (!r.ok()) return Fail("a malformed debug annotation");
  if (has_value) {
    AppendNumber(text, v);
  } else {
    text += "null";
  }
  return true;
}

}  // namespace proton::viewer::traces
