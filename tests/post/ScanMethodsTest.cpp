// Every available OpenGL scan method (compute-scan first) against ref::inclusiveScan, exactly, at
// lengths around the per-thread, warp and workgroup boundaries up to 4096 and at every length
// 1..4096; the multi-workgroup scans around their block boundaries and at two and three levels;
// Hensley's render passes: their count and the GL state they leave behind.
#include "post/histogram/HistogramPassCommon.h"
#include "post/scan/ScanBlockHierarchy.h"
#include "post/scan/ScanHensleySat.h"
#include "post/scan/ScanMethod.h"
#include "reference/Scan.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include "gl/Framebuffer.h"

#include <random>

namespace ts = testing_support;

namespace {

class ScanMethods : public ts::GlTest
{
};

std::vector<std::uint32_t> scanOnGpu(post::ScanMethod& scan, const std::vector<std::uint32_t>& values, bool inPlace)
{
    gl::Buffer input = gl::Buffer::fromSpan<std::uint32_t>("test.scan.input", values);
    gl::Buffer output("test.scan.output", std::max<std::size_t>(values.size(), 1) * sizeof(std::uint32_t));
    output.clearUint(0xDEADBEEFu);
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    scan.inclusiveScan(ctx, input, inPlace ? input : output, std::uint32_t(values.size()));
    return (inPlace ? input : output).readAll<std::uint32_t>(values.size());
}

TEST_F(ScanMethods, MatchTheCpuScanAtAwkwardLengths)
{
    std::mt19937 random(7);
    std::uniform_int_distribution<std::uint32_t> pick(0, 100000);
    int tested = 0;
    for (const post::ScanMethodEntry& entry : post::scanMethodRegistry()) {
        auto scan = entry.create();
        post::Availability availability = scan->availability(ts::testGpuCaps());
        if (scan->backend() != post::Backend::OpenGL || !availability.available) {
            std::cout << "[ skipped  ] scan " << entry.id << ": "
                      << (availability.available ? "not an OpenGL method" : availability.reason) << "\n";
            continue;
        }
        ++tested;
        for (std::uint32_t length : {1u, 2u, 31u, 32u, 33u, 255u, 256u, 257u, 1023u, 1024u, 1025u, 4095u, 4096u}) {
            if (length > scan->maxLength())
                continue;
            std::vector<std::uint32_t> values(length);
            for (auto& v : values)
                v = pick(random);
            EXPECT_EQ(scanOnGpu(*scan, values, false), ref::inclusiveScan(values)) << entry.id << " length " << length;
        }
    }
    EXPECT_GE(tested, 1);
}

TEST_F(ScanMethods, ComputeScanWorksInPlaceAndRefusesTooLongInput)
{
    auto scan = post::createScanMethod("compute-scan");
    ASSERT_TRUE(scan);
    std::vector<std::uint32_t> values(3000);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::uint32_t(i % 17);
    EXPECT_EQ(scanOnGpu(*scan, values, true), ref::inclusiveScan(values));
    gl::Buffer big("test.scan.big", 8192 * sizeof(std::uint32_t));
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    EXPECT_THROW(scan->inclusiveScan(ctx, big, big, 4097), std::invalid_argument);
}

/// The available OpenGL scan methods of the registry.
std::vector<std::unique_ptr<post::ScanMethod>> availableGlScans()
{
    std::vector<std::unique_ptr<post::ScanMethod>> scans;
    for (const post::ScanMethodEntry& entry : post::scanMethodRegistry()) {
        auto scan = entry.create();
        if (scan->backend() == post::Backend::OpenGL && scan->availability(ts::testGpuCaps()).available)
            scans.push_back(std::move(scan));
    }
    return scans;
}

TEST_F(ScanMethods, EveryGlMethodMatchesTheCpuScanAtEveryLengthUpTo4096)
{
    // One input of 4096 values: the scan of its first n values is the first n values of its full
    // scan. The output word after the n-th must keep its marker (no write past the length).
    constexpr std::uint32_t kMarker = 0xDEADBEEFu;
    std::mt19937 random(11);
    std::uniform_int_distribution<std::uint32_t> pick(0, 70000);
    std::vector<std::uint32_t> values(hd::kMaxHistogramBins);
    for (auto& v : values)
        v = pick(random);
    const std::vector<std::uint32_t> expected = ref::inclusiveScan(values);
    gl::Buffer input = gl::Buffer::fromSpan<std::uint32_t>("test.scan.every-length.input", values);
    gl::Buffer output("test.scan.every-length.output", (values.size() + 1) * sizeof(std::uint32_t));
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};

    const auto scans = availableGlScans();
    EXPECT_GE(scans.size(), 4u);  // compute-scan, compute-blelloch, compute-brent-kung, hensley-sat on any GL 4.5
    for (const auto& scan : scans) {
        int wrongLengths = 0;
        const std::uint32_t longest = std::min<std::uint32_t>(hd::kMaxHistogramBins, scan->maxLength());
        EXPECT_EQ(longest, hd::kMaxHistogramBins) << scan->id();
        for (std::uint32_t length = 1; length <= longest && wrongLengths < 5; ++length) {
            output.clearUint(kMarker);
            scan->inclusiveScan(ctx, input, output, length);
            const auto got = output.readAll<std::uint32_t>(length + 1);
            const bool scanRight = std::equal(got.begin(), got.begin() + length, expected.begin());
            if (!scanRight || got[length] != kMarker) {
                ++wrongLengths;
                ADD_FAILURE() << scan->id() << " length " << length << ": "
                              << (scanRight ? "wrote past the end" : "differs from the CPU scan");
            }
        }
    }
}

