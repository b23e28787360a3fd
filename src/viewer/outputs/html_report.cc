// See html_report.h. The template (outputs/html/report.html) marks where the style, the data and
// the script go; all three are compiled in (cmake/ProtonEmbed.cmake), so the page is complete
// without the source tree and opens from disk with no network.
#include "viewer/outputs/html_report.h"

#include <string_view>

#include "viewer/outputs/html_data.h"
#include "viewer/outputs/output_file.h"

namespace proton::viewer {

extern const char kReportHtml[];
extern const char kReportCss[];
extern const char kReportJs[];

namespace {

// Replaces the first `marker` of `page` by `text` (each marker appears once).
void Fill(std::string& page, std::string_view marker, std::string_view text) {
  const size_t at = page.find(marker);
  if (at != std::string::npos) page.replace(at, marker.size(), text);
}

}  // namespace

std::string BuildHtmlPage(const ReportInput& in) {
  std::string page = kReportHtml;
  // The data goes in last: names in it may contain the other markers' text.
  Fill(page, "/*PROTON_CSS*/", kReportCss);
  Fill(page, "/*PROTON_JS*/", kReportJs);
  Fill(page, "/*PROTON_DATA*/", BuildPageData(in));
  return page;
}

Status WriteHtmlReport(const std::string& path, const ReportInput& in) {
  return WriteTextFile(path, BuildHtmlPage(in));
}

}  // namespace proton::viewer
