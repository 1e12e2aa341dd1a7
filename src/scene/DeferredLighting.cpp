// DeferredLighting.cpp: G-buffer targets, the geometry programs and the lighting dispatch (see
// DeferredLighting.h).
#include "scene/DeferredLighting.h"

namespace scene {
namespace {

constexpr GLuint kSurfaceUnit = 9;    // DeferredLighting.comp
constexpr GLuint kNormalUnit = 10;    // DeferredLighting.comp
constexpr GLuint kMaterialUnit = 11;  // DeferredLighting.comp
constexpr GLuint kColorImageUnit = 0;
constexpr GLuint kTileSize = 8;       // local_size_x/y

GLuint groupsFor(int count)
{
    return (GLuint(count) + kTileSize - 1) / kTileSize;
}

}  // namespace

DeferredLighting::DeferredLighting(gl::ShaderLibrary& shaders, GLenum colorFormat, bool environment)
    : mColorFormat(colorFormat)
{
    mGeometry = shaders.buildGraphics("scene.gbuffer", "scene/Scene.vert", "scene/Scene.frag", {{"SCENE_GBUFFER", "1"}});
    mGeometryMasked = shaders.buildGraphics("scene.gbufferMasked", "scene/Scene.vert", "scene/Scene.frag",
                                            {{"SCENE_GBUFFER", "1"}, {"SCENE_ALPHA_MASK", "1"}});
    gl::ShaderDefines defines{{"SCENE_TARGET_FORMAT", colorFormat == GL_RGBA32F ? "rgba32f" : "rgba16f"}};
    if (environment)
        defines.emplace_back("SCENE_ENVIRONMENT", "1");
    mLighting = shaders.buildCompute("scene.deferredLighting", "scene/DeferredLighting.comp", defines);
}

void DeferredLighting::attach(const gl::Texture& color, const gl::Texture& depth)
{
    mSize = color.size();
    mSurface = gl::Texture("scene.gbuffer.surface", GL_RGBA32UI, mSize);
    mSurface.setFilter(GL_NEAREST, GL_NEAREST);  // integer textures are incomplete with linear filtering
    mNormal = gl::Texture("scene.gbuffer.normal", GL_RG32F, mSize);
    mNormal.setFilter(GL_NEAREST, GL_NEAREST);
    mMaterial = gl::Texture("scene.gbuffer.material", GL_RGBA16, mSize);
    mMaterial.setFilter(GL_NEAREST, GL_NEAREST);
    mFramebuffer = gl::Framebuffer("scene.gbuffer.framebuffer");
    mFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, color);
    mFramebuffer.attachTexture(GL_COLOR_ATTACHMENT1, mSurface);
    mFramebuffer.attachTexture(GL_COLOR_ATTACHMENT2, mNormal);
    mFramebuffer.attachTexture(GL_COLOR_ATTACHMENT3, mMaterial);
    mFramebuffer.attachTexture(GL_DEPTH_ATTACHMENT, depth);
    mFramebuffer.setDrawBuffers(
        {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT2, GL_COLOR_ATTACHMENT3});
    mFramebuffer.checkComplete("scene.gbuffer.framebuffer");
}

void DeferredLighting::beginGeometry() const
{
    // Zero marks the sky; the colour target needs no clear (every pixel is written by light()).
    const GLuint sky[4] = {0, 0, 0, 0};
    const float clearDepth = 1.0f;
    glClearNamedFramebufferuiv(mFramebuffer.id(), GL_COLOR, 1, sky);
    glClearNamedFramebufferfv(mFramebuffer.id(), GL_DEPTH, 0, &clearDepth);
    mFramebuffer.bind();
    glViewport(0, 0, mSize.x, mSize.y);
}

void DeferredLighting::light(const gl::Texture& color) const
{
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    mSurface.bindUnit(kSurfaceUnit);
    mNormal.bindUnit(kNormalUnit);
    mMaterial.bindUnit(kMaterialUnit);
    for (GLuint unit : {kSurfaceUnit, kNormalUnit, kMaterialUnit})
        glBindSampler(unit, 0);  // a sampler object's linear filter would make the integer one incomplete
    color.bindImage(kColorImageUnit, GL_READ_WRITE, mColorFormat, 0);
    mLighting.use();
    glDispatchCompute(groupsFor(mSize.x), groupsFor(mSize.y), 1);
    // The frame's readers vary (compute image loads and texture fetches, blits, screenshots, CUDA);
    // one full barrier per frame costs nothing measurable.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

}  // namespace scene
