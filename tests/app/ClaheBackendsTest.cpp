// The CLAHE backend table (commands/clahe/ClaheBackends.h): its ids in order, lookups, the cuda entry's
// reason where it cannot run, and the cpu runner (the reference stage by stage, timed) on the fixed
// corner cases; bench clahe's targets and CSV. The gl runner opens a context of its own, so it is
// tested through the binary (tests/cli/ClaheCliTest.cpp) and as post::ClaheGl (tests/post/ClaheGlTest.cpp).
#include "commands/bench/ClaheBench.h"
#include "commands/clahe/ClaheBackends.h"
#include "reference/Clahe.h"
#include "support/ClaheCases.h"

#include <gtest/gtest.h>

namespace {

namespace ts = testing_support;

TEST(ClaheBackends, TableListsGlCudaCpuWithTheirAvailability)
{
    std::vector<std::string> ids;
    for (const app::ClaheBackend& backend : app::claheBackends()) {
        ids.emplace_back(backend.id);
        EXPECT_FALSE(backend.label.empty());
        ASSERT_TRUE(backend.unavailableReason && backend.create);
    }
    EXPECT_EQ(ids, (std::vector<std::string>{"gl", "cuda", "cpu"}));
    EXPECT_EQ(app::claheBackendIds(), "gl, cuda, cpu");
    EXPECT_EQ(app::findClaheBackend("cpu"), &app::claheBackends()[2]);
    EXPECT_EQ(app::findClaheBackend("vulkan"), nullptr);
    EXPECT_FALSE(app::findClaheBackend("cpu")->unavailableReason());
    // cuda: available only in a CUDA build with a device; otherwise the reason says which.
    if (const auto reason = app::findClaheBackend("cuda")->unavailableReason()) {
        EXPECT_FALSE(reason->empty());
        EXPECT_THROW(app::findClaheBackend("cuda")->create({}), std::exception);
    }
}

TEST(ClaheBackends, CpuRunnerIsTheReferenceAndTimesItsStages)
{
    std::unique_ptr<app::ClaheRunner> runner = app::findClaheBackend("cpu")->create({});
    EXPECT_THROW(runner->time(1), std::logic_error);
    for (const ts::ClaheCase& c : ts::fixedClaheCases()) {
        if (c.width * c.height > 200000)
            continue;  // the large ones are the oracle test's
        const int bins = c.sixteenBit ? hd::kClaheBins16 : hd::kClaheBins8;
        const hd::ClaheGeometry g = hd::claheGeometry(c.width, c.height, c.tilesX, c.tilesY, c.clipLimit, bins);
        if (c.sixteenBit) {
            const auto image = ts::claheImage16(c);
            EXPECT_EQ(runner->run16(image.samples.data(), g),
                      ref::clahe(image, c.clipLimit, c.tilesX, c.tilesY).samples)
                << c.describe();
        } else {
            const auto image = ts::claheImage8(c);
            EXPECT_EQ(runner->run8(image.samples.data(), g), ref::clahe(image, c.clipLimit, c.tilesX, c.tilesY).samples)
                << c.describe();
        }
    }
    const std::vector<app::ClaheStageTimings> timings = runner->time(2);
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_GE(timings[0].totalMs(), 0.0);
    EXPECT_NE(runner->device().find("CPU"), std::string::npos);
}

TEST(ClaheBench, TargetsImageAndCsv)
{
    EXPECT_EQ(app::claheTargetUs("gl", {3840, 2160}, 8), 25.0);
    EXPECT_EQ(app::claheTargetUs("cuda", {3840, 2160}, 8), 20.0);
    EXPECT_EQ(app::claheTargetUs("gl", {1920, 1080}, 8), 10.0);
    EXPECT_EQ(app::claheTargetUs("cuda", {3840, 2160}, 16), 250.0);
    EXPECT_FALSE(app::claheTargetUs("cpu", {3840, 2160}, 8));
    EXPECT_FALSE(app::claheTargetUs("gl", {1920, 1080}, 16));
    // The synthetic image is deterministic and photo-like: most values in a narrow band.
    const std::vector<std::uint16_t> image = app::claheBenchImage({320, 180}, 8);
    EXPECT_EQ(image, app::claheBenchImage({320, 180}, 8));
    const std::size_t dim =
        std::size_t(std::count_if(image.begin(), image.end(), [](std::uint16_t v) { return v < 96; }));
    EXPECT_GT(dim, image.size() / 2);
    app::ClaheBenchRow ok;
    ok.size = {64, 36};
    ok.backend = "gl";
    ok.device = "GL: x, y";
    ok.histogramUs = 1.0;
    ok.totalUs = 3.0;
    ok.runs = 5;
    ok.exact = true;
    app::ClaheBenchRow missing;
    missing.size = {64, 36};
    missing.bits = 16;
    missing.backend = "cuda";
    missing.error = "unavailable: no CUDA, here";
    const std::string csv = app::formatClaheBenchCsv({ok, missing});
    EXPECT_EQ(csv,
              "size,bits,backend,device,histogram_us,lut_us,blend_us,total_us,min_total_us,runs,exact,target_us,error\n"
              "64x36,8,gl,GL: x; y,1.000,0.000,0.000,3.000,0.000,5,1,,\n"
              "64x36,16,cuda,,,,,,,0,0,,unavailable: no CUDA; here\n");
    const std::string table = app::formatClaheBenchTable({ok, missing});
    EXPECT_NE(table.find("| 64x36 8-bit | gl | 1.0 | 0.0 | 0.0 | 3.0 | 0.0 | - | yes |"), std::string::npos) << table;
    EXPECT_NE(table.find("| 64x36 16-bit | cuda | unavailable: no CUDA, here |"), std::string::npos) << table;
}

}  // namespace
