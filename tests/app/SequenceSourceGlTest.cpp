// SequenceSource (`view SEQUENCE`, `tonemap` on a sequence) on the test context, headless: each run
// frame shows the next frame of the sequence in the texture, bottom-up, at 1/fps; the run ends after
// the last frame or loops; a bad frame (a decode error, another size, another channel layout) is left
// out under skip and stops the source with its name under stop, before or after frames were shown;
// the frame numbers follow the sequence's. The frames come from a stand-in decoder (no files).
#include "frames/SequenceSource.h"
#include "profiling/Profiler.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "support/TestPaths.h"

namespace ts = testing_support;
namespace fs = std::filesystem;

namespace {

constexpr int kWidth = 5, kHeight = 3;

app::FrameSequence sequenceOf(int count, int firstNumber = 1)
{
    app::FrameSequence sequence;
    sequence.kind = app::SequenceKind::Pattern;
    sequence.source = "frames/f.%04d.exr";
    for (int i = 0; i < count; ++i)
        sequence.frames.push_back(
            {fs::path("frames/f" + std::to_string(firstNumber + i) + ".exr"), firstNumber + i, 0});
    return sequence;
}

/// Frame n: every pixel n + 1 except the top row, 1000; `bad` numbers fail, `small` ones are 4 x 3,
/// `grey` ones have another channel layout.
app::FrameDecoder stubDecoder(std::vector<long long> bad = {},
                              std::vector<long long> small = {},
                              std::vector<long long> grey = {})
{
    return [=](const app::SequenceFrame& frame) {
        const long long n = *frame.number;
        app::DecodedFrame decoded;
        if (std::find(bad.begin(), bad.end(), n) != bad.end()) {
            decoded.error = "cannot read '" + frame.path.string() + "': damaged";
            return decoded;
        }
        const bool isSmall = std::find(small.begin(), small.end(), n) != small.end();
        decoded.image = image::ImageF(isSmall ? kWidth - 1 : kWidth, kHeight);
        for (int y = 0; y < kHeight; ++y)  // rows bottom-up, as the file decoder hands them over
            for (int x = 0; x < decoded.image.width; ++x)
                for (int c = 0; c < 4; ++c)
                    decoded.image.at(x, y)[c] = y == kHeight - 1 ? 1000.0f : float(n + 1);
        decoded.layout = std::find(grey.begin(), grey.end(), n) != grey.end() ? "OpenEXR Y" : "OpenEXR A,B,G,R";
        return decoded;
    };
}

class SequenceSourceTest : public ts::GlTest
{
protected:
    profiling::Profiler profiler{false};
    int maxTexture = ts::testGpuCaps().maxTextureSize;

    app::SequenceOptions options(app::BadFramePolicy policy = app::BadFramePolicy::Stop, bool loop = false)
    {
        app::SequenceOptions o;
        o.fps = 30.0;
        o.onBadFrame = policy;
        o.loop = loop;
        return o;
    }

