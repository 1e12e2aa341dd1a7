// PeerMeteringGlTest.cpp: the engine peers of `bench pipeline --peers` (commands/bench/peers/)
// compute what their CPU references (reference/PeerMeteringRef.h) compute, on llvmpipe, at awkward
// sizes (1x1, odd, more than one workgroup tile, a frame whose Godot chain takes four steps), with
// luminance weights and cd/m^2 per unit that are not the defaults (the shaders must read the params):
//  - the target EV and the adapted EV of a first (snapped) run: within kEvTolerance (the hardware
//    log2 and dot product may move a pixel within an ulp of a bin edge, or change a UE splat weight
//    in the last bits; on these frames the largest difference seen is far below it);
//  - one adaptation step from a state far below, near and far above the target: the same tolerance;
//  - a still frame run again and again settles on its target;
//  - time() gives one finite, non-negative time per pass and run, the metering no less than a pass.
#include "commands/bench/peers/GodotPeer.h"
#include "commands/bench/peers/PeerMetering.h"
#include "post/AutoRange.h"
#include "reference/PeerMeteringRef.h"
#include "shared/HostDevice.h"
#include "support/GlTestEnvironment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

namespace {

namespace ts = testing_support;

class PeerMeteringGlTest : public ts::GlTest
{
};

constexpr float kEvTolerance = 2e-3f;

/// Colours whose log2 luminance is uniform over [-12, 14] (below and beyond every peer's range), each
/// channel scattered around it, and a few black pixels.
std::vector<float> randomFrame(glm::ivec2 size, unsigned seed)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> logL(-12.0f, 14.0f);
    std::uniform_real_distribution<float> tint(0.5f, 1.5f);
    std::vector<float> rgba(std::size_t(size.x) * std::size_t(size.y) * 4);
    for (std::size_t p = 0; p < rgba.size() / 4; ++p) {
        const float grey = p % 97 == 5 ? 0.0f : std::exp2(logL(random));
        rgba[4 * p] = grey * tint(random);
        rgba[4 * p + 1] = grey * tint(random);
        rgba[4 * p + 2] = grey * tint(random);
        rgba[4 * p + 3] = 1.0f;
    }
    return rgba;
}

struct Fixture
{
    gl::Texture texture;
    gl::Buffer params;
    std::vector<float> rgba;
    ref::PeerFrame frame;
};

Fixture makeFixture(glm::ivec2 size, unsigned seed)
{
    Fixture fixture{gl::Texture("test.peer-frame", GL_RGBA32F, size),
                    post::createHistogramParamsBuffer("test.peer-params"),
                    randomFrame(size, seed),
                    {}};
    fixture.texture.upload(GL_RGBA, GL_FLOAT, fixture.rgba.data());
    post::HistogramSpec spec;
    spec.luminance = {0.25f, 0.625f, 0.125f};
    spec.cdPerUnit = 2.0f;
    post::writeHistogramParams(fixture.params, -8.0f, 8.0f, spec, size);
    const std::vector<float> words = fixture.params.readAll<float>(hd::kHistogramParamsWords);
    fixture.frame.rgba = fixture.rgba.data();
    fixture.frame.width = size.x;
    fixture.frame.height = size.y;
    fixture.frame.weights[0] = words[hd::kParamLumaR];
    fixture.frame.weights[1] = words[hd::kParamLumaG];
    fixture.frame.weights[2] = words[hd::kParamLumaB];
    fixture.frame.cdPerUnit = words[hd::kParamCdPerUnit];
    return fixture;
}

using Reference = std::function<ref::PeerResult(const ref::PeerFrame&, const ref::PeerAdaptation&)>;

Reference referenceOf(std::string_view id)
{
    if (id == "bevy")
        return ref::bevyMetering;
    if (id == "unreal")
        return ref::unrealMetering;
    if (id == "unity-hdrp")
        return ref::hdrpMetering;
    return ref::godotMetering;
}

const std::vector<glm::ivec2> kSizes{{1, 1}, {2, 3}, {37, 23}, {203, 117}, {1030, 600}};

