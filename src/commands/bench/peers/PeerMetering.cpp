// PeerMetering.cpp: see PeerMetering.h. The state buffer, the program cache, a run and its timing.
#include "commands/bench/peers/PeerMetering.h"

#include "commands/bench/peers/BevyPeer.h"
#include "commands/bench/peers/GodotPeer.h"
#include "commands/bench/peers/HdrpPeer.h"
#include "commands/bench/peers/UnrealPeer.h"
#include "gl/Debug.h"
#include "gl/Query.h"
#include "shared/HostDevice.h"
#include "shared/Peers.h"
#include "util/Log.h"
#include "util/Stats.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace app {

double PeerTimes::medianUs(std::size_t pass) const
{
    return pass < passUs.size() && !passUs[pass].empty() ? util::median(passUs[pass]) : 0.0;
}

double PeerTimes::meteringMedianUs() const
{
    return meteringUs.empty() ? 0.0 : util::median(meteringUs);
}

PeerMetering::PeerMetering(const gl::ShaderLibrary& shaders) : mShaders(shaders)
{
}

const gl::Program& PeerMetering::program(const std::string& path, const gl::ShaderDefines& defines)
{
    std::string key = path;
    for (const auto& [name, value] : defines)
        key += " " + name + "=" + value;
    auto found = mPrograms.find(key);
    if (found == mPrograms.end())
        found = mPrograms.emplace(key, mShaders.buildCompute("peer." + key, path, defines)).first;
    return found->second;
}

void PeerMetering::prepare(glm::ivec2 size)
{
    if (size.x < 1 || size.y < 1)
        throw std::invalid_argument(util::format("the {} peer needs a frame, not {}x{}", id(), size.x, size.y));
    if (mState.size() == 0) {
        mState = gl::Buffer(util::format("peer.{}.state", id()), hd::kPeerStateWords * sizeof(float));
        mState.clearUint(0u);
    }
    if (size != mSize) {
        prepareFor(size);
        mSize = size;
    }
    mSnap = true;
}

void PeerMetering::snapToTarget()
{
    mSnap = true;
}

void PeerMetering::setEngineState(float state)
{
    mState.update(hd::kPeerStateEngine * sizeof(float), sizeof(float), &state);
    mSnap = false;
}

void PeerMetering::run(const gl::Texture& frame, const gl::Buffer& params, const std::function<void(int)>& mark)
{
    if (frame.size() != mSize)
        throw std::invalid_argument(util::format("the {} peer was prepared for another frame size", id()));
    gl::DebugGroup group(util::format("peer/{}", id()));
    mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    static const std::function<void(int)> none = [](int) {};
    dispatch(frame, mSnap, mark ? mark : none);
    mSnap = false;
}

PeerExposure PeerMetering::exposure() const
{
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const std::vector<float> words = mState.readAll<float>(hd::kPeerStateWords);
    return {words[hd::kPeerStateEngine], words[hd::kPeerStateEv], words[hd::kPeerStateTargetEv]};
}

PeerTimes PeerMetering::time(const gl::Texture& frame, const gl::Buffer& params, int runs, int warmup, bool gpuTimers)
{
    PeerTimes times;
    times.passes = passNames();
    const std::size_t passes = times.passes.size();
    const std::size_t marks = passes + 1;
    times.passUs.assign(passes, {});
    runs = std::max(runs, 1);
    gl::DebugGroup group(util::format("peer/{}/timed-runs", id()));
    const auto record = [&](const std::vector<double>& at) {
        for (std::size_t pass = 0; pass < passes; ++pass)
            times.passUs[pass].push_back(at[pass + 1] - at[pass]);
        times.meteringUs.push_back(at[passes] - at[0]);
    };
    for (int i = 0; i < warmup; ++i)
        run(frame, params);
    if (gpuTimers) {
        times.source = "gl-timer-query";
        glFlush();
        std::vector<gl::Query> stamps;
        for (std::size_t i = 0; i < std::size_t(runs) * marks; ++i)
            stamps.emplace_back("peer/stamp", GL_TIMESTAMP);
        for (int r = 0; r < runs; ++r) {
            const std::size_t base = std::size_t(r) * marks;
            stamps[base].timestamp();
            run(frame, params, [&](int pass) { stamps[base + std::size_t(pass) + 1].timestamp(); });
        }
        for (int r = 0; r < runs; ++r) {
            const std::size_t base = std::size_t(r) * marks;
            const std::uint64_t first = stamps[base].waitResult();
            std::vector<double> at(marks);
            for (std::size_t mark = 0; mark < marks; ++mark)
                at[mark] = double(stamps[base + mark].waitResult() - first) * 1e-3;
            record(at);
        }
        return times;
    }
    times.source = "cpu-fallback";
    glFinish();
    for (int r = 0; r < runs; ++r) {
        std::vector<double> at(marks, 0.0);
        const auto start = std::chrono::steady_clock::now();
        run(frame, params, [&](int pass) {
            glFinish();
            at[std::size_t(pass) + 1] =
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        });
        record(at);
    }
    return times;
}

std::vector<std::unique_ptr<PeerMetering>> createPeerMeterings(const gl::ShaderLibrary& shaders)
{
    std::vector<std::unique_ptr<PeerMetering>> peers;
    peers.push_back(std::make_unique<BevyPeer>(shaders));
    peers.push_back(std::make_unique<UnrealPeer>(shaders));
    peers.push_back(std::make_unique<HdrpPeer>(shaders));
    peers.push_back(std::make_unique<GodotPeer>(shaders));
    return peers;
}

}  // namespace app
