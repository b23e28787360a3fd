// Perfetto's field numbers that the trace reader and the merge's writer use (formats.md §7;
// Perfetto's protos/perfetto/trace/: trace_packet.proto, track_event/track_event.proto,
// track_event/track_descriptor.proto, track_event/process_descriptor.proto,
// track_event/thread_descriptor.proto, track_event/debug_annotation.proto,
// clock_snapshot.proto, trace_packet_defaults.proto, interned_data/interned_data.proto).
#pragma once

#include <cstdint>

namespace proton::viewer::traces::pf {

inline constexpr uint32_t kTracePacket = 1;  // Trace.packet

namespace packet {
inline constexpr uint32_t kClockSnapshot = 6;
inline constexpr uint32_t kTimestamp = 8;
inline constexpr uint32_t kSequenceId = 10;  // trusted_packet_sequence_id
inline constexpr uint32_t kTrackEvent = 11;
inline constexpr uint32_t kInternedData = 12;
inline constexpr uint32_t kSequenceFlags = 13;
inline constexpr uint32_t kIncrementalStateCleared = 41;  // deprecated bool
inline constexpr uint32_t kTimestampClockId = 58;
inline constexpr uint32_t kDefaults = 59;  // trace_packet_defaults
inline constexpr uint32_t kTrackDescriptor = 60;
inline constexpr uint32_t kSeqIncrementalStateCleared = 1;
inline constexpr uint32_t kSeqNeedsIncrementalState = 2;
}  // namespace packet

namespace defaults {  // TracePacketDefaults
inline constexpr uint32_t kTrackEventDefaults = 11;
inline constexpr uint32_t kTimestampClockId = 58;
inline constexpr uint32_t kTrackUuid = 11;  // TrackEventDefaults.track_uuid
}  // namespace defaults

namespace clock {  // ClockSnapshot
inline constexpr uint32_t kClocks = 1;
inline constexpr uint32_t kPrimaryTraceClock = 2;
inline constexpr uint32_t kClockId = 1;  // Clock.clock_id
inline constexpr uint32_t kClockTimestamp = 2;
inline constexpr uint32_t kRealtime = 1;  // BuiltinClock
inline constexpr uint32_t kBoottime = 6;
}  // namespace clock

namespace interned {  // InternedData; each entry is {iid 1, name 2}
inline constexpr uint32_t kEventCategories = 1;
inline constexpr uint32_t kEventNames = 2;
inline constexpr uint32_t kDebugAnnotationNames = 3;
inline constexpr uint32_t kDebugAnnotationStringValues = 29;
inline constexpr uint32_t kIid = 1;
inline constexpr uint32_t kName = 2;
}  // namespace interned

namespace track {  // TrackDescriptor
inline constexpr uint32_t kUuid = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kProcess = 3;
inline constexpr uint32_t kThread = 4;
inline constexpr uint32_t kParentUuid = 5;
inline constexpr uint32_t kChildOrdering = 11;
inline constexpr uint32_t kSiblingOrderRank = 12;
inline constexpr uint32_t kChildOrderingExplicit = 3;
inline constexpr uint32_t kProcessPid = 1;  // ProcessDescriptor
inline constexpr uint32_t kProcessCmdline = 2;
inline constexpr uint32_t kProcessName = 6;
inline constexpr uint32_t kThreadPid = 1;  // ThreadDescriptor
inline constexpr uint32_t kThreadTid = 2;
inline constexpr uint32_t kThreadName = 5;
}  // namespace track

namespace event {  // TrackEvent
inline constexpr uint32_t kCategoryIids = 3;
inline constexpr uint32_t kDebugAnnotations = 4;
inline constexpr uint32_t kType = 9;
inline constexpr uint32_t kNameIid = 10;
inline constexpr uint32_t kTrackUuid = 11;
inline constexpr uint32_t kCategories = 22;
inline constexpr uint32_t kName = 23;
inline constexpr uint32_t kFlowIdsOld = 36;  // uint64, what our profiler and Triton write
inline constexpr uint32_t kTerminatingFlowIdsOld = 42;
inline constexpr uint32_t kFlowIds = 47;  // fixed64
inline constexpr uint32_t kTerminatingFlowIds = 48;
inline constexpr uint32_t kTypeSliceBegin = 1;
inline constexpr uint32_t kTypeSliceEnd = 2;
inline constexpr uint32_t kTypeInstant = 3;
}  // namespace event

namespace annotation {  // DebugAnnotation
inline constexpr uint32_t kNameIid = 1;
inline constexpr uint32_t kBool = 2;
inline constexpr uint32_t kUint = 3;
inline constexpr uint32_t kInt = 4;
inline constexpr uint32_t kDouble = 5;
inline constexpr uint32_t kString = 6;
inline constexpr uint32_t kPointer = 7;
inline constexpr uint32_t kLegacyJson = 9;
inline constexpr uint32_t kName = 10;
inline constexpr uint32_t kArrayValues = 12;
inline constexpr uint32_t kStringIid = 17;
}  // namespace annotation

}  // namespace proton::viewer::traces::pf
