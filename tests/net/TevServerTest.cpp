// TevServerTest.cpp: the display server (net/TevServer.h) and its image store over real loopback
// sockets, driven by the tests' own client: tiles in several channel layouts arrive pixel for pixel;
// a malformed packet of each kind drops only its client; a client that dies mid-packet leaves
// nothing; the loopback default; the bounds of the store.
#include "TevTestClient.h"

#include "net/TevServer.h"
#include "support/TestPaths.h"
#include "util/Log.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace {

using namespace std::chrono_literals;

/// Waits until `done()` or five seconds pass.
template <typename Done>
bool eventually(Done done)
{
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

struct Server
{
    net::TevImageStore store;
    net::TevServer server{net::ListenAddress{"127.0.0.1", 0}, store};

    net::RgbaImage image(const std::string& name)
    {
        net::RgbaImage out;
        std::uint64_t version = 0;
        EXPECT_TRUE(store.copyIfChanged(name, version, out)) << name;
        return out;
    }
    bool applied(std::uint64_t packets)
    {
        return eventually([&] { return server.packetsApplied() >= packets; });
    }
};

/// A test picture: channel c of pixel (x, y) is 1000 c + 10 y + x, plus a fraction no float rounds.
float value(int c, int x, int y)
{
    return float(1000 * c + 10 * y + x) + 0.125f;
}

std::vector<float> tile(int c, int x0, int y0, int w, int h)
{
    std::vector<float> v;
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x)
            v.push_back(value(c, x, y));
    return v;
}

void expectPicture(const net::RgbaImage& image, int width, int height, std::array<int, 3> sourceChannels)
{
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 3; ++c) {
                const float expected = sourceChannels[c] < 0 ? 0.0f : value(sourceChannels[c], x, y);
                ASSERT_EQ(image.pixels[std::size_t((y * width + x) * 4 + c)], expected)
                    << "pixel " << x << "," << y << " channel " << c;
            }
}

class TevServer : public ::testing::Test
{
protected:
    void SetUp() override
    {
        mLevel = util::logLevel();
        util::setLogLevel(util::LogLevel::Error);  // dropped clients warn by design
    }
    void TearDown() override { util::setLogLevel(mLevel); }

private:
    util::LogLevel mLevel{};
};

TEST_F(TevServer, ListensOnLoopbackByDefault)
{
    Server s;
    EXPECT_TRUE(s.server.loopbackOnly());
    EXPECT_NE(s.server.port(), 0);
    EXPECT_EQ(s.server.endpoint(), "127.0.0.1:" + std::to_string(s.server.port()));
    net::TevImageStore store;
    net::TevServer any(net::ListenAddress{"0.0.0.0", 0}, store);  // named explicitly: allowed, warned
    EXPECT_FALSE(any.loopbackOnly());
    // A port taken by another server is a clear error.
    EXPECT_THROW(net::TevServer(net::ListenAddress{"127.0.0.1", s.server.port()}, store), std::runtime_error);
    EXPECT_THROW(net::TevServer(net::ListenAddress{"no-such-host.invalid", 0}, store), std::runtime_error);
}

TEST_F(TevServer, OneChannelTilesAsPbrtSendsThem)
{
    Server s;
    tev_test::Connection client(s.server.port());
    ASSERT_TRUE(client.connected());
    const int w = 37, h = 21, t = 16;  // tiles that do not divide the image
    ASSERT_TRUE(client.send(tev_test::createImage("pbrt", w, h, {"R", "G", "B"})));
    std::uint64_t packets = 1;
    for (int y = 0; y < h; y += t)
        for (int x = 0; x < w; x += t)
            for (int c = 0; c < 3; ++c, ++packets) {
                const int tw = std::min(t, w - x), th = std::min(t, h - y);
                ASSERT_TRUE(client.send(
                    tev_test::updateImageV1("pbrt", "RGB"[c] + std::string(), x, y, tw, th, tile(c, x, y, tw, th))));
            }
    ASSERT_TRUE(s.applied(packets));
    expectPicture(s.image("pbrt"), w, h, {0, 1, 2});
}

TEST_F(TevServer, MultiChannelAndStridedTilesOfALayer)
{
    Server s;
    tev_test::Connection client(s.server.port());
    const std::vector<std::string> channels{"Z", "albedo.B", "albedo.G", "albedo.R"};
    const int w = 8, h = 6;
    ASSERT_TRUE(client.send(tev_test::createImage("layers", w, h, channels)));
    // The top half as V2 planes, the bottom half as V3 interleaved.
    std::vector<std::vector<float>> planes;
    for (int c = 0; c < 4; ++c)
        planes.push_back(tile(c, 0, 0, w, 3));
    ASSERT_TRUE(client.send(tev_test::updateImageV2("layers", channels, 0, 0, w, 3, planes)));
    std::vector<float> interleaved;
    for (int y = 3; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 4; ++c)
                interleaved.push_back(value(c, x, y));
    ASSERT_TRUE(client.send(tev_test::updateImageV3Interleaved("layers", channels, 0, 3, w, 3, interleaved)));
    ASSERT_TRUE(s.applied(3));
    // The root layer comes first; it holds one channel, Z, shown as grey.
    expectPicture(s.image("layers"), w, h, {0, 0, 0});
    // A one-channel image is grey; a tile partly outside the image is clipped.
    ASSERT_TRUE(client.send(tev_test::createImage("grey", 4, 4, {"Y"})));
    ASSERT_TRUE(client.send(tev_test::updateImageV1("grey", "Y", 2, 2, 4, 4, tile(0, 2, 2, 4, 4))));
    ASSERT_TRUE(s.applied(5));
    const net::RgbaImage grey = s.image("grey");
    EXPECT_EQ(grey.pixels[(3 * 4 + 3) * 4 + 1], value(0, 3, 3));
    EXPECT_EQ(grey.pixels[(1 * 4 + 1) * 4 + 2], 0.0f);
}

