// Tests for InOrderLoader: FILE-order hand-over whatever the finishing order, the first error
// in index order, the bounded window, and the inline mode.
#include "viewer/merge/load_in_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <new>
#include <string>

namespace proton::viewer {
namespace {

using Loader = InOrderLoader<int>;

// Later indices finish first, so a loader that handed results over as they came would fail.
void SleepLonger(size_t i, size_t count) {
  std::this_thread::sleep_for(std::chrono::microseconds(200 * (count - i)));
}

TEST(InOrderLoader, HandsOverInIndexOrder) {
  constexpr size_t kCount = 40;
  std::vector<int> seen;
  const Status s = Loader::Run(
      kCount, 3, 4,
      [](size_t i) -> Result<int> {
        SleepLonger(i, kCount);
        return static_cast<int>(i * i);
      },
      [&](size_t i, int& v) {
        EXPECT_EQ(v, static_cast<int>(i * i));
        seen.push_back(static_cast<int>(i));
        return Status();
      });
  EXPECT_TRUE(s.ok());
  ASSERT_EQ(seen.size(), kCount);
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
}

TEST(InOrderLoader, TheFirstErrorInIndexOrderWins) {
  const auto load = [](size_t i) -> Result<int> {
    if (i == 5) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return Status::Error("load 5");
    }
    if (i == 6) return Status::Error("load 6");  // done long before index 5
    return static_cast<int>(i);
  };
  const auto consume_all = [](size_t, int&) { return Status(); };
  Status s = Loader::Run(20, 3, 4, load, consume_all);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "load 5");
  const auto fail_at_3 = [](size_t i, int&) {
    return i == 3 ? Status::Error("consume 3") : Status();
  };
  s = Loader::Run(20, 3, 4, load, fail_at_3);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "consume 3");
}

TEST(InOrderLoader, NeverLoadsMoreThanTheWindowAhead) {
  std::atomic<int> started{0};
  std::atomic<int> consumed{0};
  std::atomic<int> most_ahead{0};
  const Status s = Loader::Run(
      50, 4, 3,
      [&](size_t) -> Result<int> {
        const int ahead = ++started - consumed.load();
        int seen = most_ahead.load();
        while (ahead > seen && !most_ahead.compare_exchange_weak(seen, ahead)) {
        }
        return 0;
      },
      [&](size_t, int&) {
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        ++consumed;
        return Status();
      });
  EXPECT_TRUE(s.ok());
  // The window's loaded results, plus the one being consumed (its slot is already free).
  EXPECT_LE(most_ahead.load(), 3 + 1);
  EXPECT_GE(most_ahead.load(), 1);
}

TEST(InOrderLoader, NoThreadsRunsOnTheCallingThread) {
  const std::thread::id caller = std::this_thread::get_id();
  int calls = 0;
  const Status s = Loader::Run(
      3, 0, 1,
      [&](size_t i) -> Result<int> {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        return static_cast<int>(i);
      },
      [&](size_t, int&) {
        ++calls;
        return Status();
      });
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(calls, 3);
}

// Running out of memory on a loading thread is that index's error, not std::terminate.
TEST(InOrderLoader, ExceptionOnAWorkerIsTheIndexError) {
  std::vector<int> seen;
  const Status s = Loader::Run(
      8, 3, 4,
      [](size_t i) -> Result<int> {
        if (i == 5) throw std::bad_alloc();
        return static_cast<int>(i);
      },
      [&](size_t i, int&) {
        seen.push_back(static_cast<int>(i));
        return Status();
      });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "out of memory");
  EXPECT_EQ(seen.size(), 5u);  // every index before the failing one was consumed
}

// An exception from consume leaves Run only after the workers stopped (a joinable
// std::thread destroyed by the unwinding would call std::terminate).
TEST(InOrderLoader, ExceptionFromConsumeStopsTheWorkers) {
  const auto run = [] {
    return Loader::Run(
        8, 3, 4, [](size_t i) -> Result<int> { return static_cast<int>(i); },
        [](size_t i, int&) -> Status {
          if (i == 2) throw std::bad_alloc();
          return Status();
        });
  };
  EXPECT_THROW(static_cast<void>(run()), std::bad_alloc);
}

}  // namespace
}  // namespace proton::viewer
