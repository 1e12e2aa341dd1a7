#include "post/tonemap/ToneWard.h"

#include "gl/Debug.h"
#include "profiling/Profiler.h"
#include "post/histogram/HistogramMethod.h"
#include "post/tonemap/ToneShaders.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace post {

namespace {
constexpr int kFovealGroupPixels = 256; ///< WardFoveal.comp's workgroup size
} // namespace

ToneWard::ToneWard() = default;
ToneWard::~ToneWard() = default;

std::string_view ToneWard::description() const
{
    return "Ward Larson, Rushmeier & Piatko 1997 histogram adjustment as Radiance pcond does it: 1-degree foveal "
           "samples, 100-bin ln histogram, linear (or human contrast) ceiling iterated to 2.5 %, linear fallback.";
}

glm::ivec2 ToneWard::fovealGridSize(glm::ivec2 imageSize, float fovYDegrees)
{
    const int width = std::max(imageSize.x, 1);
    const int height = std::max(imageSize.y, 1);
    const double aspect = double(width) / double(height);
    const double degree = std::numbers::pi / 180.0;
    double tanHalfX = 0.0;
    double tanHalfY = 0.0;
    if (std::isfinite(fovYDegrees) && fovYDegrees > 5.0f && fovYDegrees < 179.0f) {
        tanHalfY = std::tan(double(fovYDegrees) * degree * 0.5);
        tanHalfX = tanHalfY * aspect;
    } else { // no usable view: pcond assumes 40 degrees on the longer axis
        const double tan20 = std::tan(20.0 * degree);
        tanHalfX = width >= height ? tan20 : tan20 * aspect;
        tanHalfY = width >= height ? tan20 / aspect : tan20;
    }
    const auto count = [&](double tanHalf, int pixels) {
        const int n = int(std::min(2.0 * tanHalf / degree + 0.5, 1e6));
        return std::min(std::max(n, 2), pixels);
    };
    return {count(tanHalfX, width), count(tanHalfY, height)};
}

