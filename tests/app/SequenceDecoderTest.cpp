// SequenceDecoderTest.cpp: the decode-ahead worker of sequences (frames/SequenceDecoder.h) without GL:
// frames come out in playback order however long each takes to decode, once through or looping,
// from another position after seek(); a decoder that throws (std::exception or anything else) gives
// that frame an error and the others still come; the destructor stops a worker that waits on a full
// queue. Then the real file decoder on tiny EXR and PNG files: rows bottom-up, the layout that
// tells frames apart, and one error line naming the file for a damaged file and a gap; and the
// mismatch check (other size, other channels) of frames/SequenceSource.h.
#include "frames/SequenceDecoder.h"
#include "frames/SequenceSource.h"
#include "image/ImageIo.h"
#include "image/ImageLayout.h"
#include "support/TestPaths.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

namespace fs = std::filesystem;
namespace ts = testing_support;

namespace {

std::vector<app::SequenceFrame> numberedFrames(int count)
{
    std::vector<app::SequenceFrame> frames;
    for (int i = 0; i < count; ++i)
        frames.push_back({fs::path("f" + std::to_string(i) + ".exr"), i, 0});
    return frames;
}

/// A 1x1 "image" whose red value is the frame's number, decoded after a delay that varies per frame.
app::DecodedFrame fakeDecode(const app::SequenceFrame& frame)
{
    std::this_thread::sleep_for(std::chrono::microseconds(200 * ((*frame.number * 7) % 5)));
    app::DecodedFrame decoded;
    decoded.image = image::ImageF(1, 1);
    decoded.image.pixels[0] = float(*frame.number);
    decoded.layout = "fake";
    return decoded;
}

TEST(SequenceDecoderTest, DeliversEveryFrameInOrderOnceThrough)
{
    app::SequenceDecoder decoder(numberedFrames(9), fakeDecode, false, 2);
    for (int i = 0; i < 9; ++i) {
        const auto frame = decoder.take();
        ASSERT_TRUE(frame) << i;
        EXPECT_EQ(frame->position, std::uint64_t(i));
        EXPECT_EQ(frame->index, std::size_t(i));
        EXPECT_TRUE(frame->ok());
        EXPECT_EQ(frame->image.pixels[0], float(i));
    }
    EXPECT_FALSE(decoder.take()) << "the end, without looping";
    EXPECT_FALSE(decoder.tryTake());
}

TEST(SequenceDecoderTest, LoopsAndSeeks)
{
    app::SequenceDecoder decoder(numberedFrames(4), fakeDecode, true);
    for (int i = 0; i < 10; ++i) {
        const auto frame = decoder.take();
        ASSERT_TRUE(frame);
        EXPECT_EQ(frame->position, std::uint64_t(i));
        EXPECT_EQ(frame->index, std::size_t(i % 4)) << "position " << i;
    }
    decoder.seek(2);
    for (int i = 2; i < 6; ++i) {
        const auto frame = decoder.take();
        ASSERT_TRUE(frame);
        EXPECT_EQ(frame->position, std::uint64_t(i)) << "nothing from before the seek";
    }
}

TEST(SequenceDecoderTest, TryTakeNeverWaitsAndStopsAtThePosition)
{
    app::SequenceDecoder decoder(numberedFrames(5), fakeDecode, false);
    const auto start = std::chrono::steady_clock::now();
    std::optional<app::DecodedFrame> frame;
    while (!(frame = decoder.tryTake(0)))  // polls, as the window does each frame
        ASSERT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_EQ(frame->position, 0u);
    while (!decoder.hasQueued())
        std::this_thread::yield();
    EXPECT_FALSE(decoder.tryTake(0)) << "frame 1 is queued but its time has not come";
    EXPECT_TRUE(decoder.tryTake(1));
}

TEST(SequenceDecoderTest, AnExceptionBecomesThatFramesErrorAndTheOthersStillCome)
{
    auto decode = [](const app::SequenceFrame& frame) -> app::DecodedFrame {
        if (*frame.number == 1)
            throw std::runtime_error("cannot read 'f1.exr': damaged");
        if (*frame.number == 2)
            throw 42;  // not even a std::exception
        return fakeDecode(frame);
    };
    app::SequenceDecoder decoder(numberedFrames(4), decode, false);
    std::vector<std::string> errors;
    for (int i = 0; i < 4; ++i) {
        const auto frame = decoder.take();
        ASSERT_TRUE(frame);
        errors.push_back(frame->error);
        EXPECT_EQ(frame->ok(), frame->image.pixels.size() == 4u) << "pixels only with no error";
    }
    EXPECT_EQ(errors[0], "");
    EXPECT_EQ(errors[1], "cannot read 'f1.exr': damaged");
    EXPECT_NE(errors[2].find("'f2.exr': unknown error"), std::string::npos) << errors[2];
    EXPECT_EQ(errors[3], "");
}

TEST(SequenceDecoderTest, DestructionStopsAWorkerThatWaitsOrDecodes)
{
    std::atomic<int> decoded{0};
    auto counting = [&](const app::SequenceFrame& frame) {
        ++decoded;
        return fakeDecode(frame);
    };
    for (int round = 0; round < 20; ++round) {
        app::SequenceDecoder decoder(numberedFrames(3), counting, true, 2);
        if (round % 2)
            decoder.take();
    }  // each destructor joins: the queue is full, or a frame is being decoded
    EXPECT_GT(decoded.load(), 0);
}

/// An image whose top row is bright and bottom row dark, `width` wide.
image::ImageF twoRows(int width, float top, float bottom)
{
    image::ImageF image(width, 2);
    for (int x = 0; x < width; ++x) {
        image.at(x, 0)[0] = image.at(x, 0)[1] = image.at(x, 0)[2] = top;
        image.at(x, 1)[0] = image.at(x, 1)[1] = image.at(x, 1)[2] = bottom;
        image.at(x, 0)[3] = image.at(x, 1)[3] = 1.0f;
    }
    return image;
}

TEST(SequenceDecoderTest, TheFileDecoderFlipsRowsAndReportsLayoutsAndErrors)
{
    const fs::path dir = ts::scratchDir("sequence-decoder-files");
    image::writeExr(dir / "a.exr", twoRows(3, 8.0f, 0.5f), image::ExrPixelType::Float);
    image::writeExr(dir / "b.exr", twoRows(5, 8.0f, 0.5f), image::ExrPixelType::Float);
    {  // a damaged copy: the first 100 bytes of a good file
        std::ifstream in(dir / "a.exr", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(dir / "damaged.exr", std::ios::binary) << bytes.substr(0, 100);
    }
    image::Image8 grey(3, 2, 1);
    image::writePng(dir / "grey.png", grey);
    image::writePng(dir / "rgb.png", image::Image8(3, 2, 3));

    // One frame through the worker, as playback decodes it (errors, thrown by the loader, caught there).
    auto decode = [](const app::SequenceFrame& frame) {
        app::SequenceDecoder decoder({frame}, app::fileFrameDecoder(""), false);
        return *decoder.take();
    };
    const app::DecodedFrame a = decode({dir / "a.exr", 1, 0});
    ASSERT_TRUE(a.ok()) << a.error;
    EXPECT_EQ(a.image.at(0, 0)[0], 0.5f) << "row 0 is the file's bottom row (GL order)";
    EXPECT_EQ(a.image.at(0, 1)[0], 8.0f);
    EXPECT_EQ(a.layout.rfind("OpenEXR ", 0), 0u) << a.layout;
    EXPECT_NE(a.layout.find("R"), std::string::npos) << a.layout;

    const app::DecodedFrame damaged = decode({dir / "damaged.exr", 2, 0});
    EXPECT_FALSE(damaged.ok());
    EXPECT_NE(damaged.error.find("damaged.exr"), std::string::npos) << damaged.error;
    const app::DecodedFrame gap = decode({dir / "c.exr", 3, 2});
    EXPECT_NE(gap.error.find("'" + (dir / "c.exr").string() + "' is missing"), std::string::npos) << gap.error;
    EXPECT_NE(gap.error.find("2 frames from 3 on"), std::string::npos) << gap.error;

    // The mismatch check of the playback: size first, then the channel layout.
    const app::DecodedFrame b = decode({dir / "b.exr", 4, 0});
    ASSERT_TRUE(b.ok()) << b.error;
    EXPECT_FALSE(app::frameMismatch(a, {3, 2}, a.layout, dir / "a.exr"));
    const auto size = app::frameMismatch(b, {3, 2}, a.layout, dir / "b.exr");
    ASSERT_TRUE(size);
    EXPECT_NE(size->find("b.exr' is 5 x 2 pixels; the sequence's frames are 3 x 2"), std::string::npos) << *size;
    const app::DecodedFrame greyFrame = decode({dir / "grey.png", 5, 0});
    ASSERT_TRUE(greyFrame.ok()) << greyFrame.error;
    EXPECT_EQ(greyFrame.layout, "PNG grey");
    EXPECT_EQ(image::describeImageLayout(dir / "rgb.png"), "PNG RGB");
    const auto channels = app::frameMismatch(greyFrame, {3, 2}, "PNG RGB", dir / "grey.png");
    ASSERT_TRUE(channels);
    EXPECT_NE(channels->find("grey.png' has the channels PNG grey; the sequence's frames have PNG RGB"),
              std::string::npos)
        << *channels;
}

}  // namespace