    /// Plays headless as the app does (hasNextFrame, update, render) and returns each frame's value.
    std::vector<float> play(app::SequenceSource& source, int maxFrames = 100)
    {
        std::vector<float> values;
        for (int i = 0; i < maxFrames && source.hasNextFrame(); ++i) {
            source.update(app::FrameSourceInput{nullptr, source.size(), {0.0, 0.0}, 1.0 / 30.0, 0.0, true, true, 0.0});
            profiler.beginFrame();
            source.render(profiler);
            profiler.endFrame();
            const std::vector<float> texels = source.hdr().readRgbaFloat();
            EXPECT_EQ(texels[std::size_t(kHeight - 1) * kWidth * 4], 1000.0f) << "the top row is the texture's last";
            values.push_back(texels[0]);
            EXPECT_EQ(source.frameNumber(), (long long)(texels[0]) - 1) << "numbered like the shown frame";
        }
        return values;
    }
};

TEST_F(SequenceSourceTest, ShowsEachFrameOnceInOrderThenEnds)
{
    app::SequenceSource source(sequenceOf(6), options(), maxTexture, stubDecoder());
    EXPECT_EQ(source.size(), glm::ivec2(kWidth, kHeight));
    EXPECT_STREQ(source.kind(), "Sequence");
    EXPECT_EQ(source.name(), "f.%04d.exr");
    EXPECT_FALSE(source.followsWindowSize());
    ASSERT_TRUE(source.framePeriod());
    EXPECT_DOUBLE_EQ(*source.framePeriod(), 1.0 / 30.0);
    EXPECT_EQ(play(source), (std::vector<float>{2, 3, 4, 5, 6, 7}));
    EXPECT_FALSE(source.hasNextFrame());
    EXPECT_EQ(source.stopReason(), "");
    EXPECT_NE(source.description().find("6 frames at 30 fps (0.20 s)"), std::string::npos) << source.description();
}

TEST_F(SequenceSourceTest, LoopsWhenAskedTo)
{
    app::SequenceSource source(sequenceOf(3), options(app::BadFramePolicy::Stop, true), maxTexture, stubDecoder());
    EXPECT_EQ(play(source, 7), (std::vector<float>{2, 3, 4, 2, 3, 4, 2}));
}

TEST_F(SequenceSourceTest, SkipLeavesBadAndMismatchedFramesOut)
{
    app::SequenceSource source(sequenceOf(7), options(app::BadFramePolicy::Skip), maxTexture,
                               stubDecoder({1, 4}, {5}, {6}));
    EXPECT_EQ(play(source), (std::vector<float>{3, 4, 8})) << "1 damaged (the first!), 4 damaged, 5 smaller, 6 grey";
    EXPECT_EQ(source.stopReason(), "");
    EXPECT_EQ(source.skippedFrames(), 4u);
    EXPECT_NE(source.lastProblem().find("frame 6: 'frames/f6.exr' has the channels OpenEXR Y"), std::string::npos)
        << source.lastProblem();
    EXPECT_NE(source.description().find("4 bad frames left out"), std::string::npos) << source.description();
}

TEST_F(SequenceSourceTest, StopEndsAtTheFirstBadFrameWithItsName)
{
    app::SequenceSource source(sequenceOf(6), options(), maxTexture, stubDecoder({}, {4}));
    EXPECT_EQ(play(source), (std::vector<float>{2, 3, 4})) << "frames 1 to 3, then frame 4 is smaller";
    EXPECT_NE(source.stopReason().find("sequence 'f.%04d.exr', frame 4: 'frames/f4.exr' is 4 x 3 pixels; the "
                                       "sequence's frames are 5 x 3"),
              std::string::npos)
        << source.stopReason();
    EXPECT_NE(source.stopReason().find("--on-bad-frame skip"), std::string::npos) << source.stopReason();
}

TEST_F(SequenceSourceTest, NoShowableFirstFrameIsAnErrorNamingIt)
{
    try {
        app::SequenceSource source(sequenceOf(3), options(), maxTexture, stubDecoder({1}));
        FAIL() << "a bad first frame under stop";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("frames/f1.exr': damaged"), std::string::npos) << error.what();
    }
    for (bool loop : {false, true}) {
        try {
            app::SequenceSource source(sequenceOf(3), options(app::BadFramePolicy::Skip, loop), maxTexture,
                                       stubDecoder({1, 2, 3}));
            FAIL() << "every frame bad, loop " << loop;
        } catch (const std::runtime_error& error) {
            EXPECT_NE(std::string(error.what()).find("no frame can be shown"), std::string::npos) << error.what();
        }
    }
    EXPECT_THROW(app::SequenceSource(sequenceOf(3), options(), 4, stubDecoder()), std::runtime_error)
        << "larger than the texture limit";
}

}  // namespace
