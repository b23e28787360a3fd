// Driver for argparse_diff.py: reads argument vectors (one per line, arguments separated by
// \x1f) and prints what proton-viewer's parser makes of each, one line per vector.
#include <iostream>
#include <string>
#include <vector>

#include "viewer/cli/cli_args.h"

int main() {
  using proton::viewer::ParseViewerArgs;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::vector<std::string> args;
    for (size_t start = 0;;) {
      const size_t end = line.find('\x1f', start);
      args.push_back(line.substr(start, end == std::string::npos ? end : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    auto r = ParseViewerArgs(args);
    if (!r.ok()) {
      std::cout << "ERR " << r.status().message() << "\n";
      continue;
    }
    const auto& v = *r;
    if (v.help) {
      std::cout << "HELP\n";
      continue;
    }
    std::cout << "OK list=" << v.list << " file=" << v.file << " depth=" << v.depth
              << " thr=" << (v.has_threshold ? v.threshold : 0) << " inc=" << v.include
              << " exc=" << v.exclude << " diff=" << v.diff_profile
              << " fmt=" << static_cast<int>(v.format) << " sorted=" << v.print_sorted << " m=";
    for (const auto& m : v.metrics) std::cout << m << ";";
    std::cout << "\n";
  }
}
