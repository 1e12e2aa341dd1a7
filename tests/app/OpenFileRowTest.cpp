// OpenFileRowTest.cpp: the open row's recent files (ui/OpenFileRow.h): newest first, each file once
// however it was written (relative, with "./" or ".."), at most kMaxFiles; and the path text a user
// pastes (spaces, quotes) is trimmed before it is opened.
#include "ui/OpenFileRow.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace {

namespace fs = std::filesystem;

TEST(OpenFileRowTest, RecentFilesAreNewestFirstOnceEachAndCapped)
{
    ui::RecentFiles recent;
    recent.add("");
    EXPECT_TRUE(recent.files().empty());
    recent.add("a.exr");
    recent.add("scenes/room.json");
    recent.add("./sub/../a.exr");  // a.exr again: it moves to the front, once
    ASSERT_EQ(recent.files().size(), 2u);
    EXPECT_EQ(recent.files()[0], (fs::current_path() / "a.exr").lexically_normal().string());
    EXPECT_EQ(recent.files()[1], (fs::current_path() / "scenes/room.json").lexically_normal().string());
    EXPECT_TRUE(fs::path(recent.files()[0]).is_absolute());
    for (int i = 0; i < 20; ++i)
        recent.add("f" + std::to_string(i) + ".png");
    ASSERT_EQ(recent.files().size(), ui::RecentFiles::kMaxFiles);
    EXPECT_EQ(fs::path(recent.files().front()).filename(), "f19.png");
    EXPECT_EQ(fs::path(recent.files().back()).filename(), "f12.png");
}

TEST(OpenFileRowTest, PastedPathsAreTrimmed)
{
    EXPECT_EQ(ui::trimPathText("  photo.exr \n"), "photo.exr");
    EXPECT_EQ(ui::trimPathText("\"/tmp/my photo.exr\""), "/tmp/my photo.exr");
    EXPECT_EQ(ui::trimPathText("'a.hdr'"), "a.hdr");
    EXPECT_EQ(ui::trimPathText("\"a.hdr'"), "\"a.hdr'");  // unmatched quotes stay
    EXPECT_EQ(ui::trimPathText("   "), "");
    EXPECT_EQ(ui::trimPathText("\""), "\"");
}

}  // namespace
