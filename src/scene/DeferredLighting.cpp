// DeferredLighting.cpp: the pre-pass and G-buffer state, the G-buffer images and the lighting
// dispatch (see DeferredLighting.h).
#include "scene/DeferredLighting.h"

#include "scene/PixelInjection.h"
#include "shared/HostDevice.h"

#include <algorithm>
#include <vector>

namespace scene {
namespace {

// Image units: GBuffer.glsl; texture unit: DeferredLighting.comp.
constexpr GLuint kColorImageUnit = 0;
constexpr GLuint kSurfaceImageUnit = 1;
constexpr GLuint kNormalImageUnit = 2;
constexpr GLuint kMaterialImageUnit = 3;
constexpr GLuint kDepthUnit = 9;
constexpr GLuint kTileSize = 8;  // DeferredLighting.comp's local_size_x/y
static_assert(kTileSize == hd::kFusedTileSize, "the fused histogram's tiles are the lighting pass's workgroups");

GLuint groupsFor(int count)
{
    return (GLuint(count) + kTileSize - 1) / kTileSize;
}

}  // namespace

DeferredLighting::DeferredLighting(gl::ShaderLibrary& shaders, GLenum colorFormat, bool environment)
    : mShaders(&shaders), mColorFormat(colorFormat)
{
    const std::string targetFormat = colorFormat == GL_RGBA32F ? "rgba32f" : "rgba16f";
    mPrepass = shaders.buildGraphics("scene.depthPrepass", "scene/Scene.vert", "scene/DepthPrepass.frag");
    mPrepassMasked = shaders.buildGraphics("scene.depthPrepassMasked", "scene/Scene.vert", "scene/DepthPrepass.frag",
                                           {{"SCENE_ALPHA_MASK", "1"}});
    mGeometry = shaders.buildGraphics("scene.gbuffer", "scene/Scene.vert", "scene/Scene.frag",
                                      {{"SCENE_GBUFFER", "1"}, {"SCENE_TARGET_FORMAT", targetFormat}});
    gl::ShaderDefines defines{{"SCENE_TARGET_FORMAT", targetFormat}};
    if (environment)
        defines.emplace_back("SCENE_ENVIRONMENT", "1");
    mLighting = shaders.buildCompute("scene.deferredLighting", "scene/DeferredLighting.comp", defines);
    mLightingDefines = std::move(defines);
}

void DeferredLighting::attach(const gl::Texture& color, const gl::Texture& depth)
{
    mSize = color.size();
    mSurface = gl::Texture("scene.gbuffer.surface", GL_RGBA32UI, mSize);
    mNormal = gl::Texture("scene.gbuffer.normal", GL_RG32F, mSize);
    mMaterial = gl::Texture("scene.gbuffer.material", GL_RGBA16, mSize);
    mFramebuffer = gl::Framebuffer("scene.gbuffer.framebuffer");
    mFramebuffer.attachTexture(GL_DEPTH_STENCIL_ATTACHMENT, depth);
    mFramebuffer.setDrawBuffers({GL_NONE});
    mFramebuffer.checkComplete("scene.gbuffer.framebuffer");
}

void DeferredLighting::beginDepthPrepass() const
{
    glClearNamedFramebufferfi(mFramebuffer.id(), GL_DEPTH_STENCIL, 0, 1.0f, 0);
    mFramebuffer.bind();
    glViewport(0, 0, mSize.x, mSize.y);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
}

void DeferredLighting::bindImages(const gl::Texture& color) const
{
    color.bindImage(kColorImageUnit, GL_READ_WRITE, mColorFormat, 0);
    mSurface.bindImage(kSurfaceImageUnit, GL_READ_WRITE, GL_RGBA32UI, 0);
    mNormal.bindImage(kNormalImageUnit, GL_READ_WRITE, GL_RG32F, 0);
    mMaterial.bindImage(kMaterialImageUnit, GL_READ_WRITE, GL_RGBA16, 0);
}

void DeferredLighting::beginGeometry(const gl::Texture& color) const
{
    bindImages(color);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_EQUAL);
    glDepthMask(GL_FALSE);
    // Stencil 0 -> 1 on the first fragment that passes: later exact ties fail, as under GL_LESS.
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_EQUAL, 0, 0xff);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
}

