// The usage line and the help text of proton-viewer (viewer.md §2.1): the reference's
// wording for its own options, then the options beyond the reference.
#include <string>

#include "viewer/cli/cli_args.h"
#include "viewer/sql/sql_command.h"

namespace proton::viewer {

std::string_view UsageText() {
  return "usage: proton-viewer [-h] [-l] [-m METRICS] [-i INCLUDE] [-e EXCLUDE]\n"
         "                     [-t THRESHOLD] [-d DEPTH]\n"
         "                     [-f {full,file_function_line,function_line,file_function}]\n"
         "                     [--print-sorted] [--diff-profile DIFF_PROFILE]\n";
}

namespace {

constexpr std::string_view kHelpIntro =
    "\n"
    "Print the call tree of a Proton profile FILE (JSON or MessagePack; '-' reads stdin).\n"
    "\n";

// The options the reference viewer has, described as it describes them.
constexpr std::string_view kReferenceOptionsHelp =
    "options:\n"
    "  -h, --help            show this help message and exit\n"
    "  -l, --list            list the raw metrics of FILE (inclusive, then exclusive) by\n"
    "                        their short names (lower case, no unit) and exit\n"
    "  -m METRICS, --metrics METRICS\n"
    "                        comma-separated columns to print, in order (default: none,\n"
    "                        and then nothing is printed). Raw metric names are\n"
    "                        case-insensitive and may omit the unit ('time' matches\n"
    "                        'time (ns)'). Derived metrics: time/U, avg_time/U,\n"
    "                        cpu_time/U, avg_cpu_time/U (U = s, ms, us, ns),\n"
    "                        byte/s, gbyte/s, tbyte/s, flop[W]/s, gflop[W]/s,\n"
    "                        tflop[W]/s (W = 8, 16, 32, 64 or nothing), util, and\n"
    "                        <raw metric>/% (percent of the total). The first column\n"
    "                        drives -t, the colours and --print-sorted\n"
    "  -i INCLUDE, --include INCLUDE\n"
    "                        keep frames whose name starts with a match of this\n"
    "                        regular expression, with their ancestors and descendants\n"
    "  -e EXCLUDE, --exclude EXCLUDE\n"
    "                        remove frames whose name starts with a match of this\n"
    "                        regular expression, with their descendants\n"
    "  -t THRESHOLD, --threshold THRESHOLD\n"
    "                        keep frames whose first metric is >= THRESHOLD, with their\n"
    "                        ancestors (default: 0, which keeps everything)\n"
    "  -d DEPTH, --depth DEPTH\n"
    "                        print only frames less than DEPTH levels below the root\n"
    "                        (default: 100)\n"
    "  -f {full,file_function_line,function_line,file_function},\n"
    "  --format {full,file_function_line,function_line,file_function}\n"
    "                        how frame names are printed (default: full)\n"
    "  --print-sorted        after the tree, list every frame sorted by the first metric\n"
    "  --diff-profile DIFF_PROFILE, -diff DIFF_PROFILE\n"
    "                        subtract this profile from FILE and show the difference\n"
    "\n";

constexpr std::string_view kBeyondReferenceHelp =
    "options beyond the reference (full spellings only, never abbreviated):\n"
    "  --fail-above PCT[,MIN]\n"
    "                        with --diff-profile: exit 3, listing each frame on stderr,\n"
    "                        when a frame's first metric grew by more than PCT percent\n"
    "                        and by more than MIN (default 0) from DIFF_PROFILE to FILE\n"
    "  --match {exact,normalized}\n"
    "                        how --diff-profile pairs frames: by name (default), or by\n"
    "                        demangled names without Triton/Inductor numeric and hash\n"
    "                        suffixes\n"
    "  --export FILE         also write the printed tree as a table to FILE (.csv or\n"
    "                        .jsonl): path, name, depth and each -m column, unformatted;\n"
    "                        or FILE.sqlite: an SQLite database of every FILE (frames,\n"
    "                        every metric per file, files and devices; several FILEs\n"
    "                        without --merge when no -m is given; -m adds columns).\n"
    "                        FILE.perfetto_trace instead merges trace FILEs (.chrome_trace,\n"
    "                        .perfetto_trace, one per rank) into one Perfetto trace, one\n"
    "                        process per FILE on one time line (no other option)\n"
    "  --demangle[={full,short}]\n"
    "                        show C++ (Itanium, \"_Z...\") frame names demangled: in full\n"
    "                        (the default), or short, without template arguments and\n"
    "                        parameters; -i/-e still match the stored names\n"
    "  --html FILE           also write an interactive page to FILE: flame graph of the\n"
    "                        printed tree, sortable frame table, devices (offline, one file)\n"
    "  --speedscope FILE     also write the printed tree to FILE in speedscope's format,\n"
    "                        weighted by the first -m column (with --merge=stats its\n"
    "                        median; not with --diff-profile)\n"
    "  --merge[=stats|sum]   read every FILE (one per rank, or the part files of one run)\n"
    "                        into one tree. stats (default): per frame and -m column\n"
    "                        the median, min, mean, max, imbalance (max/mean) and argmax\n"
    "                        (index of the FILE holding the max) over the FILEs holding\n"
    "                        the frame, then their count; the first column's median\n"
    "                        drives -t, the colours and --print-sorted. sum: the FILEs\n"
    "                        added up, shown as one profile. --html and --speedscope\n"
    "                        draw the merged tree\n"
    "  --sql QUERY           run an SQL query (SQLite) on the database of every FILE and\n"
    "                        print its rows as a table instead of the tree (with --export\n"
    "                        .csv/.jsonl: write them there; .sqlite: keep the database).\n"
    "                        QUERY may name a bundled query; --sql list shows them\n"
    "  --follow RUN          instead of FILE: watch the part files of a periodic-flushing\n"
    "                        run as it writes them (RUN is its name, e.g. out/train, or a\n"
    "                        pattern, 'out/train.rank*') and show each phase: its GPU\n"
    "                        time against the earlier phases, the slowest rank, the top\n"
    "                        kernels and scopes of the phase and of the run so far. Ends\n"
    "                        when every rank has written its end marker (NAME.done); -m\n"
    "                        time/s|ms|us|ns picks the unit (default time/ms)\n"
    "  --follow-timeout S    with --follow: give up (exit 1) after S seconds without a new\n"
    "                        part\n"
    "  --stragglers[=PCT]    with --merge over the part files of several ranks\n"
    "                        (NAME.part_<step>.<format>): instead of the tree, each step's\n"
    "                        slowest rank by the first -m column at ROOT, its lag behind\n"
    "                        the step's median and the frame that explains it, then the\n"
    "                        ranks slow (more than PCT%, default 5, above the median) in\n"
    "                        more than half of their steps; --export writes one row per\n"
    "                        step and rank, --html adds a rank-by-step grid to the page\n"
    "  --baseline FILE       repeatable; a pattern ('base/run*.hatchet') names every match:\n"
    "                        compare the medians of the FILEs (several runs, or part files)\n"
    "                        with those of the baseline FILEs, printed as a diff. With\n"
    "                        --fail-above a frame fails only when its median also grew by\n"
    "                        more than the larger of the two sides' interquartile ranges\n"
    "  --trace-report        the FILEs are traces (.chrome_trace, .perfetto_trace, one per\n"
    "                        rank): per GPU stream busy and idle time and idle gaps by\n"
    "                        length, NCCL kernel time overlapped by compute, launch latency\n"
    "                        and kernel duration percentiles; --export FILE.csv|.jsonl\n"
    "                        writes them as a table, --html FILE a page with a timeline\n"
    "                        strip per stream\n";

// Said after the options when this build has no SQLite.
constexpr std::string_view kNoSqliteHelp =
    "\n--sql and --export FILE.sqlite need SQLite, which this proton-viewer was built without.\n";

}  // namespace

std::string_view HelpText() {
  static const std::string kHelp =
      std::string(UsageText()) + std::string(kHelpIntro) + std::string(kReferenceOptionsHelp) +
      std::string(kBeyondReferenceHelp) + std::string(SqliteAvailable() ? "" : kNoSqliteHelp);
  return kHelp;
}

}  // namespace proton::viewer
