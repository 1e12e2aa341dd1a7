#include "post/tonemap/WardCurveDispatch.h"

#include "gl/Debug.h"
#include "shared/LocalTiles.h"

#include <algorithm>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace post {

namespace {

/// A define's value in `defines` as a positive number, or `fallback`.
std::uint32_t definedNumber(const gl::ShaderDefines& defines, std::string_view name, std::uint32_t fallback)
{
    for (const auto& [key, value] : defines)
        if (key == name) {
            const unsigned long number = std::stoul(value);
            return number > 0 ? std::uint32_t(number) : fallback;
        }
    return fallback;
}

/// The uniforms WardCurve.comp and WardCurveSpread.comp share (WardFit.glsl) and the bindings.
void prepare(gl::Program& program, std::uint32_t stage, const WardCurveInputs& in, const WardCurveOutputs& out)
{
    const WardSettings& s = in.settings;
    program.set(0, in.bins);
    program.set(3, s.sceneScale);
    program.set(4, s.humanContrast ? 1u : 0u);
    program.set(5, kWardCurveSamples);
    glProgramUniform2i(program.id(), 6, in.grid.x, in.grid.y);
    program.set(7, s.duplicateBottomBin ? 1u : 0u);
    program.set(8, stage);
    glProgramUniform4f(program.id(), 9, in.luminance.r, in.luminance.g, in.luminance.b, in.cdPerUnit);
    const WardFitConstants c = wardFitConstants(s, in.bins, kWardCurveSamples);
    const float constants[] = {
        c.lnLdmin,  c.lnLdmax,    c.displayRange, c.invDisplayRange, c.ldmin,           c.ldmax,
        c.invLdmax, c.invLdRange, c.geometric,    c.invBins,         c.duplicateFactor, c.invCurveSamples,
        c.lmin,     c.lmax,       c.ftiny,        c.growth,          c.lnScale};
    for (int i = 0; i < int(std::size(constants)); ++i)  // locations 10..26, in WardFitConstants order
        program.set(10 + i, constants[i]);
    // Rebound every time: the histogram method binds its own buffers to the same points.
    if (in.foveal && *in.foveal)
        in.foveal->bindUnit(hd::kTextureUnitInput);
    out.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    out.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
    out.state.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
    out.curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    out.view.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    program.use();
}

/// ward-local: every tile's fit in one dispatch, a workgroup per tile (WardFit.glsl's tile batch, uTileBatch):
/// the tiles' rectangles in uTileRects, the outputs bound whole and offset per tile in the shader. The
/// one-dispatch-per-tile loop took 147 us at 8x8 tiles and 4K on the H200 (64 dispatches of one workgroup);
/// false (the loop follows) where the rectangles do not fit the packing or HDRLAB_LOCAL_TILES has fits=serial.
bool dispatchTileBatch(gl::Program& program,
                       const WardCurveInputs& in,
                       std::span<const WardTileRect> tiles,
                       const WardTileOutputs& out)
{
    static const bool serial = [] {
        const char* text = std::getenv("HDRLAB_LOCAL_TILES");
        return text && std::string_view(text).find("fits=serial") != std::string_view::npos;
    }();
    constexpr std::size_t kMaxBatch = std::size_t(hd::kMaxTilesPerAxis) * hd::kMaxTilesPerAxis;
    const auto words = [](std::size_t bytes) { return std::uint32_t(bytes / sizeof(std::uint32_t)); };
    if (serial || tiles.empty() || tiles.size() > kMaxBatch || out.paramsStride % 4 || out.histogramStride % 4 ||
        out.stateStride % 4 || out.viewStride % 4)
        return false;
    std::vector<std::uint32_t> rects(kMaxBatch * 2, 0u);  // uvec4[kMaxBatch / 2]: two rectangles each
    for (std::size_t k = 0; k < tiles.size(); ++k) {
        const WardTileRect& t = tiles[k];
        if (t.origin.x < 0 || t.origin.y < 0 || t.origin.x > 0xffff || t.origin.y > 0xffff || t.size.x < 1 ||
            t.size.y < 1 || t.size.x > 0xfff || t.size.y > 0xfff || t.tile > 0xff)
            return false;
        rects[2 * k] = std::uint32_t(t.origin.x) | (std::uint32_t(t.origin.y) << 16);
        rects[2 * k + 1] = std::uint32_t(t.size.x) | (std::uint32_t(t.size.y) << 12) | (t.tile << 24);
    }
    prepare(program, 0, in, WardCurveOutputs{out.params, out.histogram, out.state, out.view, out.tileCurves});
    glProgramUniform4uiv(program.id(), 30, GLsizei(kMaxBatch / 2), rects.data());
    glProgramUniform4ui(program.id(), 29, words(out.paramsStride), words(out.histogramStride), words(out.stateStride),
                        words(out.viewStride));
    program.set(28, 1u);
    glDispatchCompute(GLuint(tiles.size()), 1, 1);
    program.set(28, 0u);  // ToneWard's own dispatches of this program fit the whole grid
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    return true;
}

}  // namespace

