#include "post/TonemapApply.h"

#include "post/tonemap/LocalTileSwitches.h"
#include "shared/LocalExposure.h"
#include "shared/LocalTiles.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace post {

namespace {
constexpr int kApplyRows = 4;  ///< pixels (8 rows apart) per invocation of Apply.comp
// Apply.comp's blocks (32 x 8 * kApplyRows pixels) must not straddle a local exposure tile centre:
// the bilateral build stages the block's four tiles once (LocalExposureApply.glsl, LE_STAGED_CELLS).
static_assert((hd::kLocalExposureTile / 2) % 32 == 0 && (hd::kLocalExposureTile / 2) % (8 * kApplyRows) == 0);
constexpr std::uint32_t kTilesProgramKey = 0xffffffffu;  ///< mPrograms' key of ApplyTiles.comp, minus its variant
}  // namespace

void bindLocalExposure(const gl::Program& program, const LocalExposureInput& in, glm::ivec2 size)
{
    if (in.method == 1 && (!in.grid || !in.blur))
        throw std::invalid_argument("tonemap apply: bilateral local exposure needs its grid and blur buffers");
    if (in.method == 2 && !in.adjustment)
        throw std::invalid_argument("tonemap apply: fusion local exposure needs its adjustment texture");
    program.set(40, in.view);
    program.set(41, in.midSource);
    glProgramUniform4f(program.id(), 42, in.highlightContrastScale, in.shadowContrastScale, in.detailStrength,
                       in.blurredLuminanceBlend);
    program.set(43, in.middleGreyBias);
    glProgramUniform2i(program.id(), 44, in.tiles.x, in.tiles.y);
    glProgramUniform2i(program.id(), 45, size.x, size.y);
    if (in.method == 1) {
        in.grid->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalExposureGrid);
        in.blur->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalExposureBlur);
    } else {
        // The fusion pass's adjustment with the texture's own sampling (gl::Texture: linear, clamped to
        // the edge), as its resolution may be lower than the frame's.
        in.adjustment->bindUnit(hd::kTextureUnitLocalExposure);
        glProgramUniform2f(program.id(), 46, in.uvScale.x, in.uvScale.y);
        glBindSampler(hd::kTextureUnitLocalExposure, 0);
    }
}

gl::Buffer createCurveBuffer(std::string_view label)
{
    return gl::Buffer(label, hd::kCurveBufferWords * sizeof(float));
}

