// See follow.h. One poll: list RUN's folder, read the parts not read yet (on a few threads,
// folded in in phase order), note the processes that ended, show the phases every process has
// gone past, and end once every process ended (after one more listing, so that no part
// renamed into place just before its marker is missed).
#include "viewer/live/follow.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include "format/profile_reader.h"
#include "util/out_of_memory.h"
#include "viewer/common/quoted.h"
#include "viewer/common/run_names.h"
#include "viewer/live/live_totals.h"
#include "viewer/live/live_view.h"
#include "viewer/live/run_listing.h"
#include "viewer/merge/load_in_order.h"
#include "viewer/outputs/output_buffer.h"

namespace proton::viewer {
namespace {

using Clock = std::chrono::steady_clock;

// A part that cannot be read is retried while it changes; once unchanged this long it is
// reported once and skipped (a file copied in by hand, cut short).
constexpr double kGiveUpSeconds = 2.0;
constexpr int kClosedOutput = 1;

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void OnStopSignal(int signal) { g_stop_signal = signal; }

// SIGINT and SIGTERM end the follow cleanly while it runs; the old handlers come back after.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

struct LoadedPart {
  ProfileTree tree;  // empty for a part without profile data
  uint64_t shape = 0;
  Status status;
};

LoadedPart LoadPart(const std::string& path) {
  LoadedPart part;
  const std::string name = format::DisplayName(path);
  part.status = CatchOutOfMemory("reading " + Quoted(name), [&]() -> Status {
    PROTON_ASSIGN_OR_RETURN(ProfileTree tree, format::ReadProfileFile(path));
    const Status prepared = PrepareProfile(tree, name);
    if (IsNoProfileData(prepared, name)) return Status();
    PROTON_RETURN_IF_ERROR(prepared);
    MergeDuplicates(tree);
    part.shape = ShapeOf(tree);  // here, on a loading thread
    part.tree = std::move(tree);
    return Status();
  });
  return part;
}

// What a failed part looked like, to retry it only when it changed.
struct Failure {
  int64_t size = -1;
  int64_t mtime_ns = -1;
  Clock::time_point since;  // when it was first found unreadable in this state
  std::string message;
  bool reported = false;
};

bool Stat(const std::string& path, int64_t& size, int64_t& mtime_ns) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  size = st.st_size;
  mtime_ns = int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  return true;
}

size_t TerminalWidth(int fd) {
  struct winsize size {};
  if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 100;
}

class Follower {
 public:
  Follower(const FollowOptions& options, RunSpec spec, int out_fd, bool terminal, int err_fd)
      : options_(options),
        spec_(std::move(spec)),
        out_fd_(out_fd),
        err_fd_(err_fd),
        terminal_(terminal) {
    style_.run = options.run;
    style_.item = options.item;
    style_.per_ns = options.per_ns;
    style_.demangle = options.demangle;
    style_.width = terminal ? TerminalWidth(out_fd) : 0;
  }

  Result<int> Run();

 private:
  Status Poll();
  std::vector<ListedFile> FreshFiles(const RunListing& listing);
  bool ShouldRead(const std::string& path);
  void ReadParts(const std::vector<ListedFile>& files);
  void Fold(const ListedFile& file, LoadedPart& part);
  void NoteFailure(const ListedFile& file, const Status& status);
  bool Settled(int64_t phase) const;
  bool AllEnded() const;
  bool ShowSettled();
  Result<int> Finish();
  bool Redraw(bool ended);
  bool Write(std::string_view text);
  Result<int> OutputFailed() const;
  void Sleep() const;
  std::vector<std::string> Labels() const { return ShortLabels(totals_.streams()); }

