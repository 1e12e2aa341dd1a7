// ClaheBackends.cpp: the table of CLAHE backends (commands/clahe/ClaheBackends.h) and the gl and cpu
// runners. The gl runner owns a headless GL 4.5 context of its own (created first, destroyed last).
#include "commands/clahe/ClaheBackends.h"

#include "gl/Program.h"
#include "platform/GlContext.h"
#include "post/clahe/ClaheGl.h"
#include "reference/Clahe.h"
#include "util/Paths.h"

#include <chrono>
#include <stdexcept>

namespace app {

namespace {

ClaheStageTimings fromGl(const post::ClaheGlTimings& t)
{
    return {t.histogramMs, t.lutMs, t.blendMs, 0.0};
}

class GlRunner final : public ClaheRunner
{
public:
    explicit GlRunner(const CommonOptions& common)
        : mContext(platform::createHeadlessContext(platform::ContextOptions{})),
          mShaders(util::findDataRoot(common.dataDir) / "shaders")
    {
    }

    std::vector<std::uint8_t> run8(const std::uint8_t* samples, const hd::ClaheGeometry& geometry) override
    {
        return mClahe.run8(mShaders, samples, geometry);
    }
    std::vector<std::uint16_t> run16(const std::uint16_t* samples, const hd::ClaheGeometry& geometry) override
    {
        return mClahe.run16(mShaders, samples, geometry);
    }
    std::vector<ClaheStageTimings> time(int runs) override
    {
        std::vector<ClaheStageTimings> result;
        for (const post::ClaheGlTimings& t : mClahe.rerun(runs))
            result.push_back(fromGl(t));
        return result;
    }
    std::string device() const override
    {
        return "GL: " + mContext->info().renderer + " [" + mClahe.variant().describe() + "]";
    }

private:
    std::unique_ptr<platform::GlContext> mContext;
    gl::ShaderLibrary mShaders;
    post::ClaheGl mClahe;
};

/// The CPU reference, stage by stage, timed with the steady clock.
class CpuRunner final : public ClaheRunner
{
public:
    std::vector<std::uint8_t> run8(const std::uint8_t* samples, const hd::ClaheGeometry& geometry) override
    {
        mGeometry = geometry;
        mImage8 = {geometry.width, geometry.height, {samples, samples + pixelCount()}};
        mImage16 = {};
        return runStages(mImage8, nullptr).samples;
    }
    std::vector<std::uint16_t> run16(const std::uint16_t* samples, const hd::ClaheGeometry& geometry) override
    {
        mGeometry = geometry;
        mImage16 = {geometry.width, geometry.height, {samples, samples + pixelCount()}};
        mImage8 = {};
        return runStages(mImage16, nullptr).samples;
    }
    std::vector<ClaheStageTimings> time(int runs) override
    {
        if (mImage8.samples.empty() && mImage16.samples.empty())
            throw std::logic_error("clahe: timed before any run");
        std::vector<ClaheStageTimings> result(static_cast<std::size_t>(runs));
        for (ClaheStageTimings& t : result) {
            if (!mImage8.samples.empty())
                runStages(mImage8, &t);
            else
                runStages(mImage16, &t);
        }
        return result;
    }
    std::string device() const override { return "CPU (reference, one thread)"; }

private:
    std::size_t pixelCount() const { return std::size_t(mGeometry.width) * std::size_t(mGeometry.height); }

    template <class Sample>
    ref::ClaheImage<Sample> runStages(const ref::ClaheImage<Sample>& image, ClaheStageTimings* timings) const
    {
        using Clock = std::chrono::steady_clock;
        const auto ms = [](Clock::time_point a, Clock::time_point b) {
            return std::chrono::duration<double, std::milli>(b - a).count();
        };
        const Clock::time_point start = Clock::now();
        const std::vector<std::uint32_t> histograms = ref::claheTileHistograms(image, mGeometry);
        const Clock::time_point histogramDone = Clock::now();
        const std::vector<std::uint16_t> luts = ref::claheLuts(histograms, mGeometry);
        const Clock::time_point lutDone = Clock::now();
        ref::ClaheImage<Sample> result = ref::claheBlend(image, luts, mGeometry);
        if (timings)
            *timings = {ms(start, histogramDone), ms(histogramDone, lutDone), ms(lutDone, Clock::now())};
        return result;
    }

    hd::ClaheGeometry mGeometry;
    ref::ClaheImage<std::uint8_t> mImage8;
    ref::ClaheImage<std::uint16_t> mImage16;
};

std::optional<std::string> alwaysAvailable()
{
    return std::nullopt;
}

std::unique_ptr<ClaheRunner> createGlRunner(const CommonOptions& common)
{
    return std::make_unique<GlRunner>(common);
}

std::unique_ptr<ClaheRunner> createCpuRunner(const CommonOptions&)
{
    return std::make_unique<CpuRunner>();
}

const ClaheBackend kBackends[] = {
    {"gl", "GL compute (three passes, each tile split over many workgroups)", alwaysAvailable, createGlRunner},
    {"cuda", "CUDA (three kernels, each tile split over many blocks)", claheCudaUnavailableReason,
     createClaheCudaRunner},
    {"cpu", "CPU reference (OpenCV's loops, one thread)", alwaysAvailable, createCpuRunner},
};

}  // namespace

std::span<const ClaheBackend> claheBackends()
{
    return kBackends;
}

const ClaheBackend* findClaheBackend(std::string_view id)
{
    for (const ClaheBackend& backend : kBackends)
        if (backend.id == id)
            return &backend;
    return nullptr;
}

std::string claheBackendIds()
{
    std::string ids;
    for (const ClaheBackend& backend : kBackends)
        ids += (ids.empty() ? "" : ", ") + std::string(backend.id);
    return ids;
}

}  // namespace app
