#include "post/tonemap/ToneWard.h"

#include "gl/Debug.h"
#include "post/histogram/HistogramMethod.h"
#include "post/tonemap/ToneShaders.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace post {

namespace {
constexpr int kFovealGroupPixels = 256;  ///< WardFoveal.comp's workgroup size
// WardCurve.comp's uStage values.
constexpr std::uint32_t kStageAll = 0;
constexpr std::uint32_t kStageRange = 1;
constexpr std::uint32_t kStageCeiling = 2;
}  // namespace

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
    } else {  // no usable view: pcond assumes 40 degrees on the longer axis
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

std::uint64_t ToneWard::curveMinimumBytes(const TrafficShape& shape) const
{
    // Its own foveal pass box-filters the whole frame (W*H*8 read) into the grid (RGBA32F, about a
    // thousand samples); the curve dispatch reads the grid and writes the curve (one float per bin;
    // its own histogram stays in shared memory). When the last frame's foveal image came out of the
    // histogram pass (one read of the frame for all metering), the frame read is not this stage's.
    const std::uint64_t grid = pixelCount(fovealGridSize(shape.frame, shape.fovYDegrees)) * 16;
    const std::uint64_t frameRead = mFovealFromHistogram ? 0 : pixelCount(shape.frame) * shape.frameBytesPerPixel;
    return frameRead + grid + std::uint64_t(shape.bins) * kBinBytes;
}

namespace {
/// Blocks of a workgroup's worth of pixels or more: a workgroup per sample (here or in the histogram
/// pass); smaller ones take WardFoveal.comp's invocation-per-sample path.
bool blocksFillAWorkgroup(glm::ivec2 size, glm::ivec2 grid)
{
    return std::int64_t(size.x) * size.y >= std::int64_t(kFovealGroupPixels) * grid.x * grid.y;
}
}  // namespace

void ToneWard::ensureFovealImage(glm::ivec2 grid)
{
    if (grid != mGrid || !mFoveal) {
        mFoveal = gl::Texture("tonemap.ward.foveal", GL_RGBA32F, grid);
        mGrid = grid;
    }
}

FovealTarget* ToneWard::fovealTarget(glm::ivec2 imageSize, float fovYDegrees)
{
    if (imageSize.x <= 0 || imageSize.y <= 0)
        return nullptr;
    const glm::ivec2 grid = fovealGridSize(imageSize, fovYDegrees);
    if (!blocksFillAWorkgroup(imageSize, grid))
        return nullptr;  // small blocks: WardFoveal.comp's invocation per sample is the better shape
    ensureFovealImage(grid);
    mFovealTarget = FovealTarget{&mFoveal, grid, mSettings.sceneScale, false};
    return &mFovealTarget;
}

void ToneWard::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    using namespace ward_state;
    if (!mCurveProgram) {
        const gl::ShaderDefines defines = wardDefines();
        gl::ShaderDefines perSample = defines, perInvocation = defines;
        perSample.emplace_back("PER_SAMPLE_GROUP", "1");
        perInvocation.emplace_back("PER_SAMPLE_GROUP", "0");
        mFovealProgram = ctx.shaders.buildCompute("tonemap.ward.foveal.group", "tonemap/WardFoveal.comp", perSample);
        mFovealSmallProgram =
            ctx.shaders.buildCompute("tonemap.ward.foveal.invocation", "tonemap/WardFoveal.comp", perInvocation);
        mCurveProgram = ctx.shaders.buildCompute("tonemap.ward.curve", "tonemap/WardCurve.comp", defines);
        mParams = gl::Buffer("tonemap.ward.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
        mHistogram = gl::Buffer("tonemap.ward.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
        mState = gl::Buffer("tonemap.ward.state", kWords * sizeof(float));
        mView = gl::Buffer("tonemap.ward.view", kWardViewWords * sizeof(float));
        mState.clearUint(0u);
        mView.clearUint(0u);
        mReadback = std::make_unique<StateReadback>("tonemap.ward.state", kWords * sizeof(float));
    }
    mReadback->poll();
    const glm::ivec2 size = inputs.image.size;
    if (size.x <= 0 || size.y <= 0) {
        curve.clearUint(0u);  // no frame: an all-zero curve is black
        return;
    }
    const WardSettings& s = mSettings;
    const std::uint32_t binLimit =
        s.histogramBySelectedMethod ? inputs.histogramMethod.maxBins(ctx.caps) : kWardMaxBins;
    mBinsUsed = std::clamp(std::min(s.bins, binLimit), 2u, kWardMaxBins);
    const glm::ivec2 grid = fovealGridSize(size, inputs.fovYDegrees);
    ensureFovealImage(grid);
    // The histogram pass may have filled the foveal image already (same frame, grid and scale).
    mFovealFromHistogram = mFovealTarget.written && mFovealTarget.image == &mFoveal && mFovealTarget.grid == grid &&
                           mFovealTarget.sceneScale == s.sceneScale;
    mFovealTarget.written = false;  // consumed: a later frame must fill it again
    if (!mFovealFromHistogram) {
        auto scope = ctx.profiler.scope("tonemap/ward/curve/foveal");  // timed, and a debug group
        inputs.image.texture.bindUnit(hd::kTextureUnitInput);
        mFoveal.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
        const bool perSampleGroup = blocksFillAWorkgroup(size, grid);
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
        auto scope = ctx.profiler.scope("tonemap/ward/curve/fit");  // range, histogram, ceiling loop
        mFoveal.bindUnit(hd::kTextureUnitInput);
        mCurveProgram.set(0, mBinsUsed);
        mCurveProgram.set(1, s.displayMin);
        mCurveProgram.set(2, s.displayMax);
        mCurveProgram.set(3, s.sceneScale);
        mCurveProgram.set(4, s.humanContrast ? 1u : 0u);
        mCurveProgram.set(5, kWardCurveSamples);
        glProgramUniform2i(mCurveProgram.id(), 6, grid.x, grid.y);
        mCurveProgram.set(7, s.duplicateBottomBin ? 1u : 0u);
        const hd::LuminanceWeights& w = inputs.spec.luminance;  // the input's units (post/LuminanceUnits.h)
        glProgramUniform4f(mCurveProgram.id(), 9, w.r, w.g, w.b, inputs.spec.cdPerUnit);
        const auto dispatchCurve = [&](std::uint32_t stage) {
            // Rebound every time: the histogram method binds its own buffers to the same points.
            mFoveal.bindUnit(hd::kTextureUnitInput);
            mParams.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
            mHistogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
            mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
            curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
            mView.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
            mCurveProgram.set(8, stage);
            mCurveProgram.use();
            glDispatchCompute(1, 1, 1);
            glMemoryBarrier(GL_ALL_BARRIER_BITS);
        };
        if (!s.histogramBySelectedMethod) {
            dispatchCurve(kStageAll);
        } else {
            dispatchCurve(kStageRange);
            HistogramSpec spec = inputs.spec;  // its luminance definition
            spec.binCount = mBinsUsed;
            spec.outOfRange = OutOfRange::Separate;
            HistogramTargets targets{mHistogram, mParams, nullptr};
            inputs.histogramMethod.build(ctx, ImageInput{mFoveal, grid}, spec, targets);
            glMemoryBarrier(GL_ALL_BARRIER_BITS);
            dispatchCurve(kStageCeiling);
        }
    }
    mReadback->capture(mState, 0, ctx.frameIndex);
}

std::vector<KeyValueSample> ToneWard::takeKeyValues()
{
    using namespace ward_state;
    std::vector<KeyValueSample> out;
    if (!mReadback)
        return out;
    const float lnScale = std::log(mSettings.sceneScale);
    for (const StateReadback::Arrival& arrival : mReadback->takeArrived()) {
        // The marker's axis: ln cd/m^2 of the state back to log2 scene units.
        const float ev = float((arrival.words[kBwavg] - lnScale) / std::numbers::ln2);
        if (arrival.words[kRangeValid] != 0.0f && std::isfinite(ev))
            out.push_back({arrival.frameIndex, ev});
    }
    return out;
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
    changed |= ImGui::DragFloatRange2("Display (cd/m^2)", &s.displayMin, &s.displayMax, 0.5f, 0.01f, 10000.0f, "%.2f");
    helpMarker("Ldmin and Ldmax of the display: pcond defaults 1 and 100 (dynamic range 100:1).");
    changed |= ImGui::DragFloat("Scene scale (cd/m^2 per unit)", &s.sceneScale, 0.01f, 1e-6f, 1e6f, "%.4g",
                                ImGuiSliderFlags_Logarithmic);
    helpMarker(
        "Converts scene-linear luminance to cd/m^2; matters for the human-contrast ceiling and for where "
        "the display range sits.");
    changed |= ImGui::Checkbox("Human contrast sensitivity ceiling", &s.humanContrast);
    helpMarker(
        "pcond -s: the ceiling is scaled by [dLt(Ld)/dLt(Lw)] [Lw/Ld] with Ferwerda's threshold-versus-"
        "intensity function, so contrast is never shown above what the eye sees in the scene.");
    changed |= ImGui::Checkbox("Duplicate bottom bin", &s.duplicateBottomBin);
    helpMarker(
        "pcond extends the range down by one bin and moves half of bin 1 into it ('false samples at "
        "bottom'), so the darkest samples do not map to pure black.");
    changed |= ImGui::Checkbox("Foveal histogram by the selected method", &s.histogramBySelectedMethod);
    helpMarker(
        "Off: Ward's curve kernel bins the few thousand foveal samples itself, in one dispatch. On: the "
        "histogram method chosen above bins them (same bins, more dispatches; through CUDA interop for a "
        "CUDA method), to compare its cost on a small image.");
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
            std::snprintf(text, sizeof(text), "ward: %d trim passes, ceiling %.1f%% of T, %dx%d foveal%s%s",
                          int(w[kPasses]), 100.0 * w[kCeilingFraction], int(w[kGridWidth]), int(w[kGridHeight]),
                          mFovealFromHistogram ? " (from the histogram pass)" : "",
                          w[kConverged] != 0.0f ? "" : " (pass cap hit)");
            break;
        case 1:
            std::snprintf(text, sizeof(text), "ward: linear fallback (range fits)");
            break;
        case 2:
            std::snprintf(text, sizeof(text), "ward: linear fallback (trimming failed after %d passes)",
                          int(w[kPasses]));
            break;
        default:
            std::snprintf(text, sizeof(text), "ward: no samples above 1e-7 cd/m^2 (black)");
            break;
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

ParameterList ToneWard::parameters()
{
    WardSettings& s = mSettings;
    const WardSettings d;
    ParameterList list;
    list.items = {
        uintParameter("ward.bins", "Bins", s.bins, 2u, kWardMaxBins, d.bins),
        floatParameter("ward.display_min", "Display min (cd/m^2)", s.displayMin, 1e-4f, 1e6f, d.displayMin),
        floatParameter("ward.display_max", "Display max (cd/m^2)", s.displayMax, 1e-3f, 1e6f, d.displayMax),
        floatParameter("ward.scene_scale", "Scene scale (cd/m^2 per unit)", s.sceneScale, 1e-9f, 1e9f, d.sceneScale),
        boolParameter("ward.human_contrast", "Human contrast sensitivity ceiling", s.humanContrast, d.humanContrast),
        boolParameter("ward.duplicate_bottom_bin", "Duplicate bottom bin", s.duplicateBottomBin, d.duplicateBottomBin),
        boolParameter("ward.histogram_by_selected_method", "Foveal histogram by the selected method",
                      s.histogramBySelectedMethod, d.histogramBySelectedMethod),
    };
    list.commit = [this] { mSettings = sanitize(mSettings); };  // as ui() does after a change
    return list;
}

}  // namespace post
