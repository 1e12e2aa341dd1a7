// FrameSequenceTest.cpp: naming a sequence of frames (frames/FrameSequence.h) without GL and without
// decoding: printf patterns (strict %04d matching, %%), globs, folders, natural and numeric order,
// gaps in the numbering (one entry per run, named like their neighbours), the errors for a missing
// folder, no match and mixed formats, and the numbered output names.
#include "frames/FrameSequence.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
namespace ts = testing_support;

namespace {

/// Empty files are enough: listing never opens them.
void touch(const fs::path& path)
{
    std::ofstream(path) << "x";
}

std::vector<std::string> names(const app::FrameSequence& sequence)
{
    std::vector<std::string> out;
    for (const app::SequenceFrame& frame : sequence.frames)
        out.push_back((frame.missing() ? "gap:" : "") + frame.path.filename().string());
    return out;
}

std::string errorOf(const fs::path& input)
{
    try {
        app::listFrameSequence(input);
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return "(no error)";
}

TEST(FrameSequenceTest, NumberPatternsParseFormatAndMatchStrictly)
{
    const auto pattern = app::parseNumberPattern("shot.%04d.exr");
    ASSERT_TRUE(pattern);
    EXPECT_EQ(pattern->prefix, "shot.");
    EXPECT_EQ(pattern->suffix, ".exr");
    EXPECT_EQ(pattern->width, 4);
    EXPECT_EQ(app::formatFrameName(*pattern, 7), "shot.0007.exr");
    EXPECT_EQ(app::formatFrameName(*pattern, 123456), "shot.123456.exr");
    EXPECT_EQ(app::matchFrameName(*pattern, "shot.0007.exr"), 7);
    EXPECT_EQ(app::matchFrameName(*pattern, "shot.12345.exr"), 12345);
    for (const char* other : {"shot.7.exr", "shot.00012.exr", "shot.-001.exr", "shot.00a1.exr", "shot..exr",
                              "shot.0007.exr.bak", "take.0007.exr", "shot.+007.exr"})
        EXPECT_FALSE(app::matchFrameName(*pattern, other)) << other;

    const auto plain = app::parseNumberPattern("f%d_100%%.hdr");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->width, 0);
    EXPECT_EQ(app::formatFrameName(*plain, 3), "f3_100%.hdr");
    EXPECT_EQ(app::matchFrameName(*plain, "f12_100%.hdr"), 12);
    EXPECT_FALSE(app::matchFrameName(*plain, "f012_100%.hdr"));

    EXPECT_FALSE(app::parseNumberPattern("plain.exr"));
    EXPECT_FALSE(app::parseNumberPattern("100%%.exr"));
    for (const char* bad : {"a%04d_%04d.exr", "a%5d.exr", "a%x.exr", "a%.exr", "a%", "a%010d.exr", "a%00d.exr"})
        EXPECT_THROW(app::parseNumberPattern(bad), std::runtime_error) << bad;
}

TEST(FrameSequenceTest, NaturalOrderComparesDigitRunsByValue)
{
    EXPECT_TRUE(app::naturalLess("f2.exr", "f10.exr"));
    EXPECT_FALSE(app::naturalLess("f10.exr", "f2.exr"));
    EXPECT_TRUE(app::naturalLess("a.exr", "b.exr"));
    EXPECT_TRUE(app::naturalLess("f9", "f9a"));
    EXPECT_FALSE(app::naturalLess("f9", "f9"));
    // Equal values: the order is still total (fewer leading zeros first), never both ways.
    EXPECT_NE(app::naturalLess("f02", "f2"), app::naturalLess("f2", "f02"));
    EXPECT_TRUE(app::naturalLess("shot_9_b", "shot_10_a"));
}

TEST(FrameSequenceTest, APatternListsItsFramesInNumberOrderWithGaps)
{
    const fs::path dir = ts::scratchDir("sequence-pattern");
    for (int n : {1, 2, 3, 5, 9, 10})
        touch(dir / ("shot." + std::string(n < 10 ? "000" : "00") + std::to_string(n) + ".exr"));
    touch(dir / "shot.4.exr");      // not what %04d prints
    touch(dir / "shot.0006.png");   // another suffix
    touch(dir / ".shot.0007.exr");  // hidden, and another prefix
    const app::FrameSequence sequence = app::listFrameSequence(dir / "shot.%04d.exr");
    EXPECT_EQ(sequence.kind, app::SequenceKind::Pattern);
    EXPECT_EQ(names(sequence),
              (std::vector<std::string>{"shot.0001.exr", "shot.0002.exr", "shot.0003.exr", "gap:shot.0004.exr",
                                        "shot.0005.exr", "gap:shot.0006.exr", "shot.0009.exr", "shot.0010.exr"}));
    EXPECT_EQ(sequence.frames[3].number, 4);
    EXPECT_EQ(sequence.frames[3].missingFrames, 1);
    EXPECT_EQ(sequence.frames[5].number, 6);
    EXPECT_EQ(sequence.frames[5].missingFrames, 3);  // 6, 7 and 8
    EXPECT_EQ(sequence.frames[6].number, 9);
    EXPECT_EQ(sequence.fileCount(), 6u);
    EXPECT_EQ(sequence.missingCount(), 4);
    EXPECT_TRUE(app::isSequenceInput(dir / "shot.%04d.exr"));
}

TEST(FrameSequenceTest, GapsFollowTheSmallestStep)
{
    const fs::path dir = ts::scratchDir("sequence-step");
    for (int n : {10, 20, 30, 50})
        touch(dir / ("f" + std::to_string(n) + ".exr"));
    const app::FrameSequence sequence = app::listFrameSequence(dir / "f%d.exr");
    EXPECT_EQ(names(sequence), (std::vector<std::string>{"f10.exr", "f20.exr", "f30.exr", "gap:f40.exr", "f50.exr"}));
}

TEST(FrameSequenceTest, AGlobAndAFolderOrderByTheNamesNumbers)
{
    const fs::path dir = ts::scratchDir("sequence-glob");
    for (const char* name : {"take_10.exr", "take_9.exr", "take_2.exr", "take_3.exr", "notes.txt"})
        touch(dir / name);
    const app::FrameSequence glob = app::listFrameSequence(dir / "take_*.exr");
    EXPECT_EQ(glob.kind, app::SequenceKind::Glob);
    EXPECT_EQ(names(glob),
              (std::vector<std::string>{"take_2.exr", "take_3.exr", "gap:take_4.exr", "take_9.exr", "take_10.exr"}));
    EXPECT_EQ(glob.frames[2].missingFrames, 5);  // 4..8
    EXPECT_EQ(glob.frames.back().number, 10);

    const app::FrameSequence folder = app::listFrameSequence(dir);  // notes.txt is no image
    EXPECT_EQ(folder.kind, app::SequenceKind::Folder);
    EXPECT_EQ(names(folder), names(glob));
    EXPECT_TRUE(app::isSequenceInput(dir));
    EXPECT_TRUE(app::isSequenceInput(dir / "take_*.exr"));
    EXPECT_FALSE(app::isSequenceInput(dir / "take_9.exr"));   // an existing file is one image
    EXPECT_FALSE(app::isSequenceInput(dir / "missing.exr"));  // left to the image loader's error
}

TEST(FrameSequenceTest, NamesWithoutDistinctNumbersPlayInNaturalOrder)
{
    const fs::path dir = ts::scratchDir("sequence-natural");
    for (const char* name : {"b.hdr", "a10.hdr", "a9.hdr", "c.hdr"})
        touch(dir / name);
    const app::FrameSequence sequence = app::listFrameSequence(dir);
    EXPECT_EQ(names(sequence), (std::vector<std::string>{"a9.hdr", "a10.hdr", "b.hdr", "c.hdr"}));
    for (const app::SequenceFrame& frame : sequence.frames)
        EXPECT_FALSE(frame.number) << frame.path;
}

TEST(FrameSequenceTest, BadInputsSayWhatIsWrong)
{
    const fs::path dir = ts::scratchDir("sequence-bad");
    EXPECT_NE(errorOf(dir / "none.%04d.exr").find("no file in"), std::string::npos) << errorOf(dir / "none.%04d.exr");
    EXPECT_NE(errorOf(dir / "nowhere" / "f.%04d.exr").find("no folder"), std::string::npos);
    EXPECT_NE(errorOf(dir).find("holds no image files"), std::string::npos);
    touch(dir / "f1.exr");
    touch(dir / "f2.png");
    EXPECT_NE(errorOf(dir).find("several formats (OpenEXR, PNG)"), std::string::npos) << errorOf(dir);
    EXPECT_NE(errorOf(dir / "f%04d_%d.exr").find("two frame numbers"), std::string::npos);
    EXPECT_NE(errorOf(dir / "f%3d.exr").find("%0Nd"), std::string::npos);
    for (const fs::path& input : {dir / "none.%04d.exr", dir, dir / "f%04d_%d.exr"})
        EXPECT_NE(errorOf(input).find(input.string()), std::string::npos) << "names the input: " << errorOf(input);
}

TEST(FrameSequenceTest, OutputPatternsNeedOneFrameNumber)
{
    EXPECT_NO_THROW(app::checkOutputPattern("out/f.%04d.png", "-o"));
    EXPECT_EQ(app::numberedPath("out/f.%04d.png", 12), fs::path("out/f.0012.png"));
    try {
        app::checkOutputPattern("out.png", "-o");
        FAIL() << "no number accepted";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("-o 'out.png' has no frame number"), std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("out.%04d.png"), std::string::npos) << error.what();
    }
    EXPECT_THROW(app::checkOutputPattern("a%d_%d.exr", "--hdr-sequence-out"), std::runtime_error);
    EXPECT_THROW(app::checkOutputPattern("a%d/b.exr", "--hdr-sequence-out"), std::runtime_error);  // name only
}

TEST(FrameSequenceTest, BadFramePoliciesParse)
{
    EXPECT_EQ(app::parseBadFramePolicy("stop"), app::BadFramePolicy::Stop);
    EXPECT_EQ(app::parseBadFramePolicy("skip"), app::BadFramePolicy::Skip);
    EXPECT_FALSE(app::parseBadFramePolicy("ignore"));
    EXPECT_STREQ(app::badFramePolicyName(app::BadFramePolicy::Skip), "skip");
}

}  // namespace
