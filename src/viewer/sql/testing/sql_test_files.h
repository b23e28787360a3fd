// Test helpers of the SQLite outputs (unit tests only): a temporary folder for profiles and
// databases, profiles written from JSON text, and single values read back with SQL.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "viewer/sql/sqlite_db.h"

namespace proton::viewer::testing {

// A folder removed with everything in it at the end of the test.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = std::filesystem::temp_directory_path().string() + "/proton-sql-XXXXXX";
    path_ = ::mkdtemp(pattern.data()) != nullptr ? pattern : std::string();
  }
  ~TempFolder() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  std::string File(const std::string& name) const { return path_ + "/" + name; }
  // Writes `text` to NAME and returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    std::ofstream(File(name), std::ios::binary) << text;
    return File(name);
  }
  // How many entries the folder holds (a left-over temporary file shows here).
  size_t Entries() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(path_)) ++n;
    return n;
  }

 private:
  std::string path_;
};

// A one-kernel-per-scope profile: ROOT / <scope> / <kernel> with the kernel's time and count
// on device `device` of architecture `arch`.
inline std::string KernelProfile(const std::string& scope, const std::string& kernel, int64_t time,
                                 int64_t count, const std::string& arch = "90",
                                 const std::string& device = "0") {
  return R"j([{"frame":{"name":"ROOT","type":"function"},"metrics":{"count":0,"time (ns)":0},)j"
         R"j("children":[{"frame":{"name":")j" +
         scope +
         R"j(","type":"function"},"metrics":{},)j"
         R"j("children":[{"frame":{"name":")j" +
         kernel +
         R"j(","type":"function"},"children":[],)j"
         R"j("metrics":{"count":)j" +
         std::to_string(count) + R"j(,"device_id":")j" + device +
         R"j(","device_type":"CUDA","time (ns)":)j" + std::to_string(time) +
         "}}]}]},"
         R"j({"CUDA":{")j" +
         device + R"j(":{"arch":")j" + arch +
         R"j(","bus_width":6016,"clock_rate":1980000,"memory_clock_rate":3201000,"num_sms":132}}}])j";
}

// The first column of the first row of `sql`, as text ("NULL" for NULL, "(no row)").
inline std::string QueryText(SqlDatabase& db, const std::string& sql) {
  Result<SqlStatement> statement = db.Prepare(sql);
  if (!statement.ok()) return "error: " + statement.status().message();
  Result<bool> row = statement->Step();
  if (!row.ok()) return "error: " + row.status().message();
  if (!*row) return "(no row)";
  const unsigned char* text = sqlite3_column_text(statement->get(), 0);
  return text == nullptr ? "NULL" : reinterpret_cast<const char*>(text);
}

}  // namespace proton::viewer::testing