void TonemapApply::apply(PassContext& ctx,
                         const ImageInput& hdr,
                         const gl::Buffer& params,
                         const gl::Buffer& curve,
                         gl::Texture& output,
                         const LocalMeanInput* local,
                         const ApplyDisplay& display,
                         gl::Texture* hdrOutput,
                         const TileCurvesInput* tiles,
                         const LocalExposureInput* localExposure)
{
    if (tiles && display.hdr)
        tiles = nullptr;  // the tiled modes are SDR only: HDR10 shows the global curve
    if (output.size() != hdr.size || output.format() != GL_RGBA8)
        throw std::invalid_argument("tonemap apply: the output must be GL_RGBA8 of the input's size");
    if (curve.size() < hd::kCurveBufferWords * sizeof(float))
        throw std::invalid_argument("tonemap apply: the curve buffer is too small");
    if (display.hdr && (!hdrOutput || hdrOutput->size() != hdr.size || hdrOutput->format() != GL_RGBA32F))
        throw std::invalid_argument("tonemap apply: HDR10 needs a GL_RGBA32F output of the input's size");
    // One build per (target, transform): the SDR program without a transform has no HDR or transform
    // code at all, so its cost is the plain apply's (a uniform branch on the transform cost it 10 us at
    // 4K on the H200: the transforms' registers).
    if (tiles)
        localExposure = nullptr;  // the tiled operators are local already
    // Local exposure is a build of its own (LOCAL_EXPOSURE), so without it the program is today's.
    const std::uint32_t localMethod = localExposure ? localExposure->method : 0u;
    // The tiled modes: a program of their own (ApplyTiles.comp), or Apply.comp's (HDRLAB_LOCAL_TILES
    // apply=legacy, the path before it, for the benchmark's comparison).
    const std::uint32_t tileVariant = localTileSwitches().applyVariant;
    const bool tilesProgram = tiles && tileVariant != LocalTileSwitches::kApplyLegacy;
    // Its key in the program map (one per variant): no (target, transform) pair has these transform codes.
    gl::Program& program = mPrograms[tilesProgram ? std::tuple{false, kTilesProgramKey - tileVariant, 0u}
                                                  : std::tuple{display.hdr, display.transform, localMethod}];
    if (tilesProgram && !program) {
        const std::uint32_t stageFloats = localTileSwitches().stageFloats;
        const bool unstaged = tileVariant == LocalTileSwitches::kApplyUnstaged || stageFloats == 0;
        program =
            ctx.shaders.buildCompute("tonemap.apply-tiles." + std::to_string(tileVariant), "tonemap/ApplyTiles.comp",
                                     {{"ROWS", std::to_string(kApplyRows)},
                                      {"TILE_APPLY_VARIANT", std::to_string(unstaged ? 0u : tileVariant)},
                                      {"STAGE_LUTS", unstaged ? "0" : "1"}});
    }
    if (!program) {
        gl::ShaderDefines defines{{"ROWS", std::to_string(kApplyRows)},
                                  {"DISPLAY_TRANSFORM", std::to_string(display.transform)}};
        if (display.hdr)
            defines.push_back({"HDR10", "1"});
        if (localMethod != 0)
            defines.push_back({"LOCAL_EXPOSURE", std::to_string(localMethod)});
        program = ctx.shaders.buildCompute(
            std::string(display.hdr ? "tonemap.apply-hdr10." : "tonemap.apply.") + std::to_string(display.transform) +
                (localMethod != 0 ? ".local-exposure" + std::to_string(localMethod) : ""),
            "tonemap/Apply.comp", defines);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    program.use();
    glProgramUniform2i(program.id(), 0, hdr.size.x, hdr.size.y);
    hdr.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    const std::size_t pixels = std::size_t(hdr.size.x) * std::size_t(hdr.size.y);
    if (local && local->localMean.size() < pixels * sizeof(float))
        throw std::invalid_argument("tonemap apply: the local mean buffer is smaller than the frame");
    // Without local adaptation the shader never reads this block; bind the curve there anyway.
    (tiles   ? tiles->tileCurves
     : local ? local->localMean
             : curve)
        .bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalAdaptation);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    program.set(1, tiles   ? (tiles->viewGain   ? hd::kApplyViewLocalGain
                              : tiles->viewGrid ? hd::kApplyTilesGrid
                                                : hd::kApplyTiles)
                   : local ? (local->view ? hd::kApplyViewLocalMean : hd::kApplyLocal)
                           : hd::kApplyGlobal);
    if (display.hdr) {
        glProgramUniform4f(program.id(), 3, display.highlightLookup, display.nitsScale, display.nitsOffset,
                           display.peak);
        hdrOutput->bindImage(hd::kImageUnitHdrOutput, GL_WRITE_ONLY);
    }
    if (localExposure)
        bindLocalExposure(program, *localExposure, hdr.size);
    output.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
    const GLuint rowsPerGroup = 8 * kApplyRows;  // Apply.comp: 32x8 invocations, kApplyRows pixels each
    glDispatchCompute(GLuint((hdr.size.x + 31) / 32), GLuint((hdr.size.y + int(rowsPerGroup) - 1) / int(rowsPerGroup)),
                      1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT);
}

void TonemapApply::buildDisplayHistogram(PassContext& ctx, const gl::Texture& display, gl::Buffer& bins)
{
    if (!mDisplayHistogram)
        mDisplayHistogram = ctx.shaders.buildCompute("tonemap.display-histogram", "post/DisplayHistogram.comp");
    bins.clearUint(0u);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mDisplayHistogram.use();
    glProgramUniform2i(mDisplayHistogram.id(), 0, display.size().x, display.size().y);
    display.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    bins.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0, 0, kDisplayBins * sizeof(std::uint32_t));
    glDispatchCompute(GLuint((display.size().x + 15) / 16), GLuint((display.size().y + 15) / 16), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
