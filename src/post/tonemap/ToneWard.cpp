#include "post/tonemap/ToneWard.h"

#include "gl/Debug.h"
#include "post/histogram/HistogramMethod.h"
#include "post/tonemap/ToneShaders.h"
#include "profiling/Profiler.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <span>
#include <sstream>

namespace post {

namespace {
constexpr int kFovealGroupPixels = 256;  ///< WardFoveal.comp's workgroup size
constexpr int kFovealRowPixels = 32;     ///< the smallest block a histogram pass fills (a row of 32 invocations)
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

Traffic ToneWard::curveMinimumTraffic(const TrafficShape& shape) const
{
    // Its own foveal pass box-filters the whole frame (W*H*frameBytesPerPixel read) into the grid
    // (RGBA32F, about a thousand samples: written, then read by the curve dispatch), which writes the
    // curve (one float per bin; its own histogram stays in shared memory). When the last frame's
    // foveal image came out of the histogram pass (one read of the frame for all metering), the frame
    // read and the grid's write are not this stage's.
    const std::uint64_t grid = pixelCount(fovealGridSize(shape.frame, shape.fovYDegrees)) * 16;
    const std::uint64_t frameRead = mFovealFromHistogram ? 0 : pixelCount(shape.frame) * shape.frameBytesPerPixel;
    const std::uint64_t gridWrite = mFovealFromHistogram ? 0 : grid;
    return {frameRead + grid, gridWrite + std::uint64_t(shape.bins) * kBinBytes};
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
    if (imageSize.x <= 0 || imageSize.y <= 0 || mPcondActive || mSettings.sampling == WardSampling::Pcond || mFed)
        return nullptr;  // pcond's foveal image is pfilt's, which no histogram pass makes
    const glm::ivec2 grid = fovealGridSize(imageSize, fovYDegrees);
    if (std::int64_t(imageSize.x) * imageSize.y < std::int64_t(kFovealRowPixels) * grid.x * grid.y)
        return nullptr;  // blocks under 32 pixels: a histogram pass's row of 32 invocations per block would idle
    ensureFovealImage(grid);
    mFovealTarget = FovealTarget{&mFoveal, grid, mSettings.sceneScale, false};
    mFovealTarget.rangeKeys = &mCurve.offerRangeKeys();  // zero: the histogram pass may fold the range in
    return &mFovealTarget;
}

bool ToneWard::refit(PassContext& ctx, gl::Buffer& curve)
{
    if (!mLastWasFrameFit || !mFoveal)
        return false;
    mCurve.ensure(ctx.shaders, ctx.caps, mBinsUsed, mCeilingLoop, mExperiment, mCurvePath);
    dispatchFrameFit(curve, mSpreadParts);
    return true;
}

void ToneWard::ensureProgramsAndBuffers(PassContext& ctx)
{
    using namespace ward_state;
    if (mFovealProgram)
        return;
    const gl::ShaderDefines defines = wardDefines();
    gl::ShaderDefines perSample = defines, perInvocation = defines;
    perSample.emplace_back("PER_SAMPLE_GROUP", "1");
    perInvocation.emplace_back("PER_SAMPLE_GROUP", "0");
    mFovealProgram = ctx.shaders.buildCompute("tonemap.ward.foveal.group", "tonemap/WardFoveal.comp", perSample);
    mFovealSmallProgram =
        ctx.shaders.buildCompute("tonemap.ward.foveal.invocation", "tonemap/WardFoveal.comp", perInvocation);
    mParams = gl::Buffer("tonemap.ward.params", hd::kHistogramParamsWords * sizeof(std::uint32_t));
    mHistogram = gl::Buffer("tonemap.ward.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    mState = gl::Buffer("tonemap.ward.state", kWords * sizeof(float));
    mView = gl::Buffer("tonemap.ward.view", kWardViewWords * sizeof(float));
    mState.clearUint(0u);
    mView.clearUint(0u);
    mHistogram.clearUint(0u);  // the words past the bins a fit writes: readbacks see zeros, not old memory
    mReadback = std::make_unique<StateReadback>("tonemap.ward.state", kWords * sizeof(float));
}

void ToneWard::feedHistogram(std::optional<WardFedHistogram> histogram)
{
    mFed = std::move(histogram);
    mFedUploaded = false;
}

std::optional<WardFedHistogram> ToneWard::readAdaptationHistogram() const
{
    if (!mState || mBinsUsed == 0)
        return std::nullopt;
    WardFedHistogram h;
    if (mPcondActive) {
        const std::vector<double> words = mPcond.readAll<double>(ward_pcond::kWords);
        h.fit = WardSampling::Pcond;
        h.bins.assign(words.begin() + ward_pcond::kHistogram, words.begin() + ward_pcond::kHistogram + mBinsUsed);
        h.bwmin = words[ward_pcond::kBwmin];
        h.bwmax = words[ward_pcond::kBwmax];
        h.bwavg = words[ward_pcond::kBwavg];
        h.histot = words[ward_pcond::kHistot];
        h.lwmin = words[ward_pcond::kLwmin];
        h.lwmax = words[ward_pcond::kLwmax];
        h.duplicated = words[ward_pcond::kDuplicated] != 0.0;
        h.valid = words[ward_pcond::kValid] != 0.0;
        return h;
    }
    using namespace ward_state;
    const std::vector<float> state = mState.readAll<float>(kWords);
    const std::vector<std::uint32_t> bins = mHistogram.readAll<std::uint32_t>(mBinsUsed);
    h.fit = WardSampling::Frame;
    h.bins.assign(bins.begin(), bins.end());
    h.bwmin = state[kBwmin];
    h.bwmax = state[kBwmax];
    h.bwavg = state[kBwavg];
    h.histot = state[kHistot];
    h.lwmin = std::exp(double(state[kBwmin]));
    h.lwmax = std::exp(double(state[kBwmax]));
    h.duplicated = state[kDuplicated] != 0.0f;
    h.valid = state[kRangeValid] != 0.0f;
    return h;
}

std::vector<std::pair<double, double>> ToneWard::readPcondPrintedMapping() const
{
    std::vector<std::pair<double, double>> out;
    if (!mPcond)
        return out;
    const std::vector<double> words = mPcond.readAll<double>(ward_pcond::kWords);
    const auto count = std::size_t(std::clamp(words[ward_pcond::kPrintedCount], 0.0, double(kWardMaxBins)));
    for (std::size_t i = 0; i < count; ++i)
        out.emplace_back(words[ward_pcond::kPrinted + 2 * i], words[ward_pcond::kPrinted + 2 * i + 1]);
    return out;
}

void ToneWard::computePcondCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    const WardSettings& s = activeSettings();
    const glm::ivec2 size = inputs.image.size;
    if (!mPcondFitProgram) {
        const gl::ShaderDefines defines = wardDefines();
        mPcondFovealProgram =
            ctx.shaders.buildCompute("tonemap.ward.pcond.foveal", "tonemap/WardPcondFoveal.comp", defines);
        mPcondPointsProgram =
            ctx.shaders.buildCompute("tonemap.ward.pcond.points", "tonemap/WardPcondPoints.comp", defines);
        mPcondFitProgram = ctx.shaders.buildCompute("tonemap.ward.pcond.fit", "tonemap/WardPcondFit.comp", defines);
        mPcond = gl::Buffer("tonemap.ward.pcond", ward_pcond::kWords * sizeof(double));
        mPcond.clearUint(0u);
    }
    // What pcond knows of the picture: a still image's file facts, or the camera of a live frame.
    const PictureInfo live;
    const PictureInfo& picture = inputs.picture ? *inputs.picture : live;
    ref::PcondView view;
    if (inputs.picture) {
        if (picture.view)
            view = {true, picture.view->type, picture.view->horizontalDegrees, picture.view->verticalDegrees};
    } else {
        const double degree = std::numbers::pi / 180.0;
        const double fovY = inputs.fovYDegrees;
        const double aspect = double(size.x) / double(std::max(size.y, 1));
        view = {true, 'v', 2.0 * std::atan(std::tan(fovY * degree / 2.0) * aspect) / degree, fovY};
    }
    const bool fed = mFed.has_value();
    if (!fed && (!mPcondPlan || !mPcondPlan->matches(size.x, size.y, view, picture.pixelAspect))) {
        mPcondPlan = WardPcondPlan::make(size.x, size.y, view, picture.pixelAspect);
        const WardPcondPlan& plan = *mPcondPlan;
        mPcondBoxes = gl::Buffer::fromSpan("tonemap.ward.pcond.boxes", std::span<const std::int32_t>(plan.boxes));
        mPcondPositions =
            gl::Buffer::fromSpan("tonemap.ward.pcond.positions", std::span<const std::uint32_t>(plan.positions));
        const std::size_t samples = std::size_t(plan.grid.width) * plan.grid.height + plan.positions.size();
        mPcondSamples = gl::Buffer("tonemap.ward.pcond.samples", samples * 2 * sizeof(double));
    }
    const LuminanceUnits plain;
    const LuminanceUnits& units = inputs.units ? *inputs.units : plain;
    const double efficacy = units.efficacy * double(s.sceneScale);
    const auto setPictureUniforms = [&](const gl::Program& program) {
        glProgramUniform3f(program.id(), 10, units.weights[0], units.weights[1], units.weights[2]);
        glProgramUniform1d(program.id(), 11, efficacy);
        glProgramUniform1d(program.id(), 12, units.storedExposure());  // a pre-exposed frame's 2^k too
        glProgramUniform2i(program.id(), 13, size.x, size.y);
        program.set(14, inputs.topDownRows ? 1u : 0u);
    };
    std::uint32_t fovealCount = 0;
    std::uint32_t pointCount = 0;
    glm::ivec2 grid{0};
    if (fed) {
        if (!mFedUploaded) {
            const WardFedHistogram& h = *mFed;
            std::vector<double> header(ward_pcond::kHeaderWords, 0.0);
            header[ward_pcond::kBwmin] = h.bwmin;
            header[ward_pcond::kBwmax] = h.bwmax;
            header[ward_pcond::kBwavg] = h.bwavg;
            header[ward_pcond::kHistot] = h.histot;
            header[ward_pcond::kLwmin] = h.lwmin;
            header[ward_pcond::kLwmax] = h.lwmax;
            header[ward_pcond::kDuplicated] = h.duplicated ? 1.0 : 0.0;
            header[ward_pcond::kValid] = h.valid ? 1.0 : 0.0;
            mPcond.update(std::span<const double>(header));
            std::vector<double> bins(kWardMaxBins, 0.0);
            std::copy_n(h.bins.begin(), std::min(h.bins.size(), bins.size()), bins.begin());
            mPcond.update(std::span<const double>(bins), ward_pcond::kHistogram * sizeof(double));
            mFedUploaded = true;
        }
    } else {
        const WardPcondPlan& plan = *mPcondPlan;
        grid = {plan.grid.width, plan.grid.height};
        fovealCount = std::uint32_t(grid.x * grid.y);
        pointCount = std::uint32_t(plan.positions.size());
        {
            auto scope = ctx.profiler.scope("tonemap/ward/curve/pcond-foveal");
            inputs.image.texture.bindUnit(hd::kTextureUnitInput);
            mPcondBoxes.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
            mPcondSamples.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
            setPictureUniforms(mPcondFovealProgram);
            glProgramUniform2i(mPcondFovealProgram.id(), 0, grid.x, grid.y);
            mPcondFovealProgram.use();
            glDispatchCompute(unsigned(grid.x), unsigned(grid.y), 1);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        }
        {
            auto scope = ctx.profiler.scope("tonemap/ward/curve/pcond-points");
            inputs.image.texture.bindUnit(hd::kTextureUnitInput);
            mPcondPositions.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
            mPcondSamples.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
            setPictureUniforms(mPcondPointsProgram);
            mPcondPointsProgram.set(0, pointCount);
            mPcondPointsProgram.set(1, fovealCount);
            mPcondPointsProgram.use();
            glDispatchCompute((pointCount + 255u) / 256u, 1, 1);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        }
    }
    {
        auto scope = ctx.profiler.scope("tonemap/ward/curve/fit");
        gl::Program& fit = mPcondFitProgram;
        fit.set(0, mBinsUsed);
        glProgramUniform1d(fit.id(), 1, double(s.displayMin));
        glProgramUniform1d(fit.id(), 2, double(s.displayMax));
        fit.set(3, s.humanContrast ? 1u : 0u);
        fit.set(4, kWardCurveSamples);
        fit.set(5, fovealCount);
        fit.set(6, pointCount);
        fit.set(7, fed ? 1u : 0u);
        fit.set(8, float(std::log(double(s.sceneScale))));
        glProgramUniform2i(fit.id(), 9, grid.x, grid.y);
        if (mPcondSamples)
            mPcondSamples.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        mPcond.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch2);
        mParams.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        mHistogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        mState.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
        curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
        mView.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        fit.use();
        glDispatchCompute(1, 1, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    }
    mFovealFromHistogram = false;
    mGrid = grid;
}

void ToneWard::computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve)
{
    using namespace ward_state;
    ensureProgramsAndBuffers(ctx);
    mReadback->poll();
    const glm::ivec2 size = inputs.image.size;
    if (size.x <= 0 || size.y <= 0) {
        curve.clearUint(0u);  // no frame: an all-zero curve is black
        return;
    }
    const WardSettings& s = activeSettings();
    const std::uint32_t binLimit =
        s.histogramBySelectedMethod ? inputs.histogramMethod.maxBins(ctx.caps) : kWardMaxBins;
    mBinsUsed = std::clamp(std::min(s.bins, binLimit), 2u, kWardMaxBins);
    mLuminance = inputs.spec.luminance;  // the input's units (post/LuminanceUnits.h)
    mCdPerUnit = inputs.spec.cdPerUnit;
    const bool fedFrameFit = mFed && mFed->fit == WardSampling::Frame;
    mPcondActive = !fedFrameFit &&
                   (s.sampling == WardSampling::Pcond || (s.sampling == WardSampling::Auto && inputs.picture) || mFed);
    if (fedFrameFit) {  // the float fit on a fed histogram: its range and bins, then the ceiling stage
        using namespace ward_state;
        mBinsUsed = std::uint32_t(std::clamp<std::size_t>(mFed->bins.size(), 2, kWardMaxBins));
        if (!mFedUploaded) {
            std::vector<float> state(kWords, 0.0f);
            state[kBwmin] = float(mFed->bwmin);
            state[kBwmax] = float(mFed->bwmax);
            state[kBwavg] = float(mFed->bwavg);
            state[kRangeValid] = mFed->valid ? 1.0f : 0.0f;
            state[kDuplicated] = mFed->duplicated ? 1.0f : 0.0f;
            mState.update(std::span<const float>(state));
            std::vector<std::uint32_t> words(hd::kHistogramBufferWords, 0u);
            for (std::size_t i = 0; i < mBinsUsed && i < mFed->bins.size(); ++i)
                words[i] = std::uint32_t(mFed->bins[i]);
            mHistogram.update(std::span<const std::uint32_t>(words));
            mFedUploaded = true;
        }
        mGrid = glm::ivec2(0);
        mFovealFromHistogram = false;
        mLastWasFrameFit = false;
        mCurve.ensure(ctx.shaders, ctx.caps, mBinsUsed, mCeilingLoop, mExperiment, WardCurvePath::OneWorkgroup);
        {
            auto scope = ctx.profiler.scope("tonemap/ward/curve/fit");
            dispatchWardCurve(kStageCeiling, curve);
        }
        mReadback->request(mState, 0, ctx.frameIndex);
        return;
    }
    if (mPcondActive) {
        mBinsUsed = std::clamp(s.bins, 2u, kWardMaxBins);  // pcond sampling bins in its own fit
        mFovealTarget.written = mFovealTarget.keysWritten = false;
        mLastWasFrameFit = false;
        computePcondCurve(ctx, inputs, curve);
        mReadback->request(mState, 0, ctx.frameIndex);
        return;
    }
    const glm::ivec2 grid = fovealGridSize(size, inputs.fovYDegrees);
    ensureFovealImage(grid);
    // The histogram pass may have filled the foveal image already (same frame, grid and scale).
    mFovealFromHistogram = mFovealTarget.written && mFovealTarget.image == &mFoveal && mFovealTarget.grid == grid &&
                           mFovealTarget.sceneScale == s.sceneScale;
    mFovealTarget.keysWritten = mFovealFromHistogram && mFovealTarget.keysWritten && !s.histogramBySelectedMethod;
    mFovealTarget.written = false;  // consumed (the keys by the fit below): a later frame must fill them again
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
        mGrid = grid;
        mLastWasFrameFit = !s.histogramBySelectedMethod;
        if (!s.histogramBySelectedMethod) {
            mCurve.ensure(ctx.shaders, ctx.caps, mBinsUsed, mCeilingLoop, mExperiment, mCurvePath);
            dispatchFrameFit(curve, WardSpreadParts::Both);
        } else {
            mCurve.ensure(ctx.shaders, ctx.caps, mBinsUsed, mCeilingLoop, mExperiment, WardCurvePath::OneWorkgroup);
            dispatchWardCurve(kStageRange, curve);
            HistogramSpec spec = inputs.spec;  // its luminance definition
            spec.binCount = mBinsUsed;
            spec.outOfRange = OutOfRange::Separate;
            HistogramTargets targets{mHistogram, mParams, nullptr};
            inputs.histogramMethod.build(ctx, ImageInput{mFoveal, grid}, spec, targets);
            glMemoryBarrier(GL_ALL_BARRIER_BITS);
            dispatchWardCurve(kStageCeiling, curve);
        }
    }
    mReadback->request(mState, 0, ctx.frameIndex);
}

