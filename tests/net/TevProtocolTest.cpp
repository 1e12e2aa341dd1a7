// TevProtocolTest.cpp: the tev packet parser (net/TevProtocol.h) on packets the tests' own client
// builds (TevTestClient.h): every type and version, every bound, and malformed packets of every kind
// (each refused with one line, never a crash); tev's channel choice; the listen address.
#include "TevTestClient.h"

#include "net/TevImageStore.h"
#include "net/TevProtocol.h"
#include "net/TevServer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

namespace {

using namespace net;
using tev_test::Packet;

template <typename T>
T parseAs(const std::vector<std::uint8_t>& bytes)
{
    const net::Packet parsed = parsePacket(bytes);
    EXPECT_TRUE(std::holds_alternative<T>(parsed));
    return std::get<T>(parsed);
}

/// The ProtocolError message for `bytes`, or "" when it parsed.
std::string refusal(const std::vector<std::uint8_t>& bytes)
{
    try {
        parsePacket(bytes);
    } catch (const ProtocolError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        EXPECT_LT(message.size(), 400u) << message;
        return message;
    }
    return {};
}

TEST(TevProtocol, ReadsCreateImage)
{
    const auto p = parseAs<CreateImagePacket>(tev_test::createImage("beauty", 640, 480, {"R", "G", "B", "A"}));
    EXPECT_TRUE(p.grabFocus);
    EXPECT_EQ(p.name, "beauty");
    EXPECT_EQ(p.width, 640);
    EXPECT_EQ(p.height, 480);
    EXPECT_EQ(p.channels, (std::vector<std::string>{"R", "G", "B", "A"}));
}

TEST(TevProtocol, ReadsUpdateImageOfOneChannel)
{
    const std::vector<float> values{1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
    const auto p = parseAs<UpdateImagePacket>(tev_test::updateImageV1("img", "G", 3, 4, 3, 2, values));
    EXPECT_EQ(p.name, "img");
    EXPECT_EQ(p.channels, std::vector<std::string>{"G"});
    EXPECT_EQ(p.x, 3);
    EXPECT_EQ(p.y, 4);
    EXPECT_EQ(p.width, 3);
    EXPECT_EQ(p.height, 2);
    ASSERT_EQ(p.planes.size(), 1u);
    EXPECT_EQ(p.planes[0], values);
}

TEST(TevProtocol, ReadsUpdateImageV2Planes)
{
    const std::vector<std::vector<float>> planes{{1, 2}, {3, 4}, {5, 6}};
    const auto p = parseAs<UpdateImagePacket>(tev_test::updateImageV2("img", {"R", "G", "B"}, 0, 0, 2, 1, planes));
    EXPECT_EQ(p.planes, planes);
}

TEST(TevProtocol, ReadsUpdateImageV3OffsetsAndStrides)
{
    const std::vector<float> interleaved{1, 10, 2, 20, 3, 30};
    const auto p =
        parseAs<UpdateImagePacket>(tev_test::updateImageV3Interleaved("img", {"L", "Z"}, 1, 1, 3, 1, interleaved));
    ASSERT_EQ(p.planes.size(), 2u);
    EXPECT_EQ(p.planes[0], (std::vector<float>{1, 2, 3}));
    EXPECT_EQ(p.planes[1], (std::vector<float>{10, 20, 30}));
}

TEST(TevProtocol, ReadsOpenReloadCloseAndVectorGraphics)
{
    auto open = parseAs<OpenImagePacket>(tev_test::openImageV2("/data/a.exr", "albedo"));
    EXPECT_EQ(open.path, "/data/a.exr");
    EXPECT_EQ(open.channelSelector, "albedo");
    EXPECT_TRUE(open.grabFocus);
    // Version 1 carries "path:selector"; a drive letter's colon belongs to the path.
    open = parseAs<OpenImagePacket>(Packet(0).u8(0).str("/data/a.exr:diffuse").finish());
    EXPECT_EQ(open.path, "/data/a.exr");
    EXPECT_EQ(open.channelSelector, "diffuse");
    open = parseAs<OpenImagePacket>(Packet(0).u8(0).str("C:/data/a.exr").finish());
    EXPECT_EQ(open.path, "C:/data/a.exr");
    EXPECT_EQ(open.channelSelector, "");
    EXPECT_EQ(parseAs<ReloadImagePacket>(Packet(1).u8(1).str("a").finish()).name, "a");
    EXPECT_EQ(parseAs<CloseImagePacket>(tev_test::closeImage("b")).name, "b");
    EXPECT_EQ(parseAs<VectorGraphicsPacket>(Packet(8).u8(0).str("c").u8(0).i32(1).u8(0).f32(1).finish()).name, "c");
}

TEST(TevProtocol, EveryTruncationOfEveryPacketIsRefused)
{
    const std::vector<float> tile(4, 0.5f);
    const std::vector<std::vector<std::uint8_t>> packets{
        tev_test::createImage("n", 2, 2, {"R", "G"}),
        tev_test::updateImageV1("n", "R", 0, 0, 2, 2, tile),
        tev_test::updateImageV2("n", {"R"}, 0, 0, 2, 2, {tile}),
        tev_test::updateImageV3Interleaved("n", {"R", "G"}, 0, 0, 2, 1, tile),
        tev_test::openImageV2("p", "s"),
        Packet(0).u8(0).str("p").finish(),
        Packet(1).u8(0).str("p").finish(),
        tev_test::closeImage("n"),
        Packet(8).u8(0).str("n").finish(),
    };
    for (const auto& whole : packets) {
        EXPECT_EQ(refusal(whole), "");
        for (std::size_t cut = 0; cut < whole.size(); ++cut) {
            // The length field says what is there; the fields end early.
            std::vector<std::uint8_t> bytes(whole.begin(), whole.begin() + std::ptrdiff_t(cut));
            if (bytes.size() >= 4) {
                const std::uint32_t length = std::uint32_t(bytes.size());
                std::memcpy(bytes.data(), &length, 4);
            }
            EXPECT_NE(refusal(bytes), "") << "type " << int(whole[4]) << " cut at " << cut;
        }
    }
}

TEST(TevProtocol, RefusesLengthsOutsideTheBounds)
{
    std::vector<std::uint8_t> bytes = tev_test::closeImage("x");
    EXPECT_THROW(declaredPacketLength(std::vector<std::uint8_t>{4, 0, 0, 0}), ProtocolError);
    EXPECT_THROW(declaredPacketLength(std::vector<std::uint8_t>{0, 0, 0, 0}), ProtocolError);
    const std::uint32_t tooLong = kMaxPacketBytes + 1;
    std::vector<std::uint8_t> header(4);
    std::memcpy(header.data(), &tooLong, 4);
    EXPECT_THROW(declaredPacketLength(header), ProtocolError);
    std::memcpy(header.data(), &kMaxPacketBytes, 4);
    EXPECT_EQ(declaredPacketLength(header), kMaxPacketBytes);
    EXPECT_EQ(declaredPacketLength(std::vector<std::uint8_t>{5, 0, 0}), std::nullopt);
    // A length that disagrees with the bytes given.
    bytes.push_back(0);
    EXPECT_NE(refusal(bytes), "");
}

TEST(TevProtocol, RefusesUnknownTypes)
{
    for (int type : {9, 42, 255})
        EXPECT_NE(refusal(Packet(std::uint8_t(type)).u8(0).finish()).find("unknown packet type"), std::string::npos);
}

TEST(TevProtocol, RefusesNamesOverTheLimit)
{
    EXPECT_EQ(refusal(tev_test::closeImage(std::string(kMaxNameBytes, 'a'))), "");
    EXPECT_NE(refusal(tev_test::closeImage(std::string(kMaxNameBytes + 1, 'a'))).find("longer than"),
              std::string::npos);
    // No NUL at all before the end.
    EXPECT_NE(refusal(Packet(2).u8('a').u8('b').finish()).find("NUL"), std::string::npos);
}

TEST(TevProtocol, RefusesChannelCountsOutsideTheBounds)
{
    for (int count : {0, -1, kMaxChannels + 1}) {
        EXPECT_NE(refusal(Packet(4).u8(0).str("n").i32(2).i32(2).i32(count).finish()).find("channel count"),
                  std::string::npos)
            << count;
        EXPECT_NE(refusal(Packet(5).u8(0).str("n").i32(count).finish()).find("channel count"), std::string::npos);
    }
    std::vector<std::string> most(std::size_t(kMaxChannels), "c");
    EXPECT_EQ(refusal(tev_test::createImage("n", 1, 1, most)), "");
}

TEST(TevProtocol, RefusesImageSizesOutsideTheBounds)
{
    EXPECT_EQ(refusal(tev_test::createImage("n", kMaxImageSide, int(kMaxImagePixels / kMaxImageSide), {"R"})), "");
    for (auto [w, h] : std::vector<std::pair<int, int>>{
             {0, 1}, {1, 0}, {-1, 5}, {kMaxImageSide + 1, 1}, {1, kMaxImageSide + 1}, {kMaxImageSide, kMaxImageSide}})
        EXPECT_NE(refusal(tev_test::createImage("n", w, h, {"R"})), "") << w << "x" << h;
}

TEST(TevProtocol, RefusesTilesOutsideTheBoundsOrShortOfData)
{
    const std::vector<float> four(4, 1.0f);
    EXPECT_NE(refusal(tev_test::updateImageV1("n", "R", -1, 0, 2, 2, four)), "");
    EXPECT_NE(refusal(tev_test::updateImageV1("n", "R", 0, kMaxImageSide, 2, 2, four)), "");
    EXPECT_NE(refusal(tev_test::updateImageV1("n", "R", 0, 0, -2, 2, four)), "");
    EXPECT_NE(refusal(tev_test::updateImageV1("n", "R", 0, 0, 3, 2, four)).find("needs 6 floats"), std::string::npos);
    // V3: offsets and strides past the data, negative, or whose product would overflow.
    auto v3 = [](std::int64_t offset, std::int64_t stride) {
        return Packet(6)
            .u8(0)
            .str("n")
            .i32(1)
            .str("R")
            .i32(0)
            .i32(0)
            .i32(2)
            .i32(2)
            .i64(offset)
            .i64(stride)
            .f32(1)
            .f32(2)
            .f32(3)
            .f32(4)
            .finish();
    };
    EXPECT_EQ(refusal(v3(0, 1)), "");
    EXPECT_EQ(refusal(v3(0, 0)), "");  // one value for every pixel
    EXPECT_NE(refusal(v3(1, 1)), "");
    EXPECT_NE(refusal(v3(-1, 1)), "");
    EXPECT_NE(refusal(v3(0, -1)), "");
    EXPECT_NE(refusal(v3(0, std::int64_t(1) << 62)), "");
    EXPECT_NE(refusal(v3(std::int64_t(1) << 62, 1)), "");
}

TEST(TevProtocol, WriterAndTestClientAgree)
{
    const std::vector<float> values{0.25f, -1.0f};
    EXPECT_EQ(PacketWriter(PacketType::UpdateImage)
                  .boolean(false)
                  .string("img")
                  .string("R")
                  .int32(0)
                  .int32(1)
                  .int32(2)
                  .int32(1)
                  .floats(values)
                  .finish(),
              tev_test::updateImageV1("img", "R", 0, 1, 2, 1, values));
}

TEST(TevChannels, ChoosesAsTevDoes)
{
    auto check = [](const std::vector<std::string>& channels, const std::string& selector, int r, int g, int b,
                    bool grey) {
        const DisplayChannels c = chooseDisplayChannels(channels, selector);
        EXPECT_EQ(c.red, r) << selector;
        EXPECT_EQ(c.green, g) << selector;
        EXPECT_EQ(c.blue, b) << selector;
        EXPECT_EQ(c.grey, grey) << selector;
    };
    check({"R", "G", "B"}, "", 0, 1, 2, false);
    check({"B", "G", "R", "A"}, "", 2, 1, 0, false);
    check({"Y"}, "", 0, 0, 0, true);
    check({"albedo.R", "albedo.G", "albedo.B", "R", "G", "B"}, "", 3, 4, 5, false);
    check({"albedo.R", "albedo.G", "albedo.B", "R", "G", "B"}, "albedo", 0, 1, 2, false);
    check({"albedo.R", "albedo.G", "albedo.B", "R", "G", "B"}, "albedo.", 0, 1, 2, false);
    check({"normal.X", "normal.Y", "normal.Z"}, "", 0, 1, 2, false);  // no R, G, B: the first three
    check({"depth.Z", "diffuse.r", "diffuse.g", "diffuse.b"}, "diffuse", 1, 2, 3, false);
    check({"R", "G", "B"}, "G", 1, 1, 1, true);  // one channel named: grey
    check({"R", "G"}, "", 0, 1, -1, false);      // no blue: zero
    check({}, "", -1, -1, -1, false);
}

TEST(TevListenAddress, DefaultsToLoopback)
{
    const ListenAddress none = parseListenAddress("");
    EXPECT_EQ(none.host, "127.0.0.1");
    EXPECT_EQ(none.port, kDefaultTevPort);
    const ListenAddress port = parseListenAddress("15000");
    EXPECT_EQ(port.host, "127.0.0.1");
    EXPECT_EQ(port.port, 15000);
    const ListenAddress both = parseListenAddress("0.0.0.0:80");
    EXPECT_EQ(both.host, "0.0.0.0");
    EXPECT_EQ(both.port, 80);
    EXPECT_EQ(parseListenAddress("[::1]:9").host, "::1");
    for (const char* bad : {"x", ":80", "host:", "host:65536", "host:-1", "1234567", "a:b:c"})
        EXPECT_THROW(parseListenAddress(bad), std::invalid_argument) << bad;
}

}  // namespace