TEST_F(TevServer, LayerChannelsWithoutARootLayer)
{
    Server s;
    tev_test::Connection client(s.server.port());
    const std::vector<std::string> channels{"albedo.B", "albedo.G", "albedo.R"};
    ASSERT_TRUE(client.send(tev_test::createImage("albedo", 3, 2, channels)));
    std::vector<std::vector<float>> planes;
    for (int c = 0; c < 3; ++c)
        planes.push_back(tile(c, 0, 0, 3, 2));
    ASSERT_TRUE(client.send(tev_test::updateImageV2("albedo", channels, 0, 0, 3, 2, planes)));
    ASSERT_TRUE(s.applied(2));
    expectPicture(s.image("albedo"), 3, 2, {2, 1, 0});
}

TEST_F(TevServer, MalformedPacketsDropOnlyTheirClient)
{
    Server s;
    tev_test::Connection good(s.server.port());
    ASSERT_TRUE(good.send(tev_test::createImage("kept", 2, 2, {"R", "G", "B"})));
    ASSERT_TRUE(s.applied(1));
    const std::vector<std::vector<std::uint8_t>> bad{
        {0, 0, 0, 0},                                                      // length below the minimum
        {0xff, 0xff, 0xff, 0xff},                                          // length above the maximum
        tev_test::Packet(77).u8(0).finish(),                               // unknown type
        tev_test::Packet(2).u8('x').finish(),                              // a name without its NUL
        tev_test::Packet(4).u8(0).str("n").i32(1).i32(1).i32(0).finish(),  // no channels
        tev_test::createImage("huge", net::kMaxImageSide, net::kMaxImageSide, {"R"}),
        tev_test::updateImageV1("kept", "R", 0, 0, 2, 2, std::vector<float>(3, 0.0f)),  // short of data
    };
    std::uint64_t dropped = 0;
    for (const auto& bytes : bad) {
        tev_test::Connection client(s.server.port());
        ASSERT_TRUE(client.send(bytes));
        EXPECT_TRUE(client.closedByServer(5.0)) << "packet type " << (bytes.size() > 4 ? int(bytes[4]) : -1);
        EXPECT_TRUE(eventually([&] { return s.server.droppedClients() == dropped + 1; }));
        dropped = s.server.droppedClients();
    }
    // The good client and its image are untouched and it still talks.
    ASSERT_TRUE(good.send(tev_test::updateImageV1("kept", "R", 0, 0, 2, 2, tile(0, 0, 0, 2, 2))));
    ASSERT_TRUE(s.applied(2));
    EXPECT_EQ(s.image("kept").pixels[0], value(0, 0, 0));
    EXPECT_EQ(s.store.list().size(), 1u);
}

TEST_F(TevServer, AClientKilledMidPacketLeavesNothing)
{
    Server s;
    {
        tev_test::Connection client(s.server.port());
        std::vector<std::uint8_t> create = tev_test::createImage("half", 4, 4, {"R"});
        create.resize(create.size() - 3);
        ASSERT_TRUE(client.send(create));
        ASSERT_TRUE(eventually([&] { return s.server.clientCount() == 1; }));
    }
    ASSERT_TRUE(eventually([&] { return s.server.clientCount() == 0; }));
    EXPECT_TRUE(s.store.list().empty());
    EXPECT_EQ(s.store.floatsHeld(), 0);
    EXPECT_EQ(s.server.droppedClients(), 0u);  // leaving is no error
}

TEST_F(TevServer, StoreBoundsAndClose)
{
    Server s;
    tev_test::Connection client(s.server.port());
    for (std::size_t i = 0; i < net::kMaxImages; ++i)
        ASSERT_TRUE(client.send(tev_test::createImage("image" + std::to_string(i), 2, 2, {"R"})));
    ASSERT_TRUE(s.applied(net::kMaxImages));
    EXPECT_EQ(s.store.list().size(), net::kMaxImages);
    ASSERT_TRUE(client.send(tev_test::createImage("one too many", 2, 2, {"R"})));
    EXPECT_TRUE(client.closedByServer(5.0));
    EXPECT_EQ(s.store.list().size(), net::kMaxImages);
    tev_test::Connection second(s.server.port());
    ASSERT_TRUE(second.send(tev_test::closeImage("image3")));
    ASSERT_TRUE(eventually([&] { return s.store.list().size() == net::kMaxImages - 1; }));
    // An update of an image nobody created is ignored; the client stays.
    ASSERT_TRUE(second.send(tev_test::updateImageV1("nobody", "R", 0, 0, 1, 1, std::vector<float>{1.0f})));
    EXPECT_FALSE(second.closedByServer(0.3));
}

TEST_F(TevServer, OpenImageGoesThroughTheFileReaders)
{
    Server s;
    tev_test::Connection client(s.server.port());
    const std::filesystem::path file = testing_support::sourceDir() / "assets" / "interior-window.exr";
    if (!std::filesystem::exists(file))
        GTEST_SKIP() << file << " is missing";
    ASSERT_TRUE(client.send(tev_test::openImageV2(file.string(), "")));
    ASSERT_TRUE(client.send(tev_test::openImageV2("/no/such/file.exr", "")));  // an error line; the client stays
    ASSERT_TRUE(s.applied(2));
    ASSERT_EQ(s.store.list().size(), 1u);
    EXPECT_EQ(s.store.list()[0].name, file.string());
    EXPECT_FALSE(client.closedByServer(0.2));
}

}  // namespace