WardCurveInputs ToneWard::curveInputs() const
{
    return WardCurveInputs{activeSettings(), mBinsUsed, mGrid, mLuminance, mCdPerUnit, &mFoveal};
}

void ToneWard::dispatchWardCurve(std::uint32_t stage, gl::Buffer& curve)
{
    mCurve.dispatchOneWorkgroup(stage, curveInputs(), WardCurveOutputs{mParams, mHistogram, mState, mView, curve});
}

bool ToneWard::takeRangeKeys()
{
    // The keys are this frame's foveal image's (written and not consumed) under the fit's weights.
    const bool usable = mFovealTarget.keysWritten && mUseRangeKeys && mCurvePath == WardCurvePath::Spread &&
                        mFovealTarget.image == &mFoveal && mFovealTarget.grid == mGrid &&
                        mFovealTarget.sceneScale == activeSettings().sceneScale &&
                        mFovealTarget.keyWeights == mLuminance;
    mFovealTarget.keysWritten = false;
    return usable;
}

void ToneWard::dispatchFrameFit(gl::Buffer& curve, WardSpreadParts parts)
{
    const WardCurveInputs in = curveInputs();
    const WardCurveOutputs out{mParams, mHistogram, mState, mView, curve};
    mRangeFromKeys = takeRangeKeys();
    if (mCurvePath == WardCurvePath::Spread)
        mCurve.dispatchSpread(in, out, parts, mRangeFromKeys);
    else
        mCurve.dispatchOneWorkgroup(kStageAll, in, out);
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
    int sampling = int(s.sampling);
    const char* samplings[] = {"auto", "frame", "pcond"};
    if (ImGui::Combo("Sampling", &sampling, samplings, kWardSamplingCount)) {
        s.sampling = WardSampling(sampling);
        changed = true;
    }
    helpMarker(
        "frame: a box-filtered 1-degree foveal image of the whole frame (float). pcond: exactly Radiance pcond's "
        "adaptation samples (pfilt's foveal image written as RGBE, 16x as many drand48 point samples, "
        "double-precision fit), so the curve is the one pcond -x prints. auto: pcond for a still picture "
        "(tonemap, view), frame for the live scene.");
    int bins = int(s.bins);
    if (ImGui::SliderInt("Bins", &bins, 10, int(kWardMaxBins))) {
        s.bins = std::uint32_t(bins);
        changed = true;
    }
    helpMarker("Histogram resolution over the foveal samples' natural-log range (pcond HISTRES = 100).");
    changed |= ImGui::DragFloatRange2("Display (cd/m^2)", &s.displayMin, &s.displayMax, 0.5f, 0.01f, 10000.0f, "%.3g");
    helpMarker("Ldmin and Ldmax of the display: pcond defaults 1 and 100 (dynamic range 100:1).");
    changed |= ImGui::DragFloat("Scene scale", &s.sceneScale, 0.01f, 1e-6f, 1e6f, "%.4g", ImGuiSliderFlags_Logarithmic);
    helpMarker(
        "cd/m^2 per scene unit: converts scene-linear luminance to cd/m^2; matters for the human-contrast ceiling and "
        "for where "
        "the display range sits.");
    changed |= ImGui::Checkbox("Human contrast", &s.humanContrast);
    helpMarker(
        "The human contrast sensitivity ceiling, pcond -s: the ceiling is scaled by [dLt(Ld)/dLt(Lw)] [Lw/Ld] with "
        "Ferwerda's threshold-versus-"
        "intensity function, so contrast is never shown above what the eye sees in the scene.");
    changed |= ImGui::Checkbox("Duplicate bottom bin", &s.duplicateBottomBin);
    helpMarker(
        "pcond extends the range down by one bin and moves half of bin 1 into it ('false samples at "
        "bottom'), so the darkest samples do not map to pure black.");
    changed |= ImGui::Checkbox("Fovea by the method", &s.histogramBySelectedMethod);
    helpMarker(
        "The foveal histogram by the selected histogram method. Off: Ward's curve kernels bin the few thousand foveal "
        "samples themselves, spread over workgroups, in the same two dispatches as the fit. On: the "
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
    char text[200];
    const bool pcond = mPcondActive;
    char samples[96] = "";
    if (mFed)
        std::snprintf(samples, sizeof(samples), ", fed histogram");
    else if (pcond && mPcondPlan)
        std::snprintf(samples, sizeof(samples), ", pcond sampling: %dx%d foveal + %zu points", mPcondPlan->grid.width,
                      mPcondPlan->grid.height, mPcondPlan->positions.size());
    switch (int(w[kOutcome])) {
        case 0:
            if (pcond)
                std::snprintf(text, sizeof(text), "ward: %d trim passes, ceiling %.1f%% of T%s", int(w[kPasses]),
                              100.0 * w[kCeilingFraction], samples);
            else
                std::snprintf(text, sizeof(text), "ward: %d trim passes, ceiling %.1f%% of T, %dx%d foveal%s%s",
                              int(w[kPasses]), 100.0 * w[kCeilingFraction], int(w[kGridWidth]), int(w[kGridHeight]),
                              mFovealFromHistogram ? " (from the histogram pass)" : "",
                              w[kConverged] != 0.0f ? "" : " (pass cap hit)");
            break;
        case 1:
            std::snprintf(text, sizeof(text), "ward: linear fallback (range fits)%s", samples);
            break;
        case 2:
            std::snprintf(text, sizeof(text), "ward: linear fallback (trimming failed after %d passes)%s",
                          int(w[kPasses]), samples);
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
        enumParameter("ward.sampling", "Sampling", s.sampling, {"auto", "frame", "pcond"}, d.sampling),
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

bool ToneWard::describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const
{
    if (hasFedHistogram())
        return false;     // a fed histogram has no picture to compare with
    if (pcondActive()) {  // pcond sampling: the reference reads the picture top row first
        const glm::ivec2 size = frame.frameSize;
        check.pixels = frame.frame;
        if (!frame.topDownRows)
            for (int y = 0; y < size.y; ++y)
                std::copy_n(frame.frame.begin() + std::ptrdiff_t(y) * size.x * 4, std::size_t(size.x) * 4,
                            check.pixels.begin() + std::ptrdiff_t(size.y - 1 - y) * size.x * 4);
        ref::WardPcondInputs pcond;
        pcond.ward = activeSettings();
        pcond.picture.rgba = check.pixels.data();
        pcond.picture.width = size.x;
        pcond.picture.height = size.y;
        const PictureInfo live;
        const PictureInfo& info = frame.picture ? *frame.picture : live;
        pcond.picture.weights = frame.units.weights;
        pcond.picture.efficacy = frame.units.efficacy;
        pcond.picture.exposure = frame.units.storedExposure();
        pcond.picture.pixelAspect = info.pixelAspect;
        if (frame.picture && frame.picture->view) {
            pcond.picture.view = {true, frame.picture->view->type, frame.picture->view->horizontalDegrees,
                                  frame.picture->view->verticalDegrees};
        } else if (!frame.picture) {
            const double degree = std::numbers::pi / 180.0;
            const double aspect = double(size.x) / double(std::max(size.y, 1));
            const double fovY = check.curve.fovYDegrees;
            pcond.picture.view = {true, 'v', 2.0 * std::atan(std::tan(fovY * degree / 2.0) * aspect) / degree, fovY};
        }
        check.curve.settings = pcond;
        return true;
    }
    check.curve.settings = activeSettings();
    if (!fovealImage())
        return true;
    // The frame fit, for its bit-exact serial model (ref::wardChecks).
    using namespace ward_state;
    const auto params = mParams.readAll<std::uint32_t>(hd::kHistogramParamsWords);
    const std::uint32_t n = std::clamp(params[hd::kParamBinCount], 2u, kWardMaxBins);
    const auto state = mState.readAll<float>(kWords);
    auto& numbers = check.numbers;
    numbers["bins"] = n;
    numbers["luma-r"] = std::bit_cast<float>(params[hd::kParamLumaR]);
    numbers["luma-g"] = std::bit_cast<float>(params[hd::kParamLumaG]);
    numbers["luma-b"] = std::bit_cast<float>(params[hd::kParamLumaB]);
    numbers["exact-bins"] = !mSettings.histogramBySelectedMethod || frame.methodExactBinning ? 1.0 : 0.0;
    numbers["foveal-width"] = mFoveal.size().x;
    numbers["foveal-height"] = mFoveal.size().y;
    const std::pair<const char*, std::uint32_t> words[] = {
        {"outcome", kOutcome},
        {"passes", kPasses},
        {"bwmin", kBwmin},
        {"bwmax", kBwmax},
        {"bwavg", kBwavg},
        {"samples", kSamples},
        {"range-valid", kRangeValid},
        {"duplicated", kDuplicated},
        {"final-total", kFinalTotal},
        {"linear-scale", kLinearScale},
    };
    for (const auto& [name, index] : words)
        numbers[name] = state[index];
    check.words["histogram"] = mHistogram.readAll<std::uint32_t>(n);
    check.floats["foveal"] = mFoveal.readRgbaFloat();
    return true;
}

void ToneWard::feedHistogramFile(const HistogramFile& file)
{
    if (file.ward) {
        feedHistogram(*file.ward);  // the histogram its curve was made from, exactly
        return;
    }
    // Another tool's table: pcond's -I rule on the lower edges, in ln cd/m^2.
    std::vector<std::pair<double, double>> lnEdges;
    for (const auto& [log2Lower, count] : file.lowerEdges)
        lnEdges.emplace_back(log2Lower * std::numbers::ln2 + std::log(double(mSettings.sceneScale)), count);
    feedHistogram(wardFedHistogramOf(ref::pcondHistogramFromBins(lnEdges, mSettings)));
}

std::optional<std::string> ToneWard::curveCsv() const
{
    if (!pcondActive())
        return std::nullopt;
    const auto printed = readPcondPrintedMapping();
    const std::vector<double> words = mPcond.readAll<double>(ward_pcond::kHeaderWords);
    const WardSettings& s = activeSettings();
    const bool linear = words[ward_pcond::kOutcome] != 0.0;
    const double scalef = words[ward_pcond::kScalef];
    std::ostringstream csv;
    csv.precision(17);
    csv << "log2_Lw,Ld,world_cd_m2,display_cd_m2\n";
    for (const auto& [world, display] : printed) {
        const double value = linear ? std::min(scalef * world / s.displayMax, 1.0)
                                    : (display - s.displayMin) / (double(s.displayMax) - s.displayMin);
        csv << std::log2(world / double(s.sceneScale)) << "," << value << "," << world << "," << display << "\n";
    }
    return csv.str();
}

std::string ToneWard::histogramCsvSection() const
{
    const auto adaptation = readAdaptationHistogram();
    return adaptation ? wardHistogramCsvSection(*adaptation, sanitize(mSettings).sceneScale) : std::string();
}

WardSettings ToneWard::activeSettings() const
{
    WardSettings s = mSettings;
    if (mDisplay.hdr())  // HDR10: the display's range is [Ld_min, peak] (docs/TONE_OPERATORS.md)
        s.displayMax = std::clamp(mDisplay.peak, kMinDisplayPeak, kMaxDisplayPeak);
    return sanitize(s);
}

}  // namespace post
