// Reader-only benchmark driver: times reading (parse into the tree) and preparing (frame
// removal, metric table, inclusive sums) of each file, with throughput and peak RSS.
//   proton_viewer_read_bench FILE [FILE...]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "format/profile_reader.h"
#include "tree/profile_tree.h"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  for (int i = 1; i < argc; ++i) {
    const auto t0 = Clock::now();
    auto r = proton::format::ReadProfileFile(argv[i]);
    const auto t1 = Clock::now();
    if (!r.ok()) {
      std::fprintf(stderr, "%s\n", r.status().message().c_str());
      return 1;
    }
    proton::Status st = proton::tree::PrepareProfile(*r, argv[i]);
    const auto t2 = Clock::now();
    if (!st.ok()) {
      std::fprintf(stderr, "%s\n", st.message().c_str());
      return 1;
    }
    FILE* f = std::fopen(argv[i], "rb");
    long size = 0;
    if (f) {
      std::fseek(f, 0, SEEK_END);
      size = std::ftell(f);
      std::fclose(f);
    }
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    const double read_s = std::chrono::duration<double>(t1 - t0).count();
    const double prep_s = std::chrono::duration<double>(t2 - t1).count();
    std::printf(
        "%s: %zu nodes, %.1f MB, read %.3f s (%.2f GB/s), prepare %.3f s, peak RSS %.1f MB\n",
        argv[i], r->size(), size / 1e6, read_s, size / 1e9 / read_s, prep_s, ru.ru_maxrss / 1024.0);
  }
  return 0;
}