void ToneWard::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    using namespace ward_state;
    if (!mCeilingProgram) {
        const gl::ShaderDefines defines = wardDefines();
        gl::ShaderDefines perSample = defines, perInvocation = defines;
        perSample.emplace_back("PER_SAMPLE_GROUP", "1");
        perInvocation.emplace_back("PER_SAMPLE_GROUP", "0");
        mFovealProgram = ctx.shaders.buildCompute("tonemap.ward.foveal.group", "tonemap/WardFoveal.comp", perSample);
        mFovealSmallProgram =
            ctx.shaders.buildCompute("tonemap.ward.foveal.invocation", "tonemap/WardFoveal.comp", perInvocation);
        mRangeProgram = ctx.shaders.buildCompute("tonemap.ward.range", "tonemap/WardRange.comp", defines);
        mCeilingProgram = ctx.shaders.buildCompute("tonemap.ward.ceiling", "tonemap/WardCeiling.comp", defines);
        mParams = gl::Buffer("tonemap.ward.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
        mHistogram = gl::Buffer("tonemap.ward.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
        mCumulative = gl::Buffer("tonemap.ward.cumulative", hd::kMaxHistogramBins * sizeof(std::uint32_t));
        mState = gl::Buffer("tonemap.ward.state", kWords * sizeof(float));
        mView = gl::Buffer("tonemap.ward.view", kWardViewWords * sizeof(float));
        mState.clearUint(0u);
        mView.clearUint(0u);
        mReadback = std::make_unique<StateReadback>("tonemap.ward.state", kWords * sizeof(float));
    }
    mReadback->poll();
    const glm::ivec2 size = inputs.image.size;
    if (size.x <= 0 || size.y <= 0) {
        curve.clearUint(0u); // no frame: an all-zero curve is black
        return;
    }
    const WardSettings& s = mSettings;
    mBinsUsed = std::clamp(std::min(s.bins, inputs.histogramMethod.maxBins(ctx.caps)), 2u, kWardMaxBins);
    const glm::ivec2 grid = fovealGridSize(size, inputs.fovYDegrees);
    if (grid != mGrid || !mFoveal) {
        mFoveal = gl::Texture("tonemap.ward.foveal", GL_RGBA32F, grid);
        mGrid = grid;
    }
    {
        auto scope = ctx.profiler.scope("tonemap/ward/curve/foveal"); // timed, and a debug group
        inputs.image.texture.bindUnit(hd::kTextureUnitInput);
        mFoveal.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
        // A workgroup per sample once blocks hold a workgroup's worth of pixels; else an invocation each.
        const bool perSampleGroup = std::int64_t(size.x) * size.y >= std::int64_t(kFovealGroupPixels) * grid.x * grid.y;
        gl::Program& program = perSampleGroup ? mFovealProgram : mFovealSmallProgram;
        glProgramUniform2i(program.id(), 0, size.x, size.y);
        glProgramUniform2i(program.id(), 1, grid.x, grid.y);
        program.set(2, s.sceneScale);
        program.use();
        if (perSampleGroup)
            glDispatchCompute(unsigned(grid.x), unsigned(grid.y), 1);
        else
            glDispatchCompute((unsigned(grid.x) + 7u) / 8u, (unsigned(grid.y) + 7u) / 8u, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    }
    {
        auto scope = ctx.profiler.scope("tonemap/ward/curve/range"); // timed, and a debug group
        mFoveal.bindUnit(hd::kTextureUnitInput);
        mParams.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        glProgramUniform2i(mRangeProgram.id(), 0, grid.x, grid.y);
        mRangeProgram.set(1, mBinsUsed);
        mRangeProgram.set(2, s.duplicateBottomBin ? 1u : 0u);
        mRangeProgram.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    }
    {
        auto scope = ctx.profiler.scope("tonemap/ward/curve/histogram"); // timed, and a debug group
        HistogramSpec spec;
        spec.binCount = mBinsUsed;
        spec.outOfRange = OutOfRange::Separate;
        HistogramTargets targets{mHistogram, mParams, &mCumulative};
        inputs.histogramMethod.build(ctx, ImageInput{mFoveal, grid}, spec, targets);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    }
    {
        auto scope = ctx.profiler.scope("tonemap/ward/curve/ceiling"); // timed, and a debug group
        mHistogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        mView.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        mCeilingProgram.set(0, mBinsUsed);
        mCeilingProgram.set(1, s.displayMin);
        mCeilingProgram.set(2, s.displayMax);
        mCeilingProgram.set(3, s.sceneScale);
        mCeilingProgram.set(4, s.humanContrast ? 1u : 0u);
        mCeilingProgram.set(5, kWardCurveSamples);
        mCeilingProgram.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    mReadback->capture(mState);
}

bool ToneWard::ui()
{
    WardSettings& s = mSettings;
    bool changed = false;
    int bins = int(s.bins);
    if (ImGui::SliderInt("Bins", &bins, 10, int(kWardMaxBins))) {
        s.bins = std::uint32_t(bins);
        changed = true;
    }
    helpMarker("Histogram resolution over the foveal samples' natural-log range (pcond HISTRES = 100).");
    changed |= ImGui::DragFloatRange2("Display (cd/m^2)", &s.displayMin, &s.displayMax, 0.5f, 0.01f, 10000.0f,
                                      "%.2f");
    helpMarker("Ldmin and Ldmax of the display: pcond defaults 1 and 100 (dynamic range 100:1).");
    changed |= ImGui::DragFloat("Scene scale (cd/m^2 per unit)", &s.sceneScale, 0.01f, 1e-6f, 1e6f, "%.4g",
                                ImGuiSliderFlags_Logarithmic);
    helpMarker("Converts scene-linear luminance to cd/m^2; matters for the human-contrast ceiling and for where "
               "the display range sits.");
    changed |= ImGui::Checkbox("Human contrast sensitivity ceiling", &s.humanContrast);
    helpMarker("pcond -s: the ceiling is scaled by [dLt(Ld)/dLt(Lw)] [Lw/Ld] with Ferwerda's threshold-versus-"
               "intensity function, so contrast is never shown above what the eye sees in the scene.");
    changed |= ImGui::Checkbox("Duplicate bottom bin", &s.duplicateBottomBin);
    helpMarker("pcond extends the range down by one bin and moves half of bin 1 into it ('false samples at "
               "bottom'), so the darkest samples do not map to pure black.");
    if (changed)
        s = sanitize(s);
    return changed;
}

std::string ToneWard::status() const
{
    using namespace ward_state;
    if (!mReadback || !mReadback->hasData())
        return "ward: waiting for the first frame";
    const std::vector<float>& w = mReadback->latest();
    char text[160];
    switch (int(w[kOutcome])) {
    case 0:
        std::snprintf(text, sizeof(text), "ward: %d trim passes, ceiling %.1f%% of T, %dx%d foveal%s", int(w[kPasses]),
                      100.0 * w[kCeilingFraction], int(w[kGridWidth]), int(w[kGridHeight]),
                      w[kConverged] != 0.0f ? "" : " (pass cap hit)");
        break;
    case 1: std::snprintf(text, sizeof(text), "ward: linear fallback (range fits)"); break;
    case 2:
        std::snprintf(text, sizeof(text), "ward: linear fallback (trimming failed after %d passes)", int(w[kPasses]));
        break;
    default: std::snprintf(text, sizeof(text), "ward: no samples above 1e-7 cd/m^2 (black)"); break;
    }
    return text;
}

std::vector<std::pair<std::string, float>> ToneWard::markers() const
{
    using namespace ward_state;
    if (!mReadback || !mReadback->hasData() || mReadback->latest()[kRangeValid] == 0.0f)
        return {};
    const std::vector<float>& w = mReadback->latest();
    const float lnScale = std::log(mSettings.sceneScale);
    const auto toLog2 = [&](float lnCd) { return float((lnCd - lnScale) / std::numbers::ln2); };
    return {{"ward min", toLog2(w[kBwmin])}, {"ward log-average", toLog2(w[kBwavg])}, {"ward max", toLog2(w[kBwmax])}};
}

} // namespace post
