// ReferenceChain.cpp: see ReferenceChain.h. The GL reference chain: its buffers, programs, stages
// and their timing.
#include "commands/bench/ReferenceChain.h"

#include "gl/Debug.h"
#include "gl/Query.h"
#include "shared/HostDevice.h"
#include "util/Log.h"
#include "util/Stats.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>

namespace app {

namespace {

/// The least GL_MAX_COMPUTE_WORK_GROUP_COUNT[0] every GL 4.3+ implementation offers.
constexpr std::uint64_t kMaxGroups = 65535;

std::uint64_t elementsOf(std::uint64_t pixels, bool halfFrame)
{
    return halfFrame ? (pixels + 1) / 2 : pixels;
}

std::uint32_t groupsFor(std::uint64_t pixels, bool halfFrame, std::uint32_t items, std::uint64_t limit)
{
    const std::uint64_t perGroup = std::uint64_t(kReferenceGroupSize) * items;
    const std::uint64_t onePass = (elementsOf(pixels, halfFrame) + perGroup - 1) / perGroup;
    return std::uint32_t(std::clamp<std::uint64_t>(onePass, 1, std::min(limit, kMaxGroups)));
}

}  // namespace

std::size_t referenceFrameBytes(glm::ivec2 size, bool halfFrame)
{
    const std::uint64_t pixels = std::uint64_t(std::max(size.x, 0)) * std::uint64_t(std::max(size.y, 0));
    return std::size_t(std::max<std::uint64_t>(elementsOf(pixels, halfFrame), 1) * 16);
}

std::uint32_t referenceHistogramGroups(std::uint64_t pixels, bool halfFrame)
{
    return groupsFor(pixels, halfFrame, kReferenceHistogramItems, kReferenceHistogramMaxGroups);
}

std::uint32_t referenceApplyGroups(std::uint64_t pixels, bool halfFrame)
{
    return groupsFor(pixels, halfFrame, kReferenceApplyItems, kMaxGroups);
}

double ReferenceTimes::medianUs(const std::string& stage) const
{
    const std::vector<double>* values = stage == "copy"        ? &copyUs
                                        : stage == "histogram" ? &histogramUs
                                        : stage == "curve"     ? &curveUs
                                        : stage == "apply"     ? &applyUs
                                        : stage == "chain"     ? &chainUs
                                                               : nullptr;
    return values && !values->empty() ? util::median(*values) : 0.0;
}

GlReferenceChain::GlReferenceChain(const gl::ShaderLibrary& shaders) : mShaders(shaders)
{
}

const gl::Program& GlReferenceChain::program(const std::string& path, const gl::ShaderDefines& defines)
{
    std::string key = path;
    for (const auto& [name, value] : defines)
        key += " " + name + "=" + value;
    auto found = mPrograms.find(key);
    if (found == mPrograms.end())
        found = mPrograms.emplace(key, mShaders.buildCompute("reference." + key, path, defines)).first;
    return found->second;
}

void GlReferenceChain::prepare(glm::ivec2 size, unsigned internalFormat, std::uint32_t bins)
{
    if (internalFormat != GL_RGBA16F && internalFormat != GL_RGBA32F)
        throw std::invalid_argument("the reference chain reads RGBA16F or RGBA32F frames only");
    if (bins < 1 || bins > hd::kMaxHistogramBins)
        throw std::invalid_argument(
            util::format("the reference chain takes 1..{} bins, not {}", hd::kMaxHistogramBins, bins));
    if (size.x < 1 || size.y < 1)
        throw std::invalid_argument(util::format("the reference chain needs a frame, not {}x{}", size.x, size.y));
    const bool half = internalFormat == GL_RGBA16F;
    const std::string halfFrame = half ? "1" : "0";
    const std::string groupSize = std::to_string(kReferenceGroupSize);
    mCopy = &program("bench/ReferenceCopy.comp", {{"HALF_FRAME", halfFrame}});
    mHistogramProgram = &program("bench/ReferenceHistogram.comp", {{"BINS", std::to_string(bins)},
                                                                   {"HALF_FRAME", halfFrame},
                                                                   {"ITEMS", std::to_string(kReferenceHistogramItems)},
                                                                   {"GROUP_SIZE", groupSize}});
    mCurveProgram = &program("bench/ReferenceCurve.comp", {{"GROUP_SIZE", groupSize}});
    mApply = &program(
        "bench/ReferenceApply.comp",
        {{"HALF_FRAME", halfFrame}, {"ITEMS", std::to_string(kReferenceApplyItems)}, {"GROUP_SIZE", groupSize}});
    mBins = bins;
    if (size != mSize || half != mHalfFrame || mFrame.size() == 0) {
        mSize = size;
        mHalfFrame = half;
        const std::size_t frameBytes = referenceFrameBytes(size, half);
        mFrame = gl::Buffer("reference.linear-frame", frameBytes);
        mFrame.clearUint(0u);  // the padding pixel of an odd half frame reads as black
        // The display: one word per pixel, whole elements (a half frame's padding pixel included).
        mDisplay = gl::Buffer("reference.display", frameBytes / (half ? 2 : 4));
    }
    if (mHistogram.size() == 0) {
        mHistogram = gl::Buffer("reference.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
        mCurve = gl::Buffer("reference.curve", hd::kCurveBufferWords * sizeof(float));
        mCurve.clearUint(0u);
    }
}

void GlReferenceChain::copyFrame(const gl::Texture& frame)
{
    if (frame.size() != mSize)
        throw std::invalid_argument("the reference chain was prepared for another frame size");
    gl::DebugGroup group("reference/copy");
    mCopy->use();
    glProgramUniform2i(mCopy->id(), 0, mSize.x, mSize.y);
    frame.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    mFrame.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    glDispatchCompute(GLuint((mSize.x + 15) / 16), GLuint((mSize.y + 15) / 16), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlReferenceChain::histogram(const gl::Buffer& params)
{
    gl::DebugGroup group("reference/histogram");
    const std::uint64_t pixels = std::uint64_t(mSize.x) * std::uint64_t(mSize.y);
    mHistogram.clearUint(0u);
    mHistogramProgram->use();
    mHistogramProgram->set(0, unsigned(pixels));
    mFrame.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    mHistogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    glDispatchCompute(referenceHistogramGroups(pixels, mHalfFrame), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlReferenceChain::curve(const gl::Buffer& params)
{
    gl::DebugGroup group("reference/curve");
    mCurveProgram->use();
    mHistogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    mCurve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GlReferenceChain::apply(const gl::Buffer& params)
{
    gl::DebugGroup group("reference/apply");
    const std::uint64_t pixels = std::uint64_t(mSize.x) * std::uint64_t(mSize.y);
    mApply->use();
    mApply->set(0, unsigned(pixels));
    mFrame.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    mDisplay.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
    mCurve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    glDispatchCompute(referenceApplyGroups(pixels, mHalfFrame), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

ReferenceTimes GlReferenceChain::time(const gl::Texture& frame,
                                      const gl::Buffer& params,
                                      int runs,
                                      int warmup,
                                      bool gpuTimers)
{
    ReferenceTimes times;
    times.api = "gl";
    runs = std::max(runs, 1);
    gl::DebugGroup group("reference/timed-runs");
    // One run: the copy, then the chain; a mark before and after each stage.
    const auto run = [&](const std::function<void(int)>& mark) {
        mark(0);
        copyFrame(frame);
        mark(1);
        histogram(params);
        mark(2);
        curve(params);
        mark(3);
        apply(params);
        mark(4);
    };
    const auto record = [&](const double(&at)[5]) {
        times.copyUs.push_back(at[1] - at[0]);
        times.histogramUs.push_back(at[2] - at[1]);
        times.curveUs.push_back(at[3] - at[2]);
        times.applyUs.push_back(at[4] - at[3]);
        times.chainUs.push_back(at[4] - at[1]);
    };
    for (int i = 0; i < warmup; ++i)
        run([](int) {});
    if (gpuTimers) {
        // The warm-up runs are flushed, not waited for, so the GPU is still busy while the timed
        // runs are queued: they execute back to back and no timestamp pair spans a wait for the CPU.
        times.source = "gl-timer-query";
        glFlush();
        std::vector<gl::Query> stamps;
        for (int i = 0; i < runs * 5; ++i)
            stamps.emplace_back("reference/stamp", GL_TIMESTAMP);
        for (int r = 0; r < runs; ++r)
            run([&](int mark) { stamps[std::size_t(r * 5 + mark)].timestamp(); });
        for (int r = 0; r < runs; ++r) {
            double at[5];
            const std::uint64_t first = stamps[std::size_t(r * 5)].waitResult();
            for (int mark = 0; mark < 5; ++mark)
                at[mark] = double(stamps[std::size_t(r * 5 + mark)].waitResult() - first) * 1e-3;
            record(at);
        }
        return times;
    }
    times.source = "cpu-fallback";
    glFinish();
    for (int r = 0; r < runs; ++r) {
        double at[5];
        const auto start = std::chrono::steady_clock::now();
        run([&](int mark) {
            glFinish();
            at[mark] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        });
        record(at);
    }
    return times;
}

}  // namespace app
