// Field numbers and enum values of Perfetto's trace protos that a `.perfetto_trace`
// (formats.md §7) uses, named once so the writer and any reader agree. The numbers are
// Perfetto's public schema (github.com/google/perfetto, protos/perfetto/trace/:
// trace_packet.proto, trace_packet_defaults.proto, clock_snapshot.proto,
// common/builtin_clock.proto, track_event/{track_event,track_descriptor,process_descriptor,
// debug_annotation}.proto, interned_data/interned_data.proto, profiling/profile_common.proto);
// tests/perfetto/perfetto_trace_subset.proto repeats them as a .proto that protoc reads.
// Header only, constants only.
#pragma once

#include <cstdint>

namespace proton::perfetto {

// Trace
inline constexpr uint32_t kTracePacket = 1;

// TracePacket
inline constexpr uint32_t kPacketClockSnapshot = 6;
inline constexpr uint32_t kPacketTimestamp = 8;
inline constexpr uint32_t kPacketSequenceId = 10;  // trusted_packet_sequence_id
inline constexpr uint32_t kPacketTrackEvent = 11;
inline constexpr uint32_t kPacketInternedData = 12;
inline constexpr uint32_t kPacketSequenceFlags = 13;
inline constexpr uint32_t kPacketTimestampClockId = 58;
inline constexpr uint32_t kPacketDefaults = 59;  // trace_packet_defaults
inline constexpr uint32_t kPacketTrackDescriptor = 60;

// TracePacket.SequenceFlags
inline constexpr uint64_t kSeqIncrementalStateCleared = 1;
inline constexpr uint64_t kSeqNeedsIncrementalState = 2;

// TracePacketDefaults
inline constexpr uint32_t kDefaultsTimestampClockId = 58;

// ClockSnapshot, ClockSnapshot.Clock, BuiltinClock
inline constexpr uint32_t kSnapshotClocks = 1;
inline constexpr uint32_t kSnapshotPrimaryTraceClock = 2;
inline constexpr uint32_t kClockId = 1;
inline constexpr uint32_t kClockTimestamp = 2;
inline constexpr uint64_t kClockRealtime = 1;
inline constexpr uint64_t kClockBoottime = 6;

// TrackDescriptor, ProcessDescriptor
inline constexpr uint32_t kTrackUuid = 1;
inline constexpr uint32_t kTrackName = 2;
inline constexpr uint32_t kTrackProcess = 3;
inline constexpr uint32_t kTrackParentUuid = 5;
inline constexpr uint32_t kTrackChildOrdering = 11;
inline constexpr uint32_t kTrackSiblingOrderRank = 12;
inline constexpr uint64_t kChildOrderingExplicit = 3;
inline constexpr uint32_t kProcessPid = 1;
inline constexpr uint32_t kProcessName = 6;

// TrackEvent
inline constexpr uint32_t kEventCategoryIids = 3;
inline constexpr uint32_t kEventDebugAnnotations = 4;
inline constexpr uint32_t kEventType = 9;
inline constexpr uint32_t kEventNameIid = 10;
inline constexpr uint32_t kEventTrackUuid = 11;
inline constexpr uint32_t kEventFlowIds = 36;             // repeated uint64 (main's)
inline constexpr uint32_t kEventTerminatingFlowIds = 42;  // repeated uint64 (main's)
inline constexpr uint32_t kEventFlowIdsFixed = 47;        // fixed64 variants: readers only
inline constexpr uint32_t kEventTerminatingFlowIdsFixed = 48;

// TrackEvent.Type
inline constexpr uint64_t kTypeSliceBegin = 1;
inline constexpr uint64_t kTypeSliceEnd = 2;
inline constexpr uint64_t kTypeInstant = 3;

// DebugAnnotation
inline constexpr uint32_t kAnnotationNameIid = 1;
inline constexpr uint32_t kAnnotationUintValue = 3;
inline constexpr uint32_t kAnnotationIntValue = 4;
inline constexpr uint32_t kAnnotationDoubleValue = 5;
inline constexpr uint32_t kAnnotationArrayValues = 12;
inline constexpr uint32_t kAnnotationStringValueIid = 17;

// InternedData, and its entries (EventCategory, EventName, DebugAnnotationName: iid 1, name
// 2; InternedString: iid 1, str 2)
inline constexpr uint32_t kInternedEventCategories = 1;
inline constexpr uint32_t kInternedEventNames = 2;
inline constexpr uint32_t kInternedAnnotationNames = 3;
inline constexpr uint32_t kInternedAnnotationStrings = 29;
inline constexpr uint32_t kInternedIid = 1;
inline constexpr uint32_t kInternedName = 2;

// Our fixed choices (formats.md §7.2, §7.6).
inline constexpr uint64_t kSequenceId = 1;
inline constexpr uint64_t kCategoryScope = 1;
inline constexpr uint64_t kCategoryKernel = 2;
inline constexpr uint64_t kCategoryLaunch = 3;
inline constexpr uint64_t kProcessTrackUuid = 1;
inline constexpr uint64_t kFirstLaneUuid = 2;

}  // namespace proton::perfetto