TEST_F(PeerMeteringGlTest, EveryPeerMatchesItsCpuReference)
{
    for (const auto& peer : app::createPeerMeterings(ts::shaderLibrary())) {
        const Reference reference = referenceOf(peer->id());
        for (glm::ivec2 size : kSizes) {
            SCOPED_TRACE(std::string(peer->id()) + " " + std::to_string(size.x) + "x" + std::to_string(size.y));
            Fixture fixture = makeFixture(size, unsigned(size.x * 31 + size.y));
            peer->prepare(size);
            peer->run(fixture.texture, fixture.params);
            const app::PeerExposure gpu = peer->exposure();
            const ref::PeerResult cpu = reference(fixture.frame, {});
            EXPECT_TRUE(std::isfinite(gpu.targetEv));
            EXPECT_NEAR(gpu.targetEv, cpu.targetEv, kEvTolerance);
            EXPECT_NEAR(gpu.ev, cpu.ev, kEvTolerance);
            EXPECT_NEAR(gpu.ev, gpu.targetEv, kEvTolerance) << "a snapped run starts at its target";

            // One adaptation step from states far below, near and far above the target (each
            // engine's own quantity: Godot's is a luminance, HDRP's an EV100, the others' an EV).
            const float target = cpu.engineState;
            const bool luminance = peer->id() == "godot";
            for (float offset : {-4.0f, -0.5f, 0.7f, 5.0f}) {
                const float start = luminance ? target * std::exp2(offset) : target + offset;
                peer->setEngineState(start);
                peer->run(fixture.texture, fixture.params);
                const app::PeerExposure step = peer->exposure();
                const ref::PeerResult expected = reference(fixture.frame, {false, start, app::kPeerFrameSeconds});
                SCOPED_TRACE("from " + std::to_string(start));
                EXPECT_NEAR(step.ev, expected.ev, kEvTolerance);
                EXPECT_NEAR(step.targetEv, cpu.targetEv, kEvTolerance);
                if (std::abs(expected.ev - expected.targetEv) > 1e-3f)  // not where a limit meets the target
                    EXPECT_GT(std::abs(step.ev - step.targetEv), 1e-4f) << "one step does not reach a far target";
            }
        }
    }
}

TEST_F(PeerMeteringGlTest, AStillFrameSettlesOnItsTarget)
{
    const glm::ivec2 size{64, 48};
    Fixture fixture = makeFixture(size, 7u);
    for (const auto& peer : app::createPeerMeterings(ts::shaderLibrary())) {
        SCOPED_TRACE(std::string(peer->id()));
        peer->prepare(size);
        peer->run(fixture.texture, fixture.params);
        const float target = peer->exposure().targetEv;
        peer->setEngineState(peer->id() == "godot" ? peer->exposure().engineState * 8.0f
                                                   : peer->exposure().engineState + 3.0f);
        for (int frame = 0; frame < 1500; ++frame)
            peer->run(fixture.texture, fixture.params);
        EXPECT_NEAR(peer->exposure().ev, target, 0.01f);
    }
}

TEST_F(PeerMeteringGlTest, TimesEveryPassOfEveryRun)
{
    const glm::ivec2 size{301, 157};
    Fixture fixture = makeFixture(size, 11u);
    for (const auto& peer : app::createPeerMeterings(ts::shaderLibrary())) {
        SCOPED_TRACE(std::string(peer->id()));
        peer->prepare(size);
        const app::PeerTimes times = peer->time(fixture.texture, fixture.params, 3, 1, false);
        ASSERT_EQ(times.passes, peer->passNames());
        ASSERT_EQ(times.passUs.size(), times.passes.size());
        ASSERT_EQ(times.meteringUs.size(), 3u);
        for (std::size_t pass = 0; pass < times.passes.size(); ++pass) {
            ASSERT_EQ(times.passUs[pass].size(), 3u);
            for (std::size_t run = 0; run < 3; ++run) {
                EXPECT_TRUE(std::isfinite(times.passUs[pass][run]) && times.passUs[pass][run] >= 0.0);
                EXPECT_GE(times.meteringUs[run], times.passUs[pass][run]);
            }
        }
    }
    EXPECT_EQ(app::GodotPeer::chainSizes({1030, 600}).size(), 4u);  // 129x75, 17x10, 3x2, 1x1
    EXPECT_EQ(app::GodotPeer::chainSizes({1, 1}).size(), 1u);
}

TEST_F(PeerMeteringGlTest, RefusesAnEmptyFrame)
{
    for (const auto& peer : app::createPeerMeterings(ts::shaderLibrary()))
        EXPECT_THROW(peer->prepare({0, 4}), std::invalid_argument);
}

}  // namespace
