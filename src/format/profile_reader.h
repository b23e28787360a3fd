// Profile readers (viewer.md §3.1, §3.2, §11.1, §11.2; formats.md §2, §3): detect JSON or
// MessagePack from the content and build a tree::ProfileTree without a DOM.
#pragma once

#include <string>
#include <string_view>

#include "tree/profile_tree.h"
#include "util/status.h"

namespace proton::format {

// The name used for `path` in messages: "<stdin>" for "-", else the path itself.
std::string DisplayName(std::string_view path);

// Reads the whole file ("-" = standard input) and parses it. The tree is NOT yet prepared
// (call tree::PrepareProfile). Errors (exact texts of viewer.md §9.2, F = DisplayName):
//   cannot open 'F': <strerror>
//   cannot read 'F': not a JSON or MessagePack profile
//   'F' is a Chrome trace, not a Proton tree profile
//   'F' is not a Proton tree profile
//   cannot open 'F': no process opened the FIFO for writing within 10 seconds
Result<tree::ProfileTree> ReadProfileFile(std::string_view path);

// ReadProfileFile of a file already open as `fd` (a regular file from its start; left open), with
// `name` as F in messages: proton.viewer opens its files as Python's open() does.
Result<tree::ProfileTree> ReadProfileFd(int fd, std::string_view name);

// Checks `path` without opening it, so that a later input's error is found before an
// earlier input (a FIFO) is waited on: it exists, is not a directory and may be read. "-"
// passes. Error: cannot open 'F': <strerror>.
Status CheckInput(std::string_view path);

// Parses bytes already in memory; `display_name` is F in messages.
Result<tree::ProfileTree> ParseProfile(std::string_view bytes, std::string_view display_name);

// ReadProfileFile + tree::PrepareProfile: what proton-viewer uses for FILE and DIFF_PROFILE.
// Running out of memory is the error "out of memory reading 'F'".
Result<tree::ProfileTree> LoadProfile(std::string_view path);

}  // namespace proton::format