  const FollowOptions& options_;
  RunSpec spec_;
  int out_fd_;
  int err_fd_;
  bool terminal_;
  LiveViewStyle style_;
  LiveTotals totals_;
  std::set<std::string> read_;               // paths folded in
  std::map<std::string, Failure> failures_;  // paths that could not be read (yet)
  std::set<std::string> ended_;              // prefixes with an end marker or a plain file
  Clock::time_point last_progress_ = Clock::now();
  int write_error_ = 0;
};

Result<int> Follower::Run() {
  bool confirming = false;  // every process ended at the last listing: list once more
  if (terminal_ && !Redraw(false)) return OutputFailed();
  while (true) {
    if (g_stop_signal != 0) return 128 + static_cast<int>(g_stop_signal);
    PROTON_RETURN_IF_ERROR(Poll());
    if (!ShowSettled()) return OutputFailed();
    if (AllEnded()) {
      if (confirming) return Finish();
      confirming = true;
      continue;
    }
    confirming = false;
    const std::chrono::duration<double> quiet = Clock::now() - last_progress_;
    if (options_.has_timeout && quiet.count() > options_.timeout_s) {
      return Status::Error("no new part of " + Quoted(spec_.text) + " for " +
                           options_.timeout_text + " seconds (--follow-timeout)");
    }
    Sleep();
  }
}

Status Follower::Poll() {
  PROTON_ASSIGN_OR_RETURN(RunListing listing, ListRun(spec_));
  ReadParts(FreshFiles(listing));
  for (const std::string& prefix : listing.ended) {
    if (ended_.insert(prefix).second) last_progress_ = Clock::now();
  }
  return Status();
}

// The parts not read yet, and the plain file of a process that wrote no part, in phase order.
std::vector<ListedFile> Follower::FreshFiles(const RunListing& listing) {
  std::set<std::string> with_parts;
  std::vector<ListedFile> fresh;
  for (const ListedFile& part : listing.parts) {
    with_parts.insert(part.prefix);
    if (ShouldRead(part.path)) fresh.push_back(part);
  }
  for (const ListedFile& plain : listing.plain) {
    if (!with_parts.contains(plain.prefix) && ShouldRead(plain.path)) fresh.push_back(plain);
  }
  std::sort(fresh.begin(), fresh.end(), [](const ListedFile& a, const ListedFile& b) {
    if (a.phase != b.phase) return a.phase < b.phase;
    return NaturalLess(a.prefix, b.prefix);
  });
  return fresh;
}

// Not read yet, and not a failed file that has not changed since. One that stays unreadable
// and unchanged for kGiveUpSeconds is reported once on standard error.
bool Follower::ShouldRead(const std::string& path) {
  if (read_.contains(path)) return false;
  auto it = failures_.find(path);
  if (it == failures_.end()) return true;
  int64_t size = 0;
  int64_t mtime_ns = 0;
  if (!Stat(path, size, mtime_ns)) return false;
  Failure& failure = it->second;
  if (size != failure.size || mtime_ns != failure.mtime_ns) {
    failures_.erase(it);  // it changed: try again
    return true;
  }
  const std::chrono::duration<double> stuck = Clock::now() - failure.since;
  if (!failure.reported && stuck.count() >= kGiveUpSeconds) {
    failure.reported = true;
    const std::string line =
        "proton-viewer: warning: skipping " + Quoted(path) + ": " + failure.message + "\n";
    (void)!::write(err_fd_, line.data(), line.size());
  }
  return false;
}

void Follower::ReadParts(const std::vector<ListedFile>& files) {
  if (files.empty()) return;
  const size_t threads =
      files.size() < 2 ? 0 : std::min<size_t>(std::thread::hardware_concurrency(), 4);
  (void)InOrderLoader<LoadedPart>::Run(
      files.size(), threads, threads + 1,
      [&](size_t i) -> Result<LoadedPart> { return LoadPart(files[i].path); },
      [&](size_t i, LoadedPart& part) {
        Fold(files[i], part);
        return Status();
      });
}

void Follower::Fold(const ListedFile& file, LoadedPart& part) {
  if (!part.status.ok()) {
    NoteFailure(file, part.status);
    return;
  }
  const size_t stream = totals_.Stream(file.prefix);
  totals_.AddPart(stream, file.phase, part.tree, part.shape);
  part.tree = ProfileTree();
  read_.insert(file.path);
  failures_.erase(file.path);
  if (ParsePartFileName(file.path) == std::nullopt) ended_.insert(file.prefix);  // plain file
  last_progress_ = Clock::now();
}

// A part that vanished is forgotten (it is read if it comes back); one that is there but
// cannot be read (not whole yet) waits until it changes (ShouldRead).
void Follower::NoteFailure(const ListedFile& file, const Status& status) {
  Failure failure;
  if (!Stat(file.path, failure.size, failure.mtime_ns)) return;
  failure.since = Clock::now();
  failure.message = status.message();
  failures_[file.path] = std::move(failure);
}

// Every process has written a later phase, or ended.
bool Follower::Settled(int64_t phase) const {
  for (size_t stream = 0; stream < totals_.streams().size(); ++stream) {
    if (totals_.last_phase()[stream] < phase && !ended_.contains(totals_.streams()[stream])) {
      return false;
    }
  }
  return true;
}

// Every process seen has ended; or only end markers were found (a run with no tree parts).
bool Follower::AllEnded() const {
  if (totals_.streams().empty()) return !ended_.empty();
  return std::all_of(totals_.streams().begin(), totals_.streams().end(),
                     [&](const std::string& prefix) { return ended_.contains(prefix); });
}

// The phases every process has gone past, in order: a block each in a pipe, the newest one
// on a terminal.
bool Follower::ShowSettled() {
  std::vector<int64_t> ready;
  for (const auto& [phase, data] : totals_.phases()) {
    if (data.shown) continue;
    if (!Settled(phase)) break;
    ready.push_back(phase);
  }
  for (int64_t phase : ready) {
    totals_.MarkShown(phase);
    if (!terminal_ && !Write(RenderPhase(totals_, phase, Labels(), style_) + "\n")) return false;
  }
  return !terminal_ || ready.empty() || Redraw(false);
}

Result<int> Follower::Finish() {
  if (totals_.streams().empty()) {
    return Status::Error("cannot follow " + Quoted(spec_.text) +
                         ": the run ended without a call-tree part file");
  }
  if (!ShowSettled()) return OutputFailed();
  const std::string line = "== " + Quoted(spec_.text) +
                           " ended: " + std::to_string(totals_.phases().size()) + " phases, " +
                           std::to_string(totals_.parts_read()) + " parts from " +
                           std::to_string(totals_.streams().size()) +
                           (totals_.streams().size() == 1 ? " rank ==\n" : " ranks ==\n");
  if (terminal_ ? !Redraw(true) : !Write(line)) return OutputFailed();
  return 0;
}

// The terminal's screen: the newest shown phase and a status line, drawn over the last one.
bool Follower::Redraw(bool ended) {
  std::string screen = "\x1b[H\x1b[2J";
  const int64_t phase = totals_.last_shown();
  if (phase >= 0) screen += RenderPhase(totals_, phase, Labels(), style_) + "\n";
  if (ended) {
    screen +=
        Quoted(spec_.text) + " ended: " + std::to_string(totals_.parts_read()) + " parts read\n";
  } else {
    screen += "following " + Quoted(spec_.text) + ": " + std::to_string(totals_.parts_read()) +
              " parts read (Ctrl-C ends)\n";
  }
  return Write(screen);
}

bool Follower::Write(std::string_view text) {
  OutputBuffer out(out_fd_);
  out.Write(text);
  out.Flush();
  write_error_ = out.error();
  return write_error_ == 0;
}

// A closed pipe ends quietly; any other write error is reported (viewer.md §7.9).
Result<int> Follower::OutputFailed() const {
  if (write_error_ == EPIPE) return kClosedOutput;
  return Status::Error(std::string("cannot write to standard output: ") +
                       std::strerror(write_error_));
}

// Waits one poll interval, in short steps, so that a signal ends the wait at once.
void Follower::Sleep() const {
  const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(options_.poll_s));
  while (g_stop_signal == 0 && Clock::now() < until) {
    const Clock::duration step = std::chrono::milliseconds(50);
    std::this_thread::sleep_for(std::min(step, until - Clock::now()));
  }
}

}  // namespace

Result<int> Follow(const FollowOptions& options, int out_fd, bool terminal, int err_fd) {
  PROTON_ASSIGN_OR_RETURN(RunSpec spec, ParseRunSpec(options.run));
  PROTON_RETURN_IF_ERROR(ListRun(spec).status());  // a missing folder fails at once
  StopSignals signals;
  Follower follower(options, std::move(spec), out_fd, terminal, err_fd);
  return follower.Run();
}

}  // namespace proton::viewer