std::uint32_t WardCurveDispatch::spreadGroups(glm::ivec2 grid,
                                              std::uint32_t groupSize,
                                              std::uint32_t samplesPerInvocation)
{
    const std::uint64_t samples = std::uint64_t(std::max(grid.x, 0)) * std::uint64_t(std::max(grid.y, 0));
    const std::uint64_t slice = std::uint64_t(std::max(groupSize, 1u)) * std::max(samplesPerInvocation, 1u);
    return std::uint32_t(std::max<std::uint64_t>((samples + slice - 1) / slice, 1));
}

void WardCurveDispatch::ensure(const gl::ShaderLibrary& shaders,
                               const GpuCaps& caps,
                               std::uint32_t bins,
                               WardCeilingLoop loop,
                               const gl::ShaderDefines& extra,
                               WardCurvePath path)
{
    if (path == WardCurvePath::OneWorkgroup) {
        mOne.ensure(shaders, caps, bins, loop, extra);
        mLoopUsed = mOne.loopUsed();
        return;
    }
    mRange.ensure(shaders, caps, bins, loop, extra);
    mFit.ensure(shaders, caps, bins, loop, extra);
    mFitFromKeys.ensure(shaders, caps, bins, loop, extra);
    mLoopUsed = mFit.loopUsed();
    mGroupSize = definedNumber(extra, "GROUP_SIZE", WardCurveProgram::kGroupSize);
    mSamplesPerInvocation = definedNumber(extra, "SAMPLES_PER_INVOCATION", kSamplesPerInvocation);
    if (!mSpread) {
        mSpread = gl::Buffer("tonemap.ward.spread", kSpreadWords * sizeof(std::uint32_t));
        mSpread.clearUint(0u);  // zero at rest: the kernel's last groups leave it so after each frame
    }
}

void WardCurveDispatch::dispatchOneWorkgroup(std::uint32_t stage,
                                             const WardCurveInputs& in,
                                             const WardCurveOutputs& out)
{
    prepare(mOne.program(), stage, in, out);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

void WardCurveDispatch::dispatchTiles(const WardCurveInputs& in,
                                      std::span<const WardTileRect> tiles,
                                      const WardTileOutputs& out)
{
    gl::DebugGroup group("tonemap/ward-local/tile-fits");
    gl::Program& program = mOne.program();
    if (dispatchTileBatch(program, in, tiles, out))
        return;
    for (const WardTileRect& tile : tiles) {
        WardCurveInputs tileInputs = in;
        tileInputs.grid = tile.size;
        prepare(program, 0, tileInputs,
                WardCurveOutputs{out.params, out.histogram, out.state, out.view, out.tileCurves});
        glProgramUniform2i(program.id(), 27, tile.origin.x, tile.origin.y);
        out.params.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams, tile.tile * out.paramsStride,
                             out.paramsStride);
        out.histogram.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram, tile.tile * out.histogramStride,
                                out.histogramStride);
        out.state.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState, tile.tile * out.stateStride,
                            out.stateStride);
        out.view.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0, tile.tile * out.viewStride, out.viewStride);
        out.tileCurves.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve,
                                 std::size_t(hd::hdTileCurveBase(tile.tile)) * sizeof(float),
                                 std::size_t(hd::kTileCurveStride) * sizeof(float));
        glDispatchCompute(1, 1, 1);
    }
    glProgramUniform2i(program.id(), 27, 0, 0);  // the whole grid again for ToneWard's own stages
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

gl::Buffer& WardCurveDispatch::offerRangeKeys()
{
    if (!mRangeKeys) {
        mRangeKeys = gl::Buffer("tonemap.ward.range-keys", 2 * sizeof(std::uint32_t));
        mRangeKeys.clearUint(0u);
    } else if (mRangeKeysPending) {
        mRangeKeys.clearUint(0u);  // the last offer's keys were not consumed: never into this frame
    }
    mRangeKeysPending = true;
    return mRangeKeys;
}

void WardCurveDispatch::dispatchSpread(const WardCurveInputs& in,
                                       const WardCurveOutputs& out,
                                       WardSpreadParts parts,
                                       bool rangeFromKeys)
{
    const std::uint32_t groups = spreadGroups(in.grid, mGroupSize, mSamplesPerInvocation);
    if (rangeFromKeys) {
        gl::DebugGroup group("tonemap/ward/curve/spread-bin-fit-keys");
        prepare(mFitFromKeys.program(), 0, in, out);
        mSpread.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        mRangeKeys.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
        mRangeKeysPending = false;  // the last group left them zero
        mLastSpreadDispatches = 1;
        return;
    }
    mLastSpreadDispatches = parts == WardSpreadParts::Both ? 2 : 1;
    if (parts != WardSpreadParts::BinAndFit) {
        gl::DebugGroup group("tonemap/ward/curve/spread-range");
        prepare(mRange.program(), 0, in, out);
        mSpread.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // stage 2 reads the range stage 1 left
    }
    if (parts != WardSpreadParts::RangeOnly) {
        gl::DebugGroup group("tonemap/ward/curve/spread-bin-fit");
        prepare(mFit.program(), 0, in, out);
        mSpread.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_ALL_BARRIER_BITS);
    }
}

}  // namespace post
