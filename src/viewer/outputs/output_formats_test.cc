// Tests for the table of side outputs (viewer.md §11.8, §11.12, §11.13).
#include "viewer/outputs/output_formats.h"

#include <gtest/gtest.h>

namespace proton::viewer {
namespace {

TEST(OutputFormats, ExportFormatBySuffix) {
  EXPECT_EQ(ExportFormatOf("t.csv"), OutputFormat::kCsv);
  EXPECT_EQ(ExportFormatOf("dir/t.jsonl"), OutputFormat::kJsonLines);
  EXPECT_EQ(ExportFormatOf("ranks.sqlite"), OutputFormat::kSqlite);  // the FILEs' database
  EXPECT_EQ(ExportFormatOf("t.json"), std::nullopt);
  EXPECT_EQ(ExportFormatOf("t.html"), std::nullopt);  // a drawing, not a table
  EXPECT_EQ(ExportFormatOf("csv"), std::nullopt);
  EXPECT_EQ(ExportFormatOf("ranks.perfetto_trace"), OutputFormat::kPerfettoTrace);
  EXPECT_EQ(ExportSuffixes(), ".csv, .jsonl, .sqlite or .perfetto_trace");
  EXPECT_TRUE(ExportsTraces("a/ranks.perfetto_trace"));
  EXPECT_FALSE(ExportsTraces("t.csv"));
}

TEST(OutputFormats, WantsReport) {
  OutputOptions args;
  args.export_path = "t.csv";
  EXPECT_FALSE(WantsReport(args));
  args.speedscope_path = "s.json";
  EXPECT_TRUE(WantsReport(args));
  args.speedscope_path.clear();
  args.html_path = "p.html";
  EXPECT_TRUE(WantsReport(args));
}

TEST(OutputFormats, EveryDrawingHasAWriterAndAnOption) {
  for (const OutputFormatInfo& f : OutputFormats()) {
    EXPECT_FALSE(f.name.empty());
    EXPECT_NE(f.path, nullptr);
    EXPECT_EQ(f.write_report == nullptr, !f.suffix.empty()) << f.name;
  }
}

}  // namespace
}  // namespace proton::viewer
