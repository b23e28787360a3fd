// Tests for the printers: tree layout and depth, markers, colours and legend, --print-sorted
// (cutting, padding, stable order, NaN last), --list and the negative-bytes warning.
#include "viewer/outputs/printers.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace proton::viewer {
namespace {

// Captures what a printer writes through an OutputBuffer on a temporary file.
template <typename F>
std::string Capture(F&& print) {
  FILE* file = std::tmpfile();
  {
    OutputBuffer out(fileno(file), 64);  // tiny buffer: exercises the flush paths
    print(out);
  }
  std::string text;
  std::rewind(file);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) text.append(buf, n);
  std::fclose(file);
  return text;
}

// ROOT -> {b -> {c}, a}; file order b before a, printed sorted.
ProfileTree SmallTree() {
  ProfileTree t;
  NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  NodeId b = t.AddNode(root, "b");
  t.SetInt(b, "count", 1);
  NodeId c = t.AddNode(b, "c");
  t.SetInt(c, "count", 1);
  NodeId a = t.AddNode(root, "a");
  t.SetInt(a, "count", 1);
  EXPECT_TRUE(PrepareProfile(t, "x").ok());
  return t;
}

PrintInput Input(const ProfileTree& t, std::vector<double> by_name_order_values) {
  // Values given for the nodes in sorted pre-order: ROOT, a, b, c.
  PrintInput in;
  in.tree = &t;
  std::vector<double> column(t.size());
  std::vector<NodeId> order = SortedPreOrder(t);
  for (size_t i = 0; i < order.size(); ++i) column[order[i]] = by_name_order_values[i];
  in.columns.push_back(column);
  in.labels.push_back("count (inc)");
  return in;
}

TEST(Printers, TreeLayoutAndDepth) {
  ProfileTree t = SmallTree();
  PrintInput in = Input(t, {3, 1, 2, 1});
  PrintOptions o;
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintAll(out, in, o); }),
            "3.000 ROOT\n"
            "\xe2\x94\x9c\xe2\x94\x80 1.000 a\n"
            "\xe2\x94\x94\xe2\x94\x80 2.000 b\n"
            "   \xe2\x94\x94\xe2\x94\x80 1.000 c\n"
            "\n");
  o.depth = 1;
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintAll(out, in, o); }), "3.000 ROOT\n\n");
  o.depth = 0;
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintAll(out, in, o); }), "\n");
  o.depth = -5;
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintAll(out, in, o); }), "\n");
}

TEST(Printers, ValuesAndMarkers) {
  ProfileTree t = SmallTree();
  const double inf = std::numeric_limits<double>::infinity();
  PrintInput in = Input(t, {std::nan(""), -0.0, inf, -inf});
  in.columns.push_back(std::vector<double>(t.size(), 1.0005));
  in.labels.push_back("x");
  in.sides.assign(t.size(), Side::kBoth);
  std::vector<NodeId> order = SortedPreOrder(t);
  in.sides[order[1]] = Side::kLeftOnly;
  in.sides[order[3]] = Side::kRightOnly;
  PrintOptions o;
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintTree(out, in, o); }),
            "nan 1.000 ROOT\n"
            "\xe2\x94\x9c\xe2\x94\x80 -0.000 1.000 a \xe2\x97\x80 \n"
            "\xe2\x94\x94\xe2\x94\x80 inf 1.000 b\n"
            "   \xe2\x94\x94\xe2\x94\x80 -inf 1.000 c \xe2\x96\xb6 \n");
}

TEST(Printers, ColourAndLegend) {
  ProfileTree t = SmallTree();
  PrintInput in = Input(t, {10, 0, 5, std::nan("")});
  PrintOptions o;
  o.color = true;
  o.depth = 3;
  const std::string text = Capture([&](OutputBuffer& out) { PrintAll(out, in, o); });
  EXPECT_EQ(text,
            "\x1b[38;5;196m10.000\x1b[0m ROOT\x1b[0m\n"
            "\xe2\x94\x9c\xe2\x94\x80 \x1b[38;5;22m0.000\x1b[0m a\x1b[0m\n"
            "\xe2\x94\x94\xe2\x94\x80 \x1b[38;5;46m5.000\x1b[0m b\x1b[0m\n"
            "   \xe2\x94\x94\xe2\x94\x80 \x1b[34mnan\x1b[0m c\x1b[0m\n"
            "\n"
            "\x1b[4mLegend\x1b[0m (Metric: count (inc) Min: 0.00 Max: 10.00)\n"
            "\x1b[38;5;196m\xe2\x96\x88 \x1b[0m9.00 - 10.00\n"
            "\x1b[38;5;208m\xe2\x96\x88 \x1b[0m7.00 - 9.00\n"
            "\x1b[38;5;220m\xe2\x96\x88 \x1b[0m5.00 - 7.00\n"
            "\x1b[38;5;46m\xe2\x96\x88 \x1b[0m3.00 - 5.00\n"
            "\x1b[38;5;34m\xe2\x96\x88 \x1b[0m1.00 - 3.00\n"
            "\x1b[38;5;22m\xe2\x96\x88 \x1b[0m0.00 - 1.00\n"
            "\n"
            "name\x1b[0m User code    \x1b[38;5;160m\xe2\x97\x80 \x1b[0m Only in left graph    "
            "\x1b[38;5;28m\xe2\x96\xb6 \x1b[0m Only in right graph\n"
            "\n");
}

