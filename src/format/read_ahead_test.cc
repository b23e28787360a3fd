// ReadAhead hands out a file's bytes in order, with the carried bytes in front and a zero tail,
// signals the end and read errors, and shuts down cleanly at any point.
#include "format/read_ahead.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace proton::format {
namespace {

// A temporary file with `content`, opened for reading.
class TempFile {
 public:
  explicit TempFile(const std::string& content) {
    char name[] = "/tmp/proton_read_ahead_XXXXXX";
    const int fd = mkstemp(name);
    path_ = name;
    EXPECT_EQ(write(fd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    close(fd);
    fd_ = open(path_.c_str(), O_RDONLY);
  }
  ~TempFile() {
    close(fd_);
    std::remove(path_.c_str());
  }
  int fd() const { return fd_; }

 private:
  std::string path_;
  int fd_ = -1;
};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 13) % 26);
  return s;
}

TEST(ReadAhead, DeliversEveryByteInOrderWithCarriedBytes) {
  constexpr size_t kChunk = 4096, kHeadroom = 1024, kTail = 16;
  for (size_t size : {size_t{0}, size_t{1}, kChunk - 1, kChunk, kChunk + 1, 10 * kChunk + 123}) {
    const std::string content = Pattern(size);
    TempFile file(content);
    ReadAhead ahead(file.fd(), kChunk, kHeadroom, kTail);
    std::string seen;
    const char* rest = nullptr;
    size_t left = 0;
    for (int step = 0;; ++step) {
      // The previous chunk goes back to the reader thread in Next(): remember its tail first.
      const std::string carried(rest == nullptr ? "" : rest, left);
      const ReadAhead::Span span = ahead.Next(rest, left);
      ASSERT_FALSE(span.error);
      ASSERT_EQ(std::string(span.begin, left), carried) << "carried bytes, size " << size;
      for (size_t k = 0; k < kTail; ++k) ASSERT_EQ(span.end[k], '\0');
      // Consume all but a varying number of bytes (up to the headroom), as a parser stopping
      // inside a field would.
      const size_t have = static_cast<size_t>(span.end - span.begin);
      const size_t keep = span.eof ? 0 : std::min(have, static_cast<size_t>(step * 97) % kHeadroom);
      seen.append(span.begin, have - keep);
      rest = span.end - keep;
      left = keep;
      if (span.eof) break;
    }
    EXPECT_EQ(seen, content) << "size " << size;
    EXPECT_TRUE(ahead.Next(nullptr, 0).error);  // past the end
  }
}

TEST(ReadAhead, StopsAtAnyPointAndReportsErrors) {
  TempFile file(Pattern(1u << 20));
  {
    ReadAhead ahead(file.fd(), 4096, 64, 1);  // destroyed before anything is taken
  }
  {
    ReadAhead ahead(file.fd(), 4096, 64, 1);
    EXPECT_FALSE(ahead.Next(nullptr, 0).error);  // destroyed mid-file
  }
  ReadAhead broken(-1, 4096, 64, 1);
  EXPECT_TRUE(broken.Next(nullptr, 0).error);
  ReadAhead ahead(file.fd(), 4096, 64, 1);
  const ReadAhead::Span first = ahead.Next(nullptr, 0);
  EXPECT_TRUE(ahead.Next(first.begin, 65).error);  // more carried bytes than the headroom
}

}  // namespace
}  // namespace proton::format
