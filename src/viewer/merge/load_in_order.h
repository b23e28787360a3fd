// Loads the inputs of --merge (viewer.md §11.11) on a few threads and hands them over in
// input order, so the result never depends on which thread finished first.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "util/status.h"
#include "util/thread_annotations.h"

namespace proton::viewer {

// Runs load(i) for i in [0, count) on `threads` worker threads, never more than `window`
// (>= 1) indices ahead of the consumer (so at most window + 1 results exist at once, the
// one being consumed included), and consume(i, value) on the calling thread in
// increasing i. The first error in index order (of load or consume) stops the work and is
// returned: a later index's error is never reported before an earlier one's. With
// threads == 0 everything runs on the calling thread, one index after another.
template <typename T>
class InOrderLoader {
 public:
  using Load = std::function<Result<T>(size_t)>;
  using Consume = std::function<Status(size_t, T&)>;

  // An exception that load throws on a worker thread (std::bad_alloc) is that index's
  // error, "out of memory" or "internal error: ..."; one that consume throws (or load, with
  // threads == 0) leaves Run after every worker has stopped. Threads that cannot be started
  // are done without: with none, everything runs on the calling thread.
  static Status Run(size_t count, size_t threads, size_t window, const Load& load,
                    const Consume& consume) {
    if (threads == 0) return RunInline(count, load, consume);
    InOrderLoader loader(count, window, load);
    Workers workers(loader);
    for (size_t t = 0; t < threads; ++t) {
      if (!workers.Start()) break;
    }
    if (workers.empty()) return RunInline(count, load, consume);
    return loader.ConsumeAll(consume);  // ~Workers stops and joins them, even on a throw
  }

 private:
  InOrderLoader(size_t count, size_t window, const Load& load)
      : count_(count), window_(window), load_(load), slots_(window) {}

  // The worker threads, stopped and joined however Run is left.
  class Workers {
   public:
    explicit Workers(InOrderLoader& loader) : loader_(loader) {}
    ~Workers() {
      loader_.Stop();
      for (std::thread& thread : threads_) thread.join();
    }
    Workers(const Workers&) = delete;
    Workers& operator=(const Workers&) = delete;
    bool Start() {
      try {
        threads_.emplace_back([this] { loader_.Work(); });
        return true;
      } catch (const std::exception&) {  // std::system_error (no thread) or std::bad_alloc
        return false;
      }
    }
    bool empty() const { return threads_.empty(); }

   private:
    InOrderLoader& loader_;
    std::vector<std::thread> threads_;
  };

  // load(i), with an exception turned into the index's error: nothing may escape a thread.
  Result<T> LoadCaught(size_t i) {
    try {
      return load_(i);
    } catch (const std::bad_alloc&) {
      return Status::Error("out of memory");
    } catch (const std::exception& e) {
      return Status::Error(std::string("internal error: ") + e.what());
    }
  }

  static Status RunInline(size_t count, const Load& load, const Consume& consume) {
    for (size_t i = 0; i < count; ++i) {
      Result<T> value = load(i);
      if (!value.ok()) return value.status();
      PROTON_RETURN_IF_ERROR(consume(i, *value));
    }
    return Status();
  }

  void Work() PROTON_EXCLUDES(mutex_) {
    MutexLock lock(mutex_);
    while (true) {
      lock.Wait(changed_, [&]() PROTON_REQUIRES(mutex_) {
        return stop_ || next_ == count_ || next_ < consumed_ + window_;
      });
      if (stop_ || next_ == count_) return;
      const size_t i = next_++;
      lock.Unlock();
      Result<T> value = LoadCaught(i);
      lock.Lock();
      slots_[i % window_].emplace(std::move(value));
      changed_.notify_all();
    }
  }

  Status ConsumeAll(const Consume& consume) PROTON_EXCLUDES(mutex_) {
    for (size_t i = 0; i < count_; ++i) {
      std::optional<Result<T>> value;
      {
        MutexLock lock(mutex_);
        lock.Wait(changed_,
                  [&]() PROTON_REQUIRES(mutex_) { return slots_[i % window_].has_value(); });
        value.swap(slots_[i % window_]);
        consumed_ = i + 1;  // frees the slot for index i + window
      }
      changed_.notify_all();
      if (!value->ok()) return value->status();
      PROTON_RETURN_IF_ERROR(consume(i, **value));
    }
    return Status();
  }

  void Stop() PROTON_EXCLUDES(mutex_) {
    {
      MutexLock lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
  }

  const size_t count_;
  const size_t window_;
  const Load& load_;
  Mutex mutex_;
  std::condition_variable_any changed_;  // any: it waits on the annotated Mutex
  // index i waits in slot i % window
  std::vector<std::optional<Result<T>>> slots_ PROTON_GUARDED_BY(mutex_);
  size_t next_ PROTON_GUARDED_BY(mutex_) = 0;      // the next index a worker takes
  size_t consumed_ PROTON_GUARDED_BY(mutex_) = 0;  // indices handed to the consumer
  bool stop_ PROTON_GUARDED_BY(mutex_) = false;
};

}  // namespace proton::viewer
