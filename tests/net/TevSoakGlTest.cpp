// The tev display server's soak (ctest tev_soak, label soak; skipped elsewhere): four clients stream
// for 30 s while the frame source takes their images once a frame, as the app does. Three send tiles
// of their own images over and over (one channel a packet, planes, interleaved); the fourth sends
// garbage, is dropped and comes back. After a warm-up, resident memory, the images' floats and the
// live GL objects must stay flat, and every garbage connection must have been dropped.
#include "TevTestClient.h"

#include "frames/TevFrameSource.h"
#include "gl/Object.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"
#include "util/Log.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

namespace ts = testing_support;

namespace {

using namespace std::chrono_literals;

long residentKiB()
{
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * 4;  // 4 KiB pages
}

void streamImages(std::uint16_t port, int kind, const std::atomic<bool>& stop, std::atomic<long>& sent)
{
    const std::string name = "client" + std::to_string(kind);
    const int w = 96, h = 64, t = 32;
    tev_test::Connection client(port);
    client.send(tev_test::createImage(name, w, h, {"R", "G", "B"}));
    std::vector<float> values(std::size_t(t * t * 3));
    for (int frame = 0; !stop; ++frame)
        for (int y = 0; y < h && !stop; y += t)
            for (int x = 0; x < w && !stop; x += t) {
                std::fill(values.begin(), values.end(), float(frame % 100) + float(kind));
                const std::span<const float> one(values.data(), std::size_t(t * t));
                bool ok = true;
                if (kind == 0)
                    for (const char* channel : {"R", "G", "B"})
                        ok = ok && client.send(tev_test::updateImageV1(name, channel, x, y, t, t, one));
                else if (kind == 1)
                    ok = client.send(tev_test::updateImageV2(
                        name, {"R", "G", "B"}, x, y, t, t,
                        {{one.begin(), one.end()}, {one.begin(), one.end()}, {one.begin(), one.end()}}));
                else
                    ok = client.send(tev_test::updateImageV3Interleaved(name, {"R", "G", "B"}, x, y, t, t, values));
                if (!ok)
                    return;
                ++sent;
                std::this_thread::sleep_for(1ms);
            }
}

void sendGarbage(std::uint16_t port, const std::atomic<bool>& stop, std::atomic<long>& connections)
{
    std::mt19937 random(1234);
    while (!stop) {
        tev_test::Connection client(port);
        std::vector<std::uint8_t> bytes = tev_test::createImage("garbage", 8, 8, {"R"});
        for (std::size_t i = 4; i < bytes.size(); ++i)
            bytes[i] = std::uint8_t(random());
        bytes[4] = std::uint8_t(9 + random() % 200);  // an unknown type, so that it is always refused
        client.send(bytes);
        client.closedByServer(2.0);
        ++connections;
        std::this_thread::sleep_for(20ms);
    }
}

TEST(TevSoak, FourClientsForThirtySeconds)
{
    if (!std::getenv("HDRLAB_TEV_SOAK"))
        GTEST_SKIP() << "the soak runs as its own ctest, tev_soak (HDRLAB_TEV_SOAK=1)";
    const util::LogLevel level = util::logLevel();
    util::setLogLevel(util::LogLevel::Error);
    {
        app::TevFrameSource source(net::ListenAddress{"127.0.0.1", 0}, ts::testGpuCaps().maxTextureSize);
        std::atomic<bool> stop{false};
        std::atomic<long> tiles{0}, garbage{0};
        std::vector<std::thread> clients;
        for (int kind = 0; kind < 3; ++kind)
            clients.emplace_back(streamImages, source.server().port(), kind, std::cref(stop), std::ref(tiles));
        clients.emplace_back(sendGarbage, source.server().port(), std::cref(stop), std::ref(garbage));

        const auto start = std::chrono::steady_clock::now();
        long rssAfterWarmUp = 0;
        int glAfterWarmUp = 0;
        std::int64_t floatsAfterWarmUp = 0;
        bool warm = false;
        int frames = 0;
        while (std::chrono::steady_clock::now() - start < 30s) {
            source.update(app::FrameSourceInput{});
            if (frames % 60 == 0 && !source.pictureChoices().empty())
                source.choosePicture(frames / 60 % int(source.pictureChoices().size()));
            ++frames;
            std::this_thread::sleep_for(16ms);
            if (!warm && std::chrono::steady_clock::now() - start > 5s) {
                warm = true;
                rssAfterWarmUp = residentKiB();
                glAfterWarmUp = gl::liveObjectCountTotal();
                floatsAfterWarmUp = source.store().floatsHeld();
            }
        }
        const long rss = residentKiB();
        const int glObjects = gl::liveObjectCountTotal();
        stop = true;
        for (std::thread& client : clients)
            client.join();
        RecordProperty("tiles", int(tiles));
        RecordProperty("garbage_connections", int(garbage));
        RecordProperty("rss_growth_kib", int(rss - rssAfterWarmUp));
        EXPECT_GT(tiles.load(), 1000);
        EXPECT_GT(garbage.load(), 50);
        EXPECT_GE(source.server().droppedClients(), std::uint64_t(garbage.load()) - 1);
        EXPECT_EQ(source.store().list().size(), 3u);
        EXPECT_EQ(source.store().floatsHeld(), floatsAfterWarmUp);
        EXPECT_EQ(glObjects, glAfterWarmUp);
        EXPECT_LT(rss - rssAfterWarmUp, 16 * 1024) << "resident memory grew from " << rssAfterWarmUp << " KiB";
        std::cout << "soak: " << frames << " frames, " << tiles << " tiles, " << garbage
                  << " garbage connections dropped, resident " << rssAfterWarmUp << " -> " << rss << " KiB, GL objects "
                  << glAfterWarmUp << " -> " << glObjects << std::endl;
    }
    util::setLogLevel(level);
}

}  // namespace
