// HistogramFluckTiles.h: fluck-tiles, local tile histograms gathered in fragment passes, then a
// texture reduce.
//
// Paper: Fluck, Aharon, Cremers, Rousson, "GPU histogram computation", SIGGRAPH 2006 poster (and
// US patent 7,889,922): the image texture is split into tiles whose area is at least the bin count;
// each texel of a tile stands for one bin (by its position in the tile) and counts that bin's
// pixels over its tile by gathering them; passes that halve the texture, each summing the same
// texel of neighbouring tiles, reduce the tile histograms to the global one in O(log N) passes.
// Here: tile side T = ceil(sqrt(B)) (T*T >= B); a classify pass first stores every pixel's hdBinOf
// code in an R32I texture (so the gather compares integers); the local pass writes a
// ceil(W/T)*T x ceil(H/T)*T texture; each reduce pass halves the tile grid (rounding up, missing
// tiles count 0, so any size works down to 1x1); a compute pass copies the last tile into the
// histogram buffer; a compute census fills the counters. Render targets: R32UI (default, exact)
// or R32F (exact while a count stays below 2^24 = 16.7M pixels).
// Limits: O(N * B) texture fetches (every pixel is fetched T*T ~ B times), so it is slow for large
// bin counts; the intermediate texture is up to (W + T - 1) x (H + T - 1).
#pragma once

#include "gl/Framebuffer.h"
#include "gl/VertexArray.h"
#include "post/histogram/HistogramMethod.h"
#include "post/histogram/HistogramPassCommon.h"

#include <vector>

namespace post {

enum class FluckFormat { R32UI, R32F };

struct FluckSettings
{
    FluckFormat format = FluckFormat::R32UI;
};

class HistogramFluckTiles : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "fluck-tiles";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Fluck 2006: tile histograms + texture reduce"; }
    std::string_view description() const override;
    std::string limits() const override;
    std::string status() const override;

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

    bool ui() override;
    ParameterList parameters() override;
    const FluckSettings& settings() const { return mSettings; }
    void setSettings(const FluckSettings& settings);

    /// Tile side for a bin count: ceil(sqrt(binCount)).
    static int tileSideFor(std::uint32_t binCount);

private:
    struct Level
    {
        gl::Texture texture;
        gl::Framebuffer framebuffer;
        glm::ivec2 tiles{0};
    };
    void ensureResources(PassContext& ctx, glm::ivec2 size, std::uint32_t binCount);

    FluckSettings mSettings;
    gl::Program mClassifyProgram;
    gl::Program mLocalProgram;
    gl::Program mReduceProgram;
    gl::Program mCopyProgram;
    gl::VertexArray mVertexArray;
    gl::Texture mCodes;
    gl::Framebuffer mCodesFramebuffer;
    std::vector<Level> mLevels;
    glm::ivec2 mSize{0};
    std::uint32_t mBinCount = 0;
    int mTile = 0;
    FluckFormat mBuiltFormat = FluckFormat::R32UI;
    CounterCensus mCensus;
};

}  // namespace post
