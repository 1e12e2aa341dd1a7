// HistogramGreenOcclusion.h: green-occlusion, one occlusion-query pass per bin.
//
// Paper: S. Green, "Image Processing Tricks in OpenGL", GDC 2005 (as described by Kubias et al.
// 2007 and Scheuermann & Hensley 2007): for each bin draw a full-screen pass whose fragment shader
// discards the pixels outside that bin and count the survivors with a GL_SAMPLES_PASSED query.
// Here a first pass stores each pixel's hdBinOf code in an R32I texture (the paper's passes test
// the luminance against the bin's bounds; comparing codes costs the same fetch and compare per pass
// and keeps hdBinOf's exact edges); then one pass per bin plus one per no-bin code (NaN, Inf,
// L <= 0, below, above) fills bins and counters the same way. Modes:
//   - query buffer (default): results go straight into the histogram buffer through a query buffer
//     object (glGetQueryBufferObjectuiv, GL 4.4), so the CPU never waits;
//   - classic: results are read on the CPU in the same frame, as the paper did, and uploaded: the
//     status line shows how long the CPU stalled;
//   - Valve (Mitchell, McTaggart, Green, "Shading in Valve's Source Engine", SIGGRAPH 2006): only K
//     slots per frame, round robin, the others keep their counts from earlier frames (so the
//     histogram never represents one single frame). After a change of bins, policy or size the
//     first frame refreshes every slot so the histogram is never half empty.
// Limits: O(N * B) fragment work: binCount + 5 full-screen passes per frame. On Hopper data-centre
// GPUs only two TPCs rasterise, so the passes run on a small part of the chip.
#pragma once

#include "gl/Framebuffer.h"
#include "gl/Query.h"
#include "gl/VertexArray.h"
#include "post/histogram/HistogramMethod.h"

#include <vector>

namespace post {

enum class GreenMode { QueryBuffer, Classic, Valve };

struct GreenSettings
{
    GreenMode mode = GreenMode::QueryBuffer;
    std::uint32_t valveSlotsPerFrame = 16;  ///< K in Valve mode (Valve's engine used 1)
};

class HistogramGreenOcclusion : public HistogramMethod
{
public:
    static constexpr std::string_view kId = "green-occlusion";

    std::string_view id() const override { return kId; }
    std::string_view label() const override { return "Green 2005: occlusion query per bin"; }
    std::string_view description() const override;
    Availability availability(const GpuCaps& caps) const override;
    std::string limits() const override { return "bins + 5 full-screen passes per frame (O(N*B))"; }

    void build(PassContext& ctx,
               const ImageInput& image,
               const HistogramSpec& spec,
               const HistogramTargets& targets) override;

    bool ui() override;
    ParameterList parameters() override;
    std::string status() const override;

    const GreenSettings& settings() const { return mSettings; }
    void setSettings(const GreenSettings& settings);

private:
    struct Slot
    {
        int code = 0;            ///< hdBinOf code the pass keeps
        std::uint32_t word = 0;  ///< histogram buffer word it counts into
    };
    Slot slotAt(std::uint32_t index, std::uint32_t binCount) const;
    void ensureResources(PassContext& ctx, glm::ivec2 size, std::uint32_t slotCount);
    void runPasses(PassContext& ctx,
                   const ImageInput& image,
                   const HistogramTargets& targets,
                   const std::vector<std::uint32_t>& slots,
                   std::uint32_t binCount);

    GreenSettings mSettings;
    gl::Program mCodesProgram;
    gl::Program mProgram;
    gl::VertexArray mVertexArray;
    gl::Texture mCodes;
    gl::Framebuffer mCodesFramebuffer;
    gl::Framebuffer mFramebuffer;
    glm::ivec2 mFramebufferSize{0};
    std::vector<gl::Query> mQueries;
    gl::Buffer mValveCounts;  ///< Valve mode: slot counts kept across frames (histogram layout)
    std::uint32_t mValveBinCount = 0;
    OutOfRange mValvePolicy = OutOfRange::Clamp;
    glm::ivec2 mValveSize{0};
    std::uint32_t mValveNext = 0;
    std::uint32_t mLastPasses = 0;
    std::uint32_t mLastSlotCount = 0;
    double mLastStallMs = 0.0;
};

}  // namespace post
