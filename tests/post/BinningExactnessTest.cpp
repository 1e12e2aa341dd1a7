// Bit-exact binning on the GPU (issue: GPU log2 used to move pixels near bin edges):
//  - the GLSL copy of shared/HostDevice.h's hdLuminanceWeighted, hdLog2, hdBinScale and hdBinOf
//    against the C++ one, bit for bit, on random colours over 250 EV, special values, tiny channels
//    and random ranges and bin counts (test/Binning.comp), and hdBinOfFast with this GPU's log2
//    against the C++ hdBinOf, with the default weights and with a
//    Radiance picture's run-time weights (post::LuminanceUnits);
//  - every OpenGL histogram method on images made of the values exactly on, one ulp below and one
//    ulp above every bin edge, for bin counts 1..4096 and odd ranges, against the CPU reference.
#include "methods/MethodTestSupport.h"
#include "support/BinEdges.h"
#include "support/GlTestEnvironment.h"
#include "support/HistogramTestSupport.h"

#include "gl/Buffer.h"
#include "gl/Program.h"
#include "post/LuminanceUnits.h"
#include "shared/HostDevice.h"

#include <bit>
#include <cmath>
#include <iostream>
#include <limits>
#include <random>

namespace ts = testing_support;

namespace {

struct Case
{
    float r, g, b, logMin, logMax;
    std::uint32_t bins, policy;
};

std::vector<Case> shaderCases()
{
    std::mt19937 random(2024);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<Case> cases;
    const auto channel = [&] {
        const float magnitude = std::ldexp(unit(random) + 0.5f, int(random() % 250) - 125);
        return random() % 16 == 0 ? -magnitude : magnitude;
    };
    const auto range = [&](Case& c) {
        c.logMin = (unit(random) - 0.5f) * 60.0f;
        c.logMax = c.logMin + std::ldexp(unit(random) + 0.01f, int(random() % 10) - 3);
        c.bins = 1u + random() % hd::kMaxHistogramBins;
        c.policy = random() % 2;
    };
    for (int i = 0; i < 20000; ++i) {
        Case c{channel(), channel(), channel(), 0, 0, 0, 0};
        if (i % 3 == 0)
            c.g = c.b = c.r;  // grey
        range(c);
        cases.push_back(c);
    }
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (float special : {0.0f, -0.0f, inf, -inf, nan, 1e-39f, 7.8886091e-31f, 7.8886085e-31f, 1e-30f, 3e38f,
                          std::numeric_limits<float>::max()}) {
        Case c{special, special, special, -8.0f, 8.0f, 256u, 1u};
        cases.push_back(c);
        c.g = 1.0f;
        cases.push_back(c);
    }
    for (auto [logMin, logMax] :
         {std::pair{1.0f, 1.0f}, {2.0f, 1.0f}, {-4.0f, 4.0f}, {-1e30f, 1e30f}, {0.0f, 1e-19f}}) {
        Case c{1.0f, 1.0f, 1.0f, logMin, logMax, 8u, 1u};
        cases.push_back(c);
    }
    return cases;
}

class BinningExactness : public ts::GlTest
{
};

TEST_F(BinningExactness, GlslFunctionsMatchTheCppOnesBitForBit)
{
    const std::vector<Case> cases = shaderCases();
    std::vector<std::uint32_t> words;
    for (const Case& c : cases)
        for (std::uint32_t word :
             {std::bit_cast<std::uint32_t>(c.r), std::bit_cast<std::uint32_t>(c.g), std::bit_cast<std::uint32_t>(c.b),
              std::bit_cast<std::uint32_t>(c.logMin), std::bit_cast<std::uint32_t>(c.logMax), c.bins, c.policy, 0u})
            words.push_back(word);
    gl::Buffer input("test.binning.cases", words.size() * sizeof(std::uint32_t));
    input.update<std::uint32_t>(words);
    gl::Buffer output("test.binning.results", cases.size() * 5 * sizeof(std::uint32_t));
    gl::Program program = ts::shaderLibrary().buildCompute("test.binning", "test/Binning.comp");
    image::RadianceHeader radiance;  // a Radiance picture with EXPOSURE=2 and Rec. 709 primaries, D65 white
    radiance.exposure = 2.0;
    radiance.primaries = std::array<float, 8>{0.64f, 0.33f, 0.3f, 0.6f, 0.15f, 0.06f, 0.3127f, 0.329f};
    int failures = 0;
    for (const hd::LuminanceWeights weights :
         {hd::LuminanceWeights{},
          post::resolveLuminanceUnits(post::UnitsMode::Auto, 0.0, radiance).effectiveWeights()}) {
        SCOPED_TRACE(testing::Message() << "weights " << weights.r << " " << weights.g << " " << weights.b);
        input.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
        output.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
        program.use();
        glProgramUniform1ui(program.id(), 0, GLuint(cases.size()));
        glProgramUniform3f(program.id(), 1, weights.r, weights.g, weights.b);
        glDispatchCompute(GLuint((cases.size() + 63) / 64), 1, 1);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        const auto results = output.readAll<std::uint32_t>(cases.size() * 5);

        for (std::size_t i = 0; i < cases.size() && failures < 5; ++i) {
            const Case& c = cases[i];
            const float L = hd::hdLuminance(c.r, c.g, c.b, weights);
            const std::uint32_t log2Bits =
                (L >= hd::kMinLuminance && !std::isinf(L)) ? std::bit_cast<std::uint32_t>(hd::hdLog2(L)) : 0u;
            const std::uint32_t code = std::uint32_t(hd::hdBinOf(L, c.logMin, c.logMax, c.bins, c.policy));
            const std::uint32_t expected[5] = {std::bit_cast<std::uint32_t>(L), log2Bits,
                                               std::bit_cast<std::uint32_t>(hd::hdBinScale(c.logMin, c.logMax, c.bins)),
                                               code, code};
            const char* names[5] = {"hdLuminance", "hdLog2", "hdBinScale", "hdBinOf", "hdBinOfFast"};
            for (int k = 0; k < 5; ++k) {
                // NaN luminances may differ in payload; the code (hdBinOf) still has to agree.
                if (k == 0 && std::isnan(L) && std::isnan(std::bit_cast<float>(results[5 * i])))
                    continue;
                if (results[5 * i + k] != expected[k]) {
                    ADD_FAILURE() << names[k] << " case " << i << ": rgb " << c.r << " " << c.g << " " << c.b
                                  << " range [" << c.logMin << ", " << c.logMax << "] bins " << c.bins << ": gpu 0x"
                                  << std::hex << results[5 * i + k] << " cpu 0x" << expected[k] << std::dec;
                    ++failures;
                }
            }
        }
    }
}

struct EdgeCase
{
    float logMin, logMax;
    std::uint32_t bins;
};

/// Grey pixels exactly on, one ulp below and one ulp above every edge of the range.
ts::TestImage edgeImage(const EdgeCase& c)
{
    const std::vector<float> values = ts::aroundEdges(ts::greyBinEdges(c.logMin, c.logMax, c.bins));
    ts::TestImage image;
    image.width = std::min<int>(int(values.size()), 251);  // odd width: rows do not align with edges
    image.height = int((values.size() + std::size_t(image.width) - 1) / std::size_t(image.width));
    image.rgba.assign(image.pixelCount() * 4, 0.0f);  // the padding is 0: non-positive
    for (std::size_t i = 0; i < values.size(); ++i)
        image.setGrey(i, values[i]);
    return image;
}

TEST_F(BinningExactness, EveryGlMethodBinsValuesAroundEveryEdgeLikeTheReference)
{
    const std::vector<EdgeCase> cases = {{-10.0f, 20.0f, 1},     {-10.0f, 20.0f, 2},    {-3.3f, 7.77f, 3},
                                         {0.1f, 0.35f, 7},       {-3.3f, 7.77f, 100},   {-10.0f, 20.0f, 256},
                                         {-12.5f, 13.25f, 1000}, {-10.0f, 20.0f, 4096}, {-0.01f, 0.0f, 4096}};
    for (const std::string& id : ts::availableGlHistogramMethodIds()) {
        auto method = methods_test::createForTest(id);
        for (const EdgeCase& c : cases) {
            const ts::TestImage image = edgeImage(c);
            for (post::OutOfRange policy : {post::OutOfRange::Clamp, post::OutOfRange::Separate}) {
                const std::string what = id + ", " + std::to_string(c.bins) + " bins over [" +
                                         std::to_string(c.logMin) + ", " + std::to_string(c.logMax) + "]" +
                                         (policy == post::OutOfRange::Separate ? " separate" : " clamp");
                if (c.bins > method->maxBins(ts::testGpuCaps()) ||
                    !methods_test::withinTestBudget(id, image.width, image.height, c.bins)) {
                    std::cout << "[ skipped  ] " << what << " (over the method's bins or the per-bin-pass budget)\n";
                    continue;
                }
                const post::HistogramSpec spec{c.bins, policy};
                const ts::GpuHistogram gpu = ts::runHistogramMethod(*method, image, c.logMin, c.logMax, spec);
                const ref::Histogram cpu = ref::buildHistogram(image.rgba.data(), image.width, image.height, c.logMin,
                                                               c.logMax, c.bins, ts::toReference(policy));
                ts::expectHistogramsEqual(gpu, cpu, method->fillsCounters(), what);
                if (HasFailure())
                    return;  // one readable failure
            }
        }
    }
}

}  // namespace