TEST(Printers, SingleValuedRangeUsesTheValue) {
  ProfileTree t = SmallTree();
  PrintInput in = Input(t, {5, 5, 5, 5});
  PrintOptions o;
  o.color = true;
  o.depth = 1;
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintTree(out, in, o); }),
            "\x1b[38;5;196m5.000\x1b[0m ROOT\x1b[0m\n");
  in = Input(t, {0, 0, 0, 0});
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintTree(out, in, o); }),
            "\x1b[38;5;22m0.000\x1b[0m ROOT\x1b[0m\n");
}

TEST(Printers, SortedIsStableDescendingNaNLastWithoutRoot) {
  ProfileTree t = SmallTree();
  PrintInput in = Input(t, {100, std::nan(""), 2, 2});  // ROOT, a, b, c
  const std::string text =
      Capture([&](OutputBuffer& out) { PrintSorted(out, in, NameFormat::kFull); });
  const std::string pad(104, ' ');
  EXPECT_EQ(text,
            "Sorted kernels by metric count (inc)\n"
            "b" +
                pad + " 2.0\n" + "c" + pad + " 2.0\n" + "a" + pad + " nan\n");
}

TEST(Printers, SortedCutsAndPadsByCodePoints) {
  ProfileTree t;
  NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "count", 0);
  std::string long_name;
  for (int i = 0; i < 101; ++i) long_name += "\xc3\xa9";  // 101 code points, 202 bytes
  NodeId n = t.AddNode(root, long_name);
  t.SetInt(n, "count", 1);
  NodeId m = t.AddNode(root, "\xc3\xa9");
  t.SetInt(m, "count", 2);
  ASSERT_TRUE(PrepareProfile(t, "x").ok());
  PrintInput in;
  in.tree = &t;
  in.columns.push_back(std::vector<double>(t.size()));
  in.columns[0][n] = 1;
  in.columns[0][m] = 4000;
  in.labels.push_back("l");
  const std::string text =
      Capture([&](OutputBuffer& out) { PrintSorted(out, in, NameFormat::kFull); });
  std::string cut;
  for (int i = 0; i < 100; ++i) cut += "\xc3\xa9";
  EXPECT_EQ(text,
            "Sorted kernels by metric l\n"
            "\xc3\xa9" +
                std::string(104, ' ') + " 4e+03\n" + cut + "..." + std::string(2, ' ') + " 1.0\n");
}

TEST(Printers, NegativeBytesWarning) {
  ProfileTree t = SmallTree();
  PrintInput in = Input(t, {1, -1, std::nan(""), 0});
  in.labels[0] = "bytes (inc)";
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintBytesWarning(out, in); }),
            "Warning: Negative byte values detected, this is usually the result of a datatype "
            "overflow\n\n");
  in.labels[0] = "bytes";
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintBytesWarning(out, in); }), "");
}

TEST(Printers, MetricList) {
  ProfileTree t;
  NodeId root = t.AddNode(kNoNode, "ROOT");
  t.SetInt(root, "time (ns)", 0);
  t.SetInt(root, "count", 0);
  NodeId k = t.AddNode(root, "k");
  t.SetInt(k, "time (ns)", 1);
  t.SetString(k, "device_id", "0");
  t.SetInt(k, "cpu_time (ns)", 3);
  ASSERT_TRUE(PrepareProfile(t, "x").ok());
  EXPECT_EQ(Capture([&](OutputBuffer& out) { PrintMetricList(out, t); }),
            "Available inclusive metrics:\n- time\n- count\n"
            "Available exclusive metrics:\n- name\n- device_id\n- cpu_time\n");
}

TEST(Printers, DeepChainStreams) {
  ProfileTree t;
  NodeId parent = t.AddNode(kNoNode, "ROOT");
  t.SetInt(parent, "count", 0);
  for (int i = 0; i < 100000; ++i) parent = t.AddNode(parent, "f");
  t.SetInt(parent, "count", 1);
  ASSERT_TRUE(PrepareProfile(t, "x").ok());
  PrintInput in;
  in.tree = &t;
  in.columns.push_back(std::vector<double>(t.size(), 1.0));
  in.labels.push_back("count (inc)");
  PrintOptions o;
  o.depth = 1000;
  const std::string text = Capture([&](OutputBuffer& out) { PrintAll(out, in, o); });
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 1001u);
}

}  // namespace
}  // namespace proton::viewer
