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
    std::cout << "OK list=" << v.output.list << " file=" << v.input.file()
              << " depth=" << v.view.depth
              << " thr=" << (v.view.has_threshold ? v.view.threshold : 0)
              << " inc=" << v.view.include << " exc=" << v.view.exclude
              << " diff=" << v.input.diff_profile << " fmt=" << static_cast<int>(v.view.format)
              << " sorted=" << v.view.print_sorted << " m=";
    for (const auto& m : v.view.metrics) std::cout << m << ";";
    std::cout << "\n";
  }
}
