#include "post/histogram/HistogramFluckTiles.h"

#include "profiling/Profiler.h"
#include "util/Log.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace post {

std::string_view HistogramFluckTiles::description() const
{
    return "Fluck et al. 2006: the image is split into tiles of at least B texels; each texel gathers its tile's "
           "pixels and counts those in its own bin; texture-reduce passes halve the tile grid until one tile (the "
           "global histogram) is left.";
}

std::string HistogramFluckTiles::limits() const
{
    return mSettings.format == FluckFormat::R32F ? "O(N*B) fetches; R32F exact below 2^24 per bin"
                                                 : "O(N*B) texture fetches";
}

std::string HistogramFluckTiles::status() const
{
    if (mTile == 0)
        return {};
    return util::format("tile {}x{}, {} tiles, {} reduce passes, {}", mTile, mTile,
                        mLevels.empty() ? 0 : mLevels.front().tiles.x * mLevels.front().tiles.y,
                        mLevels.empty() ? 0 : mLevels.size() - 1,
                        mSettings.format == FluckFormat::R32F ? "R32F" : "R32UI");
}

void HistogramFluckTiles::setSettings(const FluckSettings& settings)
{
    mSettings = settings;
}

int HistogramFluckTiles::tileSideFor(std::uint32_t binCount)
{
    int side = int(std::ceil(std::sqrt(double(std::max(binCount, 1u)))));
    while (side * side < int(binCount))
        ++side;
    while (side > 1 && (side - 1) * (side - 1) >= int(binCount))
        --side;
    return side;
}

void HistogramFluckTiles::ensureResources(PassContext& ctx, glm::ivec2 size, std::uint32_t binCount)
{
    const bool useFloat = mSettings.format == FluckFormat::R32F;
    if (!mClassifyProgram || mBuiltFormat != mSettings.format) {
        gl::ShaderDefines defines;
        if (useFloat)
            defines.emplace_back("OUTPUT_FLOAT", "1");
        mClassifyProgram = ctx.shaders.buildGraphics("histogram/fluck-tiles/classify",
                                                     "histogram/FullscreenTriangle.vert", "histogram/BinCodes.frag");
        mLocalProgram = ctx.shaders.buildGraphics("histogram/fluck-tiles/local", "histogram/FullscreenTriangle.vert",
                                                  "histogram/FluckLocal.frag", defines);
        mReduceProgram = ctx.shaders.buildGraphics("histogram/fluck-tiles/reduce", "histogram/FullscreenTriangle.vert",
                                                   "histogram/FluckReduce.frag", defines);
        mCopyProgram = ctx.shaders.buildCompute("histogram/fluck-tiles/copy", "histogram/FluckCopy.comp", defines);
        mVertexArray = gl::VertexArray("histogram/fluck-tiles/empty-vertex-array");
        mBuiltFormat = mSettings.format;
        mLevels.clear();
    }
    if (mSize != size) {
        mCodes = gl::Texture("histogram/fluck-tiles/codes", GL_R32I, size);
        mCodes.setFilter(GL_NEAREST, GL_NEAREST);
        mCodesFramebuffer = gl::Framebuffer("histogram/fluck-tiles/codes-framebuffer");
        mCodesFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, mCodes);
        mCodesFramebuffer.setDrawBuffers({GL_COLOR_ATTACHMENT0});
        mCodesFramebuffer.checkComplete("histogram/fluck-tiles/codes-framebuffer");
    }
    const int tile = tileSideFor(binCount);
    if (mSize != size || mTile != tile || mLevels.empty()) {
        mLevels.clear();
        glm::ivec2 tiles((size.x + tile - 1) / tile, (size.y + tile - 1) / tile);
        const GLenum format = useFloat ? GL_R32F : GL_R32UI;
        for (int level = 0;; ++level) {
            Level& entry = mLevels.emplace_back();
            std::string name = util::format("histogram/fluck-tiles/level[{}]", level);
            entry.tiles = tiles;
            entry.texture = gl::Texture(name, format, tiles * tile);
            entry.texture.setFilter(GL_NEAREST, GL_NEAREST);
            entry.framebuffer = gl::Framebuffer(name + "-framebuffer");
            entry.framebuffer.attachTexture(GL_COLOR_ATTACHMENT0, entry.texture);
            entry.framebuffer.setDrawBuffers({GL_COLOR_ATTACHMENT0});
            entry.framebuffer.checkComplete(name);
            if (tiles == glm::ivec2(1))
                break;
            tiles = (tiles + 1) / 2;
        }
    }
    mSize = size;
    mTile = tile;
    mBinCount = binCount;
}

