// Every available OpenGL scan method (compute-scan first) against ref::inclusiveScan, exactly, at
// lengths around the per-thread, warp and workgroup boundaries up to 4096.
#include "post/scan/ScanMethod.h"
#include "reference/Scan.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

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

}  // namespace
