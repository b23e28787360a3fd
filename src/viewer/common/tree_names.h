// The viewer works on the tree model (src/tree) throughout, so its names are used unqualified
// inside proton::viewer. The model itself stays in proton::tree, which the readers
// (src/format) build without depending on the viewer.
#pragma once

#include "tree/profile_tree.h"

namespace proton::viewer {

using tree::ApplyFilter;
using tree::BuildDiffUnion;
using tree::ColumnKind;
using tree::DeviceInfo;
using tree::DeviceTable;
using tree::DiffUnion;
using tree::ExtraColumn;
using tree::FilterKind;
using tree::ForEachSortedPreOrder;
using tree::IsNoProfileData;
using tree::KeptNodes;
using tree::kMissing;
using tree::kNoNode;
using tree::kNoString;
using tree::MergeDuplicates;
using tree::NodeId;
using tree::PrepareProfile;
using tree::ProfileTree;
using tree::RawColumn;
using tree::ReduceTree;
using tree::SortedPreOrder;
using tree::StringIdMap;
using tree::StringViewHash;
using tree::ValueType;

}  // namespace proton::viewer