void HistogramFluckTiles::build(PassContext& ctx,
                                const ImageInput& image,
                                const HistogramSpec& spec,
                                const HistogramTargets& targets)
{
    const std::uint32_t binCount = std::clamp(spec.binCount, 1u, hd::kMaxHistogramBins);
    if (image.size.x <= 0 || image.size.y <= 0) {
        clearHistogram(targets.histogram, binCount);
        return;
    }
    ensureResources(ctx, image.size, binCount);
    {
        RasterStateGuard guard;
        mVertexArray.bind();
        {
            auto scope = ctx.profiler.scope("histogram/fluck-tiles/classify");
            glBindFramebuffer(GL_FRAMEBUFFER, mCodesFramebuffer.id());
            glViewport(0, 0, image.size.x, image.size.y);
            bindHistogramInputs(image, targets);
            mClassifyProgram.use();
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        {
            auto scope = ctx.profiler.scope("histogram/fluck-tiles/local-histograms");
            const Level& first = mLevels.front();
            glBindFramebuffer(GL_FRAMEBUFFER, first.framebuffer.id());
            glViewport(0, 0, first.texture.size().x, first.texture.size().y);
            mCodes.bindUnit(hd::kTextureUnitAux);
            glBindSampler(hd::kTextureUnitAux, 0);
            glProgramUniform2i(mLocalProgram.id(), 0, image.size.x, image.size.y);
            glProgramUniform1i(mLocalProgram.id(), 1, mTile);
            glProgramUniform1i(mLocalProgram.id(), 2, int(binCount));
            mLocalProgram.use();
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        {
            auto scope = ctx.profiler.scope("histogram/fluck-tiles/reduce");
            mReduceProgram.use();
            glProgramUniform1i(mReduceProgram.id(), 1, mTile);
            for (std::size_t level = 1; level < mLevels.size(); ++level) {
                const Level& source = mLevels[level - 1];
                const Level& target = mLevels[level];
                glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer.id());
                glViewport(0, 0, target.texture.size().x, target.texture.size().y);
                source.texture.bindUnit(hd::kTextureUnitAux);
                glProgramUniform2i(mReduceProgram.id(), 0, source.tiles.x, source.tiles.y);
                glDrawArrays(GL_TRIANGLES, 0, 3);
            }
        }
    }
    {
        auto scope = ctx.profiler.scope("histogram/fluck-tiles/copy");
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
        mLevels.back().texture.bindUnit(hd::kTextureUnitAux);
        glBindSampler(hd::kTextureUnitAux, 0);
        targets.histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        glProgramUniform1i(mCopyProgram.id(), 0, mTile);
        glProgramUniform1ui(mCopyProgram.id(), 1, binCount);
        mCopyProgram.use();
        glDispatchCompute(groupsFor(int(binCount), 256), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    }
    mCensus.run(ctx, image, targets, "histogram/fluck-tiles/counters");
}

bool HistogramFluckTiles::ui()
{
    int format = int(mSettings.format);
    const bool picked = ImGui::Combo("Render target", &format, "R32UI\0R32F\0");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("R32UI: exact counts. R32F: exact below 2^24 per bin.");
    if (!picked)
        return false;
    FluckSettings next = mSettings;
    next.format = FluckFormat(format);
    setSettings(next);
    return true;
}

ParameterList HistogramFluckTiles::parameters()
{
    const FluckSettings d;
    ParameterList list;
    list.items.push_back(
        enumParameter("fluck-tiles.format", "Render target", mSettings.format, {"r32ui", "r32f"}, d.format));
    list.commit = [this] { setSettings(FluckSettings(mSettings)); };  // as ui() does
    return list;
}

}  // namespace post
