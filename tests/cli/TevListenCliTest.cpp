// TevListenCliTest.cpp: `hdrlab --listen` end to end, headless: a client (the tests' own, and the
// Python example scripts/tev_send.py) streams an image, and the run's probe, screenshot and capture
// are of it; no image within --listen-timeout is a clear error; the flags' refusals; --help.
#include "cli/CliTestSupport.h"
#include "image/ImageIo.h"
#include "net/TevTestClient.h"

#include <gtest/gtest.h>

#include <future>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;
using cli_test::lineStarting;

/// Runs `arguments` in the background while `client(port)` talks to it.
template <typename Client>
testing_support::CommandResult runWithClient(const fs::path& dir, const std::string& arguments, Client client)
{
    const std::uint16_t port = tev_test::freePort();
    auto run = std::async(std::launch::async, [&] {
        return cli_test::runIn(dir, hdrlab("--listen 127.0.0.1:" + std::to_string(port) + " " + arguments));
    });
    client(port);
    return run.get();
}

TEST(TevListenCli, AStreamedImageIsProbedCapturedAndWritten)
{
    const fs::path dir = testing_support::scratchDir("tev-listen");
    const int w = 40, h = 24;
    const testing_support::CommandResult result = runWithClient(
        dir, "--headless --frames 4 --probe 5,3 --screenshot shot.png --capture cap.json --listen-timeout 60",
        [&](std::uint16_t port) {
            tev_test::Connection client(port, 60.0);
            ASSERT_TRUE(client.connected());
            client.send(tev_test::createImage("beauty", w, h, {"depth.Z", "B", "G", "R"}));
            // R and G one channel a packet in two tiles; B as a V2 plane; depth.Z strided (ignored).
            for (int half = 0; half < 2; ++half) {
                const std::vector<float> r(std::size_t(w * h / 2), 2.5f), g(std::size_t(w * h / 2), 0.25f);
                client.send(tev_test::updateImageV1("beauty", "R", 0, half * h / 2, w, h / 2, r));
                client.send(tev_test::updateImageV1("beauty", "G", 0, half * h / 2, w, h / 2, g));
            }
            client.send(
                tev_test::updateImageV2("beauty", {"B"}, 0, 0, w, h, {std::vector<float>(std::size_t(w * h), 8.0f)}));
            client.send(tev_test::updateImageV3Interleaved("beauty", {"depth.Z"}, 0, 0, w, h,
                                                           std::vector<float>(std::size_t(w * h), 100.0f)));
        });
    ASSERT_EQ(result.exitCode, 0) << result.output;
    EXPECT_NE(lineStarting(result.output, "tev display server listening on 127.0.0.1:"), "") << result.output;
    EXPECT_NE(lineStarting(result.output, "probe 1 at 5,3: rgb 2.5 0.25 8,"), "") << result.output;
    const image::Image8 shot = image::loadImage8(dir / "shot.png");
    EXPECT_EQ(shot.width, w);
    EXPECT_EQ(shot.height, h);
    EXPECT_TRUE(fs::exists(dir / "cap.json"));
}

TEST(TevListenCli, ThePythonExampleClientWorks)
{
    if (std::system("command -v python3 >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "python3 is missing";
    const fs::path dir = testing_support::scratchDir("tev-listen-python");
    const std::string script = (testing_support::sourceDir() / "scripts" / "tev_send.py").string();
    std::string clientOutput;
    const testing_support::CommandResult result =
        runWithClient(dir, "--headless --frames 2 --probe 32,16 --listen-timeout 60", [&](std::uint16_t port) {
            tev_test::Connection wait(port, 60.0);  // the server is up
            wait.close();
            clientOutput = testing_support::runCommand("python3 '" + script + "' --port " + std::to_string(port) +
                                                       " --tile 32 128x64")
                               .output;
        });
    ASSERT_EQ(result.exitCode, 0) << result.output << clientOutput;
    // The gradient: R = x / width, G = y / height, B = 0.5.
    EXPECT_NE(lineStarting(result.output, "probe 1 at 32,16: rgb 0.25 0.25 0.5,"), "") << result.output;
}

TEST(TevListenCli, NoImageWithinTheTimeoutIsAClearError)
{
    const fs::path dir = testing_support::scratchDir("tev-listen-timeout");
    const testing_support::CommandResult result =
        cli_test::runIn(dir, hdrlab("--headless --listen 127.0.0.1:" + std::to_string(tev_test::freePort()) +
                                    " --listen-timeout 0.5 --frames 2"));
    EXPECT_EQ(result.exitCode, 1) << result.output;
    EXPECT_NE(result.output.find("--listen: no image arrived on 127.0.0.1:"), std::string::npos) << result.output;
}

TEST(TevListenCli, FlagsAreCheckedAndListed)
{
    const fs::path dir = testing_support::scratchDir("tev-listen-flags");
    auto refused = [&](const std::string& arguments, const std::string& message) {
        const testing_support::CommandResult result = cli_test::runIn(dir, hdrlab(arguments));
        EXPECT_NE(result.exitCode, 0) << arguments;
        EXPECT_NE(result.output.find(message), std::string::npos) << arguments << ": " << result.output;
    };
    refused("--headless --listen-timeout 5", "--listen-timeout needs --listen");
    refused("--headless --listen 127.0.0.1:99999", "the port must be a number 0..65535");
    refused("--headless --listen :80", "the host before the ':' is empty");
    refused("--headless --listen 1 --listen-timeout 0", "--listen-timeout");
    refused("--headless --listen 1 --scene x.json", "drop --scene");
    refused("view x.exr --headless --listen 1", "cannot be combined with view IMAGE");
    const testing_support::CommandResult help = cli_test::runIn(dir, hdrlab("--help"));
    EXPECT_NE(help.output.find("--listen [HOST:]PORT"), std::string::npos) << help.output;
    EXPECT_NE(help.output.find("--listen-timeout"), std::string::npos);
}

}  // namespace
