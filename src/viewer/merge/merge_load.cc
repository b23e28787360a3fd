// See merge_load.h.
#include "viewer/merge/merge_load.h"

#include <algorithm>
#include <thread>

#include "format/profile_reader.h"
#include "util/out_of_memory.h"
#include "viewer/common/quoted.h"
#include "viewer/merge/load_in_order.h"

namespace proton::viewer {
namespace {

Result<LoadedFile> ReadFile(const std::string& path) {
  LoadedFile file;
  file.display_name = format::DisplayName(path);
  PROTON_ASSIGN_OR_RETURN(file.tree, format::ReadProfileFile(path));
  const Status prepared = PrepareProfile(file.tree, file.display_name);
  if (IsNoProfileData(prepared, file.display_name)) {
    file.empty = true;
    file.tree = ProfileTree();
    return file;
  }
  PROTON_RETURN_IF_ERROR(prepared);
  file.source = DescribeSource(file.tree, file.display_name);
  return file;
}

Result<LoadedFile> LoadFile(const std::string& path) {
  return CatchOutOfMemory("reading " + Quoted(format::DisplayName(path)),
                          [&] { return ReadFile(path); });
}

// Worker threads for loading: a few, since each holds one file's tree while it works.
size_t LoadThreads(size_t files) {
  if (files < 2) return 0;
  return std::min<size_t>(std::thread::hardware_concurrency(), 4);
}

}  // namespace

Status ForEachLoadedFile(const std::vector<std::string>& files,
                         const std::function<Status(LoadedFile&)>& prepare,
                         const std::function<Status(size_t, LoadedFile&)>& consume) {
  const size_t threads = LoadThreads(files.size());
  return InOrderLoader<LoadedFile>::Run(
      files.size(), threads, threads + 1,
      [&](size_t i) -> Result<LoadedFile> {
        PROTON_ASSIGN_OR_RETURN(LoadedFile file, LoadFile(files[i]));
        if (file.empty) return file;
        file.prepared = CatchOutOfMemory("processing " + Quoted(file.display_name),
                                         [&] { return prepare(file); });
        return file;
      },
      [&](size_t i, LoadedFile& file) {
        return CatchOutOfMemory("merging " + Quoted(file.display_name),
                                [&] { return consume(i, file); });
      });
}

}  // namespace proton::viewer
