// See named_queries.h. Kernels are the frames of kind 'kernel'; their own time and launches
// are the "(exc)" columns (a kernel's value column would also count frames below it). SQLite
// divides integers as integers, hence the 1.0 * and the 1e6 divisors.
#include "viewer/sql/named_queries.h"

namespace proton::viewer {
namespace {

// All kernels' time: the denominator of the shares.
#define PROTON_ALL_KERNEL_TIME                                            \
  "(SELECT SUM(w.\"time (ns) (exc)\") FROM frame_values w JOIN frames k " \
  "USING (frame_id) WHERE k.kind = 'kernel')"

constexpr NamedQuery kQueries[] = {
    {"top_kernels", "the 20 kernels with the most GPU time over all files",
     R"sql(SELECT f.name AS kernel,
       SUM(v."count (exc)") AS launches,
       SUM(v."time (ns) (exc)") / 1e6 AS time_ms,
       SUM(v."time (ns) (exc)") / 1e3 / SUM(v."count (exc)") AS avg_us,
       100.0 * SUM(v."time (ns) (exc)") / )sql" PROTON_ALL_KERNEL_TIME R"sql( AS time_pct,
       COUNT(DISTINCT v.file_id) AS files
FROM frame_values v JOIN frames f USING (frame_id)
WHERE f.kind = 'kernel'
GROUP BY f.name
ORDER BY time_ms DESC, kernel
LIMIT 20)sql"},
    {"kernel_families",
     "GPU time by kernel family (C++ kernels by qualified name, Triton kernels without their "
     "numbered suffixes)",
     R"sql(SELECT n.family,
       COUNT(DISTINCT f.name) AS kernels,
       SUM(v."count (exc)") AS launches,
       SUM(v."time (ns) (exc)") / 1e6 AS time_ms,
       100.0 * SUM(v."time (ns) (exc)") / )sql" PROTON_ALL_KERNEL_TIME R"sql( AS time_pct
FROM frame_values v JOIN frames f USING (frame_id) JOIN names n ON n.name = f.name
WHERE f.kind = 'kernel'
GROUP BY n.family
ORDER BY time_ms DESC, n.family
LIMIT 20)sql"},
    {"kernel_bandwidth",
     "the 20 kernels with the highest achieved memory bandwidth (those with a bytes metric)",
     R"sql(SELECT f.name AS kernel,
       SUM(v."count (exc)") AS launches,
       1.0 * SUM(v."bytes (exc)") / SUM(v."time (ns) (exc)") AS gbyte_per_s,
       1.0 * SUM(v."flops16 (exc)") / SUM(v."time (ns) (exc)") / 1e3 AS tflop16_per_s,
       SUM(v."time (ns) (exc)") / 1e6 AS time_ms
FROM frame_values v JOIN frames f USING (frame_id)
WHERE f.kind = 'kernel' AND v."bytes (exc)" > 0
GROUP BY f.name
ORDER BY gbyte_per_s DESC, kernel
LIMIT 20)sql"},
    {"imbalance",
     "the 20 frames whose slowest file (rank) loses the most time against the files' mean, "
     "with that file",
     R"sql(WITH per_frame AS (
  SELECT frame_id, COUNT(*) AS files, MIN("time (ns)") AS min_ns,
         AVG("time (ns)") AS mean_ns, MAX("time (ns)") AS max_ns
  FROM frame_values WHERE "time (ns)" IS NOT NULL
  GROUP BY frame_id HAVING COUNT(*) > 1
), worst AS (
  SELECT * FROM per_frame ORDER BY max_ns - mean_ns DESC, frame_id LIMIT 20
)
SELECT f.name, f.depth, w.files,
       w.min_ns / 1e6 AS min_ms, w.mean_ns / 1e6 AS mean_ms, w.max_ns / 1e6 AS max_ms,
       w.max_ns / w.mean_ns AS imbalance,
       (w.max_ns - w.mean_ns) / 1e6 AS lost_ms,
       s.file_id AS slowest_file_id, s.file AS slowest_file, s.rank AS slowest_rank
FROM worst w JOIN frames f USING (frame_id)
JOIN files s ON s.file_id = (SELECT v.file_id FROM frame_values v WHERE v.frame_id = w.frame_id
                             ORDER BY v."time (ns)" DESC, v.file_id LIMIT 1)
ORDER BY lost_ms DESC, f.frame_id)sql"},
    {"kernels_per_scope",
     "kernels, launches and GPU time under each frame below the root (a training step, a "
     "phase scope)",
     R"sql(WITH RECURSIVE under (frame_id, scope_id) AS (
  SELECT frame_id, frame_id FROM frames WHERE depth = 1
  UNION ALL
  SELECT f.frame_id, u.scope_id FROM frames f JOIN under u ON f.parent_id = u.frame_id
)
SELECT s.name AS scope,
       COUNT(DISTINCT k.name) AS kernels,
       SUM(v."count (exc)") AS launches,
       SUM(v."time (ns) (exc)") / 1e6 AS time_ms,
       COUNT(DISTINCT v.file_id) AS files
FROM under u
JOIN frames k ON k.frame_id = u.frame_id AND k.kind = 'kernel'
JOIN frames s ON s.frame_id = u.scope_id
JOIN frame_values v ON v.frame_id = k.frame_id
GROUP BY u.scope_id
ORDER BY s.print_order)sql"},
    {"kernels_per_phase",
     "kernels, launches and GPU time per phase (the part files of a periodic-flushing run)",
     R"sql(SELECT fl.phase,
       COUNT(DISTINCT fl.file_id) AS files,
       COUNT(DISTINCT f.name) AS kernels,
       SUM(v."count (exc)") AS launches,
       SUM(v."time (ns) (exc)") / 1e6 AS time_ms
FROM frame_values v JOIN frames f USING (frame_id) JOIN files fl USING (file_id)
WHERE f.kind = 'kernel'
GROUP BY fl.phase
ORDER BY fl.phase)sql"},
    {"files", "every file with its rank, phase, frames, kernel launches and GPU time",
     R"sql(SELECT fl.file_id, fl.file, fl.rank, fl.phase, fl.frames,
       SUM(CASE WHEN f.kind = 'kernel' THEN v."count (exc)" END) AS launches,
       SUM(CASE WHEN f.kind = 'kernel' THEN v."time (ns) (exc)" END) / 1e6 AS kernel_ms
FROM files fl
LEFT JOIN frame_values v ON v.file_id = fl.file_id
LEFT JOIN frames f ON f.frame_id = v.frame_id
GROUP BY fl.file_id
ORDER BY fl.file_id)sql"},
    {"kernel_durations",
     "per kernel name of the traces: launches, GPU time and p50/p90/p99 of one launch's "
     "duration",
     R"sql(WITH k AS (
  SELECT name, duration_ns,
         ROW_NUMBER() OVER (PARTITION BY name ORDER BY duration_ns) AS i,
         COUNT(*) OVER (PARTITION BY name) AS n
  FROM events WHERE kind = 'kernel'
)
SELECT name AS kernel,
       n AS launches,
       SUM(duration_ns) / 1e6 AS time_ms,
       MAX(CASE WHEN i = (50 * n + 99) / 100 THEN duration_ns END) / 1e3 AS p50_us,
       MAX(CASE WHEN i = (90 * n + 99) / 100 THEN duration_ns END) / 1e3 AS p90_us,
       MAX(CASE WHEN i = (99 * n + 99) / 100 THEN duration_ns END) / 1e3 AS p99_us
FROM k
GROUP BY name
ORDER BY time_ms DESC, kernel
LIMIT 20)sql"},
    {"launch_latency",
     "per launch name of the traces: time from the CPU launch to its kernel's start (the flow's "
     "end), p50/p90/p99",
     R"sql(WITH d AS (
  SELECT l.name, e.start_ns - l.start_ns AS latency_ns
  FROM events l JOIN events e
    ON e.correlation = l.correlation AND e.file_id = l.file_id AND e.event_id <> l.event_id
  WHERE l.kind = 'launch' AND e.kind <> 'launch'
    AND (e.kind = 'flow' OR NOT EXISTS (SELECT 1 FROM events f WHERE f.file_id = e.file_id
         AND f.correlation = e.correlation AND f.kind = 'flow'))
), r AS (
  SELECT name, latency_ns,
         ROW_NUMBER() OVER (PARTITION BY name ORDER BY latency_ns) AS i,
         COUNT(*) OVER (PARTITION BY name) AS n
  FROM d
)
SELECT name AS launch,
       n AS launches,
       AVG(latency_ns) / 1e3 AS avg_us,
       MAX(CASE WHEN i = (50 * n + 99) / 100 THEN latency_ns END) / 1e3 AS p50_us,
       MAX(CASE WHEN i = (90 * n + 99) / 100 THEN latency_ns END) / 1e3 AS p90_us,
       MAX(CASE WHEN i = (99 * n + 99) / 100 THEN latency_ns END) / 1e3 AS p99_us
FROM r
GROUP BY name
ORDER BY launches DESC, launch
LIMIT 20)sql"},
};

#undef PROTON_ALL_KERNEL_TIME

}  // namespace

std::span<const NamedQuery> NamedQueries() { return kQueries; }

const NamedQuery* FindNamedQuery(std::string_view name) {
  for (const NamedQuery& q : kQueries) {
    if (q.name == name) return &q;
  }
  return nullptr;
}

}  // namespace proton::viewer