void DeferredLighting::endGeometry() const
{
    glDisable(GL_STENCIL_TEST);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
}

const gl::Program& DeferredLighting::prepareFused(const FusedHistogramOutputs& fused)
{
    const bool foveal = fused.fovealSums != nullptr;
    gl::Program& program = mFusedLighting[foveal ? 1 : 0];
    if (!program) {
        gl::ShaderDefines defines = mLightingDefines;
        defines.emplace_back("FUSED_HISTOGRAM", "1");
        defines.emplace_back("FUSED_FOVEAL", foveal ? "1" : "0");
        defines.emplace_back("FUSED_HALF_TARGET", mColorFormat == GL_RGBA16F ? "1" : "0");
        program =
            mShaders->buildCompute(foveal ? "scene.deferredLighting.fused.foveal" : "scene.deferredLighting.fused",
                                   "scene/DeferredLighting.comp", defines);
    }
    // The preset's injected texels as ascending linear indices (scene::injectionPositions' order).
    const PixelInjection& inject = fused.inject;
    if (!mInjectedTexels || mInjectedSize != mSize || mInjectedRequest.nan != inject.nan ||
        mInjectedRequest.inf != inject.inf || mInjectedRequest.negative != inject.negative) {
        const std::vector<glm::ivec2> positions = injectionPositions(mSize, inject.total());
        std::vector<std::uint32_t> indices;
        indices.reserve(positions.size() + 1);
        for (const glm::ivec2 p : positions)
            indices.push_back(std::uint32_t(p.y) * std::uint32_t(mSize.x) + std::uint32_t(p.x));
        // A small frame gets the first texels only, in injectPixels' order: NaN, then +Inf, then negative.
        const int count = int(indices.size());
        mInjectedCounts.nan = std::min(inject.nan, count);
        mInjectedCounts.inf = std::min(inject.inf, count - mInjectedCounts.nan);
        mInjectedCounts.negative = count - mInjectedCounts.nan - mInjectedCounts.inf;
        indices.push_back(0u);  // never empty: a buffer is bound even without injection
        mInjectedTexels =
            gl::Buffer::fromSpan("scene.deferredLighting.injected-texels", std::span<const std::uint32_t>(indices));
        mInjectedSize = mSize;
        mInjectedRequest = inject;
    }
    fused.params->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingFusedParams);
    fused.histogram->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingFusedHistogram);
    mInjectedTexels.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingFusedInjection);
    glProgramUniform3i(program.id(), hd::kFusedInjectionLocation, mInjectedCounts.nan, mInjectedCounts.inf,
                       mInjectedCounts.negative);
    if (foveal) {
        fused.fovealSums->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingFusedFoveal);
        glProgramUniform4i(program.id(), hd::kFusedFovealLocation, fused.fovealGrid.x, fused.fovealGrid.y,
                           fused.fovealSpan.x, fused.fovealSpan.y);
    }
    return program;
}

void DeferredLighting::light(const gl::Texture& color, const gl::Texture& depth, const FusedHistogramOutputs* fused)
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    bindImages(color);
    depth.bindUnit(kDepthUnit);
    glBindSampler(kDepthUnit, 0);  // the texture's own nearest filtering
    const bool fusing = fused && fused->params && fused->histogram;
    (fusing ? prepareFused(*fused) : mLighting).use();
    glDispatchCompute(groupsFor(mSize.x), groupsFor(mSize.y), 1);
    // The frame's readers vary (compute image loads and texture fetches, blits, screenshots, CUDA);
    // one full barrier per frame costs nothing measurable.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    if (fusing && fused->written)
        *fused->written = true;
}

}  // namespace scene
