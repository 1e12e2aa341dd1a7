// DeferredLighting.cpp: the pre-pass and G-buffer state, the G-buffer images and the lighting
// dispatch (see DeferredLighting.h).
#include "scene/DeferredLighting.h"

namespace scene {
namespace {

// Image units: GBuffer.glsl; texture unit: DeferredLighting.comp.
constexpr GLuint kColorImageUnit = 0;
constexpr GLuint kSurfaceImageUnit = 1;
constexpr GLuint kNormalImageUnit = 2;
constexpr GLuint kMaterialImageUnit = 3;
constexpr GLuint kDepthUnit = 9;
constexpr GLuint kTileSize = 8;  // DeferredLighting.comp's local_size_x/y

GLuint groupsFor(int count)
{
    return (GLuint(count) + kTileSize - 1) / kTileSize;
}

}  // namespace

DeferredLighting::DeferredLighting(gl::ShaderLibrary& shaders, GLenum colorFormat, bool environment)
    : mColorFormat(colorFormat)
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

void DeferredLighting::light(const gl::Texture& color, const gl::Texture& depth) const
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    bindImages(color);
    depth.bindUnit(kDepthUnit);
    glBindSampler(kDepthUnit, 0);  // the texture's own nearest filtering
    mLighting.use();
    glDispatchCompute(groupsFor(mSize.x), groupsFor(mSize.y), 1);
    // The frame's readers vary (compute image loads and texture fetches, blits, screenshots, CUDA);
    // one full barrier per frame costs nothing measurable.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

}  // namespace scene
