// Driver for re_diff.py: reads "pattern\x1fname" lines (\x1e stands for a newline) and prints
// ERR, 0 or 1: whether --include would refuse the pattern, or whether it matches the name.
#include <iostream>
#include <string>

#include "viewer/names/name_pattern.h"
int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    for (char& c : line)
      if (c == '\x1e') c = '\n';
    size_t sep = line.find('\x1f');
    auto p = proton::viewer::NamePattern::Compile(line.substr(0, sep), "--include");
    if (!p.ok()) {
      std::cout << "ERR\n";
      continue;
    }
    auto m = p->Matches(line.substr(sep + 1));
    std::cout << (!m.ok() ? "LIMIT\n" : *m ? "1\n" : "0\n");
  }
}