TEST_F(ScanMethods, MultiWorkgroupScansAreExactAroundBlockBoundariesAndAtThreeLevels)
{
    constexpr std::uint32_t kBlock = post::ScanBlockHierarchy::kBlockElements;
    const std::uint32_t lengths[] = {kBlock - 1,
                                     kBlock,
                                     kBlock + 1,
                                     2 * kBlock - 1,
                                     2 * kBlock,
                                     2 * kBlock + 1,
                                     3 * kBlock + 1,
                                     kBlock * kBlock - 1,
                                     kBlock * kBlock,
                                     kBlock * kBlock + 1,
                                     kBlock * kBlock + kBlock + 3};
    std::mt19937 random(5);
    std::uniform_int_distribution<std::uint32_t> pick(1, 1000);  // never 0: an exclusive scan fails at [0]
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    for (std::string_view id : {"compute-blelloch", "compute-brent-kung"}) {
        auto scan = post::createScanMethod(id);
        ASSERT_TRUE(scan) << id;
        for (std::uint32_t length : lengths) {
            std::vector<std::uint32_t> values(length);
            for (auto& v : values)
                v = pick(random);
            const std::vector<std::uint32_t> expected = ref::inclusiveScan(values);
            const std::vector<std::uint32_t> got = scanOnGpu(*scan, values, length % 2 == 0);
            ASSERT_EQ(got.size(), expected.size());
            std::size_t firstWrong = 0;
            while (firstWrong < got.size() && got[firstWrong] == expected[firstWrong])
                ++firstWrong;
            EXPECT_EQ(firstWrong, got.size()) << id << " length " << length << " first wrong at " << firstWrong;
            const std::uint32_t levels = length <= kBlock ? 1u : length <= kBlock * kBlock ? 2u : 3u;
            EXPECT_EQ(scan->status().rfind(std::to_string(levels) + " level", 0), 0u)
                << id << " length " << length << ": " << scan->status();
        }
        gl::Buffer big("test.scan.too-long", 16);
        EXPECT_THROW(scan->inclusiveScan(ctx, big, big, scan->maxLength() + 1), std::invalid_argument) << id;
        EXPECT_THROW(scan->inclusiveScan(ctx, big, big, 5), std::invalid_argument) << id;
    }
}

TEST_F(ScanMethods, HensleySatTakesCeilLog2PassesAndRestoresTheGlState)
{
    EXPECT_EQ(post::ScanHensleySat::passCountFor(1), 0);
    EXPECT_EQ(post::ScanHensleySat::passCountFor(2), 1);
    EXPECT_EQ(post::ScanHensleySat::passCountFor(3), 2);
    EXPECT_EQ(post::ScanHensleySat::passCountFor(4096), 12);
    post::ScanHensleySat scan;
    ASSERT_TRUE(scan.availability(ts::testGpuCaps()).available) << scan.availability(ts::testGpuCaps()).reason;

    gl::Texture target("test.scan.hensley.target", GL_RGBA8, {8, 8});
    gl::Framebuffer framebuffer("test.scan.hensley.framebuffer");
    framebuffer.attachTexture(GL_COLOR_ATTACHMENT0, target);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer.id());
    glViewport(1, 2, 3, 4);
    gl::Buffer unrelated("test.scan.hensley.unrelated", 64);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, unrelated.id());

    std::vector<std::uint32_t> values(3001);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::uint32_t(i * 7919u % 1009u) + 1u;
    EXPECT_EQ(scanOnGpu(scan, values, true), ref::inclusiveScan(values));
    EXPECT_EQ(scan.lastPassCount(), 12);

    GLint drawFramebuffer = 0, unpackBuffer = 0, packBuffer = -1;
    GLint viewport[4] = {};
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawFramebuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpackBuffer);
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &packBuffer);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    EXPECT_EQ(GLuint(drawFramebuffer), framebuffer.id());
    EXPECT_EQ(viewport[0], 1);
    EXPECT_EQ(viewport[3], 4);
    EXPECT_EQ(GLuint(unpackBuffer), unrelated.id());
    EXPECT_EQ(packBuffer, 0);
    EXPECT_EQ(scan.status(), "12 render passes over 3001 x 1 texels (R32UI)");

    gl::Buffer big("test.scan.hensley.big", 8192 * sizeof(std::uint32_t));
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    EXPECT_THROW(scan.inclusiveScan(ctx, big, big, hd::kMaxHistogramBins + 1), std::invalid_argument);
    post::GpuCaps smallTextures = ts::testGpuCaps();
    smallTextures.maxTextureSize = 2048;
    EXPECT_FALSE(scan.availability(smallTextures).available);
}

}  // namespace
