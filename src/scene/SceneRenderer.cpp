// SceneRenderer.cpp: the scene's shadow, opaque and sky passes (see SceneRenderer.h).
#include "scene/SceneRenderer.h"

#include "gl/Debug.h"
#include "gl/ExternalObjects.h"
#include "profiling/Profiler.h"
#include "scene/EnvironmentSun.h"
#include "scene/InteriorLight.h"
#include "scene/PrimitiveMesh.h"

#include <glm/common.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>

namespace scene {
namespace {

constexpr GLuint kFrameBlockBinding = 0;  // SceneFrame.glsl
constexpr GLuint kMaterialBinding = 0;    // SceneFrame.glsl
constexpr GLuint kSunShadowUnit = 0;      // Scene.frag
constexpr GLuint kSkyOcclusionUnit = 1;   // Scene.frag
constexpr GLuint kSkyUndersideUnit = 7;   // Scene.frag
constexpr GLuint kNearShadowUnit = 8;     // Scene.frag
constexpr GLuint kFrameStatsBinding = 1;  // PreExposure.glsl
constexpr GLuint kCensusUnit = 0;         // FrameCensus.comp
constexpr GLuint kCensusGroupSize = 16;   // FrameCensus.comp's local_size_x/y
// The near sun cascade covers the camera's view up to this distance (m): about 3x finer texels than
// a whole-house map in the default scene, where the sunlit floor patches are.
constexpr float kNearShadowDistance = 6.0f;
constexpr GLuint kBaseColorUnit = 2;  // Scene.frag, Shadow.frag: units 2..6 in MaterialTextures order
constexpr int kMaterialTextureCount = 5;
constexpr GLint kLightMatrixLocation = 0;  // Shadow.vert
constexpr int kSkyOcclusionMapSize = 512;
// Output clamps (uOutputRange in SceneFrame.glsl): the plain RGBA16F frame of FrameFormat::Auto stays
// below the half-float overflow at 65504 with a margin; the pre-exposed one clamps at 65504 itself
// (kHalfFloatMax: every value between is stored as it rounds, and what clips is counted); RGBA32F far
// above the sun (~1.6e9 cd/m²) yet small enough that sums of a frame stay finite.
constexpr float kHalfFloatMaxRadiance = 60000.0f;
constexpr float kFloatMaxRadiance = 1.0e12f;
// A float above this is stored in RGBA16F as kHalfFloatMaxRadiance (half a half-float step below it,
// round to nearest even): the plain half frame's clip threshold.
constexpr float kHalfFloatRoundsToClamp = 59984.0f;

// FrameFormat::Auto: RGBA32F only where the scene's range needs it (a sun in the sky or an emitter
// above what a half float holds): it doubles the frame's memory traffic, which night scenes need not pay.
GLenum colorFormatFor(const Scene& scene, FrameFormat format)
{
    if (format != FrameFormat::Auto)
        return format == FrameFormat::Rgba32f ? GL_RGBA32F : GL_RGBA16F;
    float peak = scene.sun.elevationDegrees > 0.0f ? scene.sun.discLuminance() : 0.0f;
    for (const Material& m : scene.materials) {
        glm::vec3 emission = m.emissionColor * m.emissionLuminance;
        peak = std::max(peak, std::max(emission.x, std::max(emission.y, emission.z)));
    }
    return peak > kHalfFloatMaxRadiance ? GL_RGBA32F : GL_RGBA16F;
}

struct GpuPointLight
{
    glm::vec4 positionRange;
    glm::vec4 intensity;
};

// std140 mirror of the SceneFrame block: only mat4/vec4/ivec4 members, so no padding surprises.
struct SceneFrameBlock
{
    glm::mat4 viewProjection;
    glm::mat4 inverseViewProjection;
    glm::mat4 sunShadowMatrix;
    glm::mat4 skyOcclusionMatrix;
    glm::mat4 skyUndersideMatrix;
    glm::mat4 sunNearShadowMatrix;
    glm::vec4 cameraPosition;
    glm::vec4 sunDirection;
    glm::vec4 sunIlluminance;
    glm::vec4 sunDisc;
    glm::vec4 skyZenith;
    glm::vec4 skyHorizon;
    glm::vec4 skyGround;
    glm::vec4 ambientOutdoor;
    glm::vec4 ambientIndoor;
    glm::vec4 shadowParams;
    glm::vec4 outputRange;
    glm::vec4 nearShadowParams;
    glm::ivec4 lightCount;
    std::array<GpuPointLight, kMaxPointLights> lights;
};
static_assert(sizeof(SceneFrameBlock) == 6 * 64 + 12 * 16 + 16 + kMaxPointLights * 32);

struct GpuMaterial
{
    glm::vec4 baseColorRoughness;
    glm::vec4 emissionMetalness;
    glm::vec4 normalOcclusionCutoffAlpha;  ///< normal scale (0: no normal map), occlusion strength, cutoff, alpha
};

GLenum glWrapOf(TextureWrap wrap)
{
    switch (wrap) {
        case TextureWrap::ClampToEdge:
            return GL_CLAMP_TO_EDGE;
        case TextureWrap::MirroredRepeat:
            return GL_MIRRORED_REPEAT;
        case TextureWrap::Repeat:
            break;
    }
    return GL_REPEAT;
}

// Maps world space to [0,1]^3 of an orthographic view along `towardsLight` that encloses the box.
glm::mat4 orthographicFit(glm::vec3 towardsLight, glm::vec3 boundsMin, glm::vec3 boundsMax)
{
    glm::vec3 centre = (boundsMin + boundsMax) * 0.5f;
    float radius = std::max(glm::length(boundsMax - boundsMin) * 0.5f, 1e-3f);
    glm::vec3 up = std::abs(towardsLight.y) > 0.99f ? glm::vec3(0, 0, -1) : glm::vec3(0, 1, 0);
    glm::mat4 view = glm::lookAt(centre + towardsLight * radius * 2.0f, centre, up);
    glm::vec3 lo(std::numeric_limits<float>::max());
    glm::vec3 hi(-std::numeric_limits<float>::max());
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? boundsMax.x : boundsMin.x, (corner & 2) ? boundsMax.y : boundsMin.y,
                    (corner & 4) ? boundsMax.z : boundsMin.z);
        glm::vec3 q = glm::vec3(view * glm::vec4(p, 1.0f));
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    }
    // View space looks down -Z: near/far are the negated z extremes, padded so nothing is clipped.
    float pad = 0.01f * radius;
    glm::mat4 projection = glm::ortho(lo.x - pad, hi.x + pad, lo.y - pad, hi.y + pad, -hi.z - pad, -lo.z + pad);
    glm::mat4 toUnit = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f)) * glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
    return toUnit * projection * view;
}

// Shadow-map depth texture with hardware depth comparison, so sampler2DShadow does bilinear PCF.
gl::Texture makeComparisonDepth(std::string_view label, int size)
{
    gl::Texture texture = gl::Texture::depth(label, GL_DEPTH_COMPONENT32F, {size, size});
    texture.setFilter(GL_LINEAR, GL_LINEAR);
    glTextureParameteri(texture.id(), GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTextureParameteri(texture.id(), GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    return texture;
}

// World size of one texel of an orthographic sun map (its [0,1] square spans the map's side).
float worldTexelOf(const glm::mat4& unitMatrix, int mapSize)
{
    glm::mat4 inverse = glm::inverse(unitMatrix);
    glm::vec3 extent = glm::vec3(inverse * glm::vec4(1, 1, 0, 1) - inverse * glm::vec4(0, 0, 0, 1));
    return glm::length(extent) / std::sqrt(2.0f) / float(mapSize);
}

// The near cascade: an orthographic sun view around the bounding sphere of the camera's frustum up to
// kNearShadowDistance, of fixed size for a given field of view and snapped to whole texels, so a
// moving camera does not make its shadow edges crawl. Depth covers every caster towards the sun.
glm::mat4 nearSunFit(const Camera& camera,
                     float aspect,
                     glm::vec3 towardsSun,
                     glm::vec3 castersMin,
                     glm::vec3 castersMax,
                     int mapSize)
{
    const float d = kNearShadowDistance;
    float tanY = std::tan(glm::radians(camera.verticalFovDegrees) * 0.5f);
    float offAxis = d * tanY * std::sqrt(1.0f + aspect * aspect);
    float along = std::min(d, (d * d + offAxis * offAxis) / (2.0f * d));
    float radius = std::max(along, std::sqrt((d - along) * (d - along) + offAxis * offAxis));
    radius = std::ceil(radius * 2.0f) * 0.5f;
    glm::vec3 up = std::abs(towardsSun.y) > 0.99f ? glm::vec3(0, 0, -1) : glm::vec3(0, 1, 0);
    glm::mat4 view = glm::lookAt(glm::vec3(0.0f), -towardsSun, up);
    glm::vec3 centre = glm::vec3(view * glm::vec4(camera.position + camera.forward() * along, 1.0f));
    float texel = 2.0f * radius / float(mapSize);
    centre = glm::vec3(glm::floor(glm::vec2(centre) / texel) * texel, centre.z);
    float zMin = std::numeric_limits<float>::max();
    float zMax = -std::numeric_limits<float>::max();
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? castersMax.x : castersMin.x, (corner & 2) ? castersMax.y : castersMin.y,
                    (corner & 4) ? castersMax.z : castersMin.z);
        float z = (view * glm::vec4(p, 1.0f)).z;
        zMin = std::min(zMin, z);
        zMax = std::max(zMax, z);
    }
    float pad = 0.01f * (zMax - zMin) + 0.1f;
    glm::mat4 projection = glm::ortho(centre.x - radius, centre.x + radius, centre.y - radius, centre.y + radius,
                                      -zMax - pad, -zMin + pad);
    glm::mat4 toUnit = glm::translate(glm::mat4(1.0f), glm::vec3(0.5f)) * glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
    return toUnit * projection * view;
}

float cieIndicatrix(float gamma)
{
    float c = std::cos(gamma);
    return 1.0f + 10.0f * (std::exp(-3.0f * gamma) - std::exp(-3.0f * float(std::numbers::pi) / 2.0f)) + 0.45f * c * c;
}

// A named pass: timed by the profiler when there is one (its scope also pushes the debug group),
// otherwise just a debug group for RenderDoc/Nsight.
class PassScope
{
public:
    PassScope(profiling::Profiler* profiler, std::string_view name)
    {
        if (profiler)
            mTimed.emplace(profiler->scope(name));
        else
            mGroup.emplace(name);
    }

private:
    std::optional<profiling::Profiler::Scope> mTimed;
    std::optional<gl::DebugGroup> mGroup;
};

}  // namespace

SceneRenderer::SceneRenderer(gl::ShaderLibrary& shaders, const Scene& scene, FrameFormat format)
    : mScene(scene), mFrameFormat(format), mShaders(&shaders)
{
    std::optional<image::ImageF> environmentMap;
    if (mScene.sky.environment) {
        environmentMap = loadEnvironmentImage(mScene, shaders.root().parent_path());
        // The map's own sun becomes the analytic one before anything reads the sun.
        if (mScene.sun.fromEnvironment)
            takeSunFromEnvironment(mScene, *environmentMap);
    }
    mColorFormat = colorFormatFor(mScene, mFrameFormat);
    if (mScene.interior)
        mInterior = InteriorLighting(interiorLightFor(mScene));
    mShadowProgram = shaders.buildGraphics("scene.shadow", "scene/Shadow.vert", "scene/Shadow.frag");
    mShadowMaskedProgram = shaders.buildGraphics("scene.shadowMasked", "scene/Shadow.vert", "scene/Shadow.frag",
                                                 {{"SCENE_ALPHA_MASK", "1"}});
    if (environmentMap) {
        mEnvironment.emplace(shaders, *environmentMap, environmentOptionsFor(mScene));
        environmentMap.reset();
        mOpaqueProgram =
            shaders.buildGraphics("scene.opaque", "scene/Scene.vert", "scene/Scene.frag", {{"SCENE_ENVIRONMENT", "1"}});
        mOpaqueMaskedProgram = shaders.buildGraphics("scene.opaqueMasked", "scene/Scene.vert", "scene/Scene.frag",
                                                     {{"SCENE_ENVIRONMENT", "1"}, {"SCENE_ALPHA_MASK", "1"}});
        mSkyProgram =
            shaders.buildGraphics("scene.environmentSky", "scene/FullscreenTriangle.vert", "scene/EnvironmentSky.frag");
    } else {
        mOpaqueProgram = shaders.buildGraphics("scene.opaque", "scene/Scene.vert", "scene/Scene.frag");
        mOpaqueMaskedProgram = shaders.buildGraphics("scene.opaqueMasked", "scene/Scene.vert", "scene/Scene.frag",
                                                     {{"SCENE_ALPHA_MASK", "1"}});
        mSkyProgram = shaders.buildGraphics("scene.sky", "scene/FullscreenTriangle.vert", "scene/Sky.frag");
    }

    TriangleMesh mesh = buildSceneMesh(mScene);
    mVertices = gl::Buffer::fromSpan<MeshVertex>("scene.vertices", mesh.vertices);
    mIndices = gl::Buffer::fromSpan<std::uint32_t>("scene.indices", mesh.indices);
    mIndexCount = GLsizei(mesh.indices.size());
    mShadowIndexCount = GLsizei(mesh.shadowCasterIndexCount);
    mBatches = mesh.batches;
    mMeshArray = gl::VertexArray("scene.mesh");
    mMeshArray.setVertexBuffer(0, mVertices, 0, sizeof(MeshVertex));
    mMeshArray.setIndexBuffer(mIndices);
    mMeshArray.setAttribute(0, 0, 3, offsetof(MeshVertex, position));
    mMeshArray.setAttribute(1, 0, 3, offsetof(MeshVertex, normal));
    mMeshArray.setAttribute(2, 0, 1, offsetof(MeshVertex, material));
    mMeshArray.setAttribute(3, 0, 2, offsetof(MeshVertex, texcoord));
    mMeshArray.setAttribute(4, 0, 4, offsetof(MeshVertex, tangent));
    mEmptyArray = gl::VertexArray("scene.fullscreen");

    std::vector<GpuMaterial> materials;
    for (const Material& m : mScene.materials)
        materials.push_back({glm::vec4(m.baseColor, m.roughness),
                             glm::vec4(m.emissionColor * m.emissionLuminance, m.metalness),
                             glm::vec4(m.textures.normal >= 0 ? m.normalScale : 0.0f, m.occlusionStrength,
                                       m.alphaMode == AlphaMode::Mask ? m.alphaCutoff : -1.0f, m.baseAlpha)});
    mMaterials = gl::Buffer::fromSpan<GpuMaterial>("scene.materials", materials);
    mFrameBlock = gl::Buffer("scene.frame", sizeof(SceneFrameBlock));
    mFrameStats = gl::Buffer("scene.frameStats", hd::kFrameStatsWords * sizeof(std::uint32_t));
    mFrameStats.clearUint(0u);
    uploadTextures();

    // Both maps cover the shadow casters (or the scene's explicit bounds); receivers outside count
    // as unshadowed and open to the sky.
    glm::vec3 lo = mesh.casterBoundsMin;
    glm::vec3 hi = mesh.casterBoundsMax;
    if (mScene.sun.shadowBounds) {
        lo = mScene.sun.shadowBounds->first;
        hi = mScene.sun.shadowBounds->second;
    }
    hi = glm::max(hi, lo + glm::vec3(1e-3f));
    glm::vec3 towardsSun = mScene.sun.direction();
    // A sun at or below the horizon lights nothing; its map is still made so the shader has one.
    mSunMatrix = orthographicFit(towardsSun.y > 0.01f ? towardsSun : glm::vec3(0, 1, 0), lo, hi);
    mCastersMin = lo;
    mCastersMax = hi;
    mSkyOcclusionMatrix = orthographicFit(glm::vec3(0, 1, 0), lo, hi);
    mSkyUndersideMatrix = orthographicFit(glm::vec3(0, -1, 0), lo, hi);

    mSunShadowMap = makeComparisonDepth("scene.sunShadowMap", mScene.sun.shadowMapSize);
    mSunShadowFramebuffer = gl::Framebuffer("scene.sunShadowFramebuffer");
    mSunShadowFramebuffer.attachTexture(GL_DEPTH_ATTACHMENT, mSunShadowMap);
    mSunShadowFramebuffer.setDrawBuffers({GL_NONE});
    mSunShadowFramebuffer.checkComplete("scene.sunShadowFramebuffer");
    mNearShadowMap = makeComparisonDepth("scene.sunNearShadowMap", mScene.sun.shadowMapSize);
    mNearShadowFramebuffer = gl::Framebuffer("scene.sunNearShadowFramebuffer");
    mNearShadowFramebuffer.attachTexture(GL_DEPTH_ATTACHMENT, mNearShadowMap);
    mNearShadowFramebuffer.setDrawBuffers({GL_NONE});
    mNearShadowFramebuffer.checkComplete("scene.sunNearShadowFramebuffer");
    mSkyOcclusionMap = makeComparisonDepth("scene.skyOcclusionMap", kSkyOcclusionMapSize);
    mSkyOcclusionFramebuffer = gl::Framebuffer("scene.skyOcclusionFramebuffer");
    mSkyOcclusionFramebuffer.attachTexture(GL_DEPTH_ATTACHMENT, mSkyOcclusionMap);
    mSkyOcclusionFramebuffer.setDrawBuffers({GL_NONE});
    mSkyOcclusionFramebuffer.checkComplete("scene.skyOcclusionFramebuffer");
    mSkyUndersideMap = makeComparisonDepth("scene.skyUndersideMap", kSkyOcclusionMapSize);
    mSkyUndersideFramebuffer = gl::Framebuffer("scene.skyUndersideFramebuffer");
    mSkyUndersideFramebuffer.attachTexture(GL_DEPTH_ATTACHMENT, mSkyUndersideMap);
    mSkyUndersideFramebuffer.setDrawBuffers({GL_NONE});
    mSkyUndersideFramebuffer.checkComplete("scene.skyUndersideFramebuffer");
}

void SceneRenderer::uploadTextures()
{
    const std::uint8_t white[4] = {255, 255, 255, 255};
    mWhiteTexture = gl::Texture("scene.whiteTexture", GL_RGBA8, {1, 1});
    mWhiteTexture.upload(GL_RGBA, GL_UNSIGNED_BYTE, white);
    for (const Texture& texture : mScene.textures) {
        const image::Image8& pixels = *texture.image;
        glm::ivec2 size(pixels.width, pixels.height);
        gl::Texture uploaded("scene.texture." + texture.name, texture.srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, size,
                             gl::mipLevelCount(size));
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        uploaded.upload(GL_RGBA, GL_UNSIGNED_BYTE, pixels.pixels.data());
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glGenerateTextureMipmap(uploaded.id());
        uploaded.setFilter(GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR);
        glTextureParameteri(uploaded.id(), GL_TEXTURE_WRAP_S, GLint(glWrapOf(texture.wrapS)));
        glTextureParameteri(uploaded.id(), GL_TEXTURE_WRAP_T, GLint(glWrapOf(texture.wrapT)));
        mTextures.push_back(std::move(uploaded));
    }
}

void SceneRenderer::bindMaterialTextures(int material) const
{
    std::array<int, kMaterialTextureCount> slots{-1, -1, -1, -1, -1};
    if (material >= 0) {
        const MaterialTextures& t = mScene.materials[std::size_t(material)].textures;
        slots = {t.baseColor, t.metallicRoughness, t.normal, t.emissive, t.occlusion};
    }
    for (int i = 0; i < kMaterialTextureCount; ++i) {
        const gl::Texture& texture =
            slots[std::size_t(i)] >= 0 ? mTextures[std::size_t(slots[std::size_t(i)])] : mWhiteTexture;
        texture.bindUnit(kBaseColorUnit + GLuint(i));
        glBindSampler(kBaseColorUnit + GLuint(i), 0);  // the texture's own filtering and wrap modes
    }
}

void SceneRenderer::setFrameFormat(FrameFormat format)
{
    if (format == mFrameFormat)
        return;
    mFrameFormat = format;
    const GLenum colorFormat = colorFormatFor(mScene, format);
    if (colorFormat == mColorFormat)
        return;
    mColorFormat = colorFormat;
    mDeferred.reset();  // its programs are built for the target's format
    mDeferredAttachedGeneration = -1;
    if (mColor.valid()) {
        mColor = gl::Texture();
        resize(mSize);
    }
}

void SceneRenderer::setTargetAllocator(gl::SharedAllocator* allocator)
{
    mTargetAllocator = allocator;
    if (!mColor.valid())
        return;
    mColor = gl::Texture();
    resize(mSize);
}

void SceneRenderer::resize(glm::ivec2 size)
{
    size = glm::max(size, glm::ivec2(1));
    if (size == mSize && mColor.valid())
        return;
    mSize = size;
    mColor = gl::createTexture(mTargetAllocator, "scene.hdrColor", mColorFormat, size);
    // Depth with stencil: the deferred path's G-buffer pass keeps the first of exact depth ties.
    mDepth = gl::Texture::depth("scene.depth", GL_DEPTH32F_STENCIL8, size);
    mFramebuffer = gl::Framebuffer("scene.framebuffer");
    mFramebuffer.attachTexture(GL_COLOR_ATTACHMENT0, mColor);
    mFramebuffer.attachTexture(GL_DEPTH_STENCIL_ATTACHMENT, mDepth);
    mFramebuffer.setDrawBuffers({GL_COLOR_ATTACHMENT0});
    mFramebuffer.checkComplete("scene.framebuffer");
    ++mTargetGeneration;
}

void SceneRenderer::renderShadowMaps()
{
    renderDepthMaps({DepthMapPass{&mSunShadowFramebuffer, &mSunShadowMap, &mSunMatrix},
                     DepthMapPass{&mSkyOcclusionFramebuffer, &mSkyOcclusionMap, &mSkyOcclusionMatrix},
                     DepthMapPass{&mSkyUndersideFramebuffer, &mSkyUndersideMap, &mSkyUndersideMatrix}});
    mShadowMapsValid = true;
}

void SceneRenderer::renderDepthMaps(std::initializer_list<DepthMapPass> passes)
{
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glDisable(GL_CULL_FACE);  // thin walls and single-sided planes must block light from either side
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    mMaterials.bindBase(GL_SHADER_STORAGE_BUFFER, kMaterialBinding);
    mMeshArray.bind();
    const float one = 1.0f;
    for (DepthMapPass pass : passes) {
        glClearNamedFramebufferfv(pass.framebuffer->id(), GL_DEPTH, 0, &one);
        pass.framebuffer->bind();
        glViewport(0, 0, pass.map->size().x, pass.map->size().y);
        // The shadow matrices map to [0,1]^3; the rasteriser wants clip space in [-1,1]^3.
        glm::mat4 toClip =
            glm::translate(glm::mat4(1.0f), glm::vec3(-1.0f)) * glm::scale(glm::mat4(1.0f), glm::vec3(2.0f));
        glm::mat4 clip = toClip * *pass.matrix;
        glProgramUniformMatrix4fv(mShadowProgram.id(), kLightMatrixLocation, 1, GL_FALSE, &clip[0][0]);
        if (mShadowIndexCount > 0) {
            mShadowProgram.use();
            glDrawElements(GL_TRIANGLES, mShadowIndexCount, GL_UNSIGNED_INT, nullptr);
        }
        // Alpha-masked casters: the cut-out parts let the light through.
        glProgramUniformMatrix4fv(mShadowMaskedProgram.id(), kLightMatrixLocation, 1, GL_FALSE, &clip[0][0]);
        for (const DrawBatch& batch : mBatches) {
            if (!batch.castsShadow || !batch.alphaMask)
                continue;
            mShadowMaskedProgram.use();
            bindMaterialTextures(batch.material);
            glDrawElements(GL_TRIANGLES, GLsizei(batch.indexCount), GL_UNSIGNED_INT,
                           reinterpret_cast<const void*>(batch.firstIndex * sizeof(std::uint32_t)));
        }
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
}

void SceneRenderer::uploadFrameBlock(const Camera& camera, const RenderOptions& options)
{
    const Sun& sun = mScene.sun;
    const Sky& sky = mScene.sky;
    float aspect = float(mSize.x) / float(mSize.y);
    SceneFrameBlock block{};
    block.viewProjection = camera.projection(aspect) * camera.view();
    block.inverseViewProjection = glm::inverse(block.viewProjection);
    block.sunShadowMatrix = mSunMatrix;
    block.skyOcclusionMatrix = mSkyOcclusionMatrix;
    block.skyUndersideMatrix = mSkyUndersideMatrix;
    block.sunNearShadowMatrix = mNearSunMatrix;
    block.cameraPosition = glm::vec4(camera.position, 1.0f);

    glm::vec3 towardsSun = sun.direction();
    float radius = glm::radians(sun.angularRadiusDegrees);
    float sunUp = sun.elevationDegrees > 0.0f ? 1.0f : 0.0f;
    block.sunDirection = glm::vec4(towardsSun, std::cos(radius));
    block.sunIlluminance = glm::vec4(sun.color * sun.illuminance * sunUp, 0.0f);
    const bool preExposed = mFrameFormat == FrameFormat::Rgba16f;
    const float maxStored = storedClamp();
    // The disc in cd/m²: a pre-exposed frame's clamp applies after the pre-exposure.
    float discLuminance = std::min(sun.discLuminance(), preExposed ? kFloatMaxRadiance : maxStored);
    block.sunDisc = glm::vec4(sun.color * discLuminance, options.drawSunDisc && sunUp > 0.0f ? 1.0f : 0.0f);

    // CIE clear sky normalisation 1 / (f(theta_s) * phi(0)), phi(0) = 1 - exp(-0.32).
    float sunZenith = glm::radians(90.0f - std::max(sun.elevationDegrees, 0.0f));
    float normaliser = 1.0f / (cieIndicatrix(sunZenith) * (1.0f - std::exp(-0.32f)));
    block.skyZenith = glm::vec4(sky.zenithColor, sky.zenithLuminance);
    block.skyHorizon = glm::vec4(sky.horizonColor, sky.model == SkyModel::CieClear ? 0.0f : 1.0f);
    // Lambertian ground under the sun and a sky of roughly zenith luminance.
    float groundLuminance =
        sky.groundAlbedo *
        (sun.illuminance * sunUp * std::max(towardsSun.y, 0.0f) / float(std::numbers::pi) + sky.zenithLuminance);
    block.skyGround = glm::vec4(glm::vec3(groundLuminance), normaliser);
    block.ambientOutdoor = glm::vec4(mScene.ambient.outdoor, 0.0f);
    block.ambientIndoor = glm::vec4(mScene.ambient.indoor, 0.0f);
    float shadowTexel = 1.0f / float(sun.shadowMapSize);
    // Normal offsets of about two shadow texels in world units.
    float worldTexel = worldTexelOf(mSunMatrix, sun.shadowMapSize);
    block.shadowParams = glm::vec4(shadowTexel, 1.0f / float(kSkyOcclusionMapSize), 2.0f * worldTexel, 0.0f);
    block.nearShadowParams = glm::vec4(shadowTexel, 2.0f * worldTexelOf(mNearSunMatrix, sun.shadowMapSize),
                                       mNearShadowValid ? 1.0f : 0.0f, 0.0f);
    // Statistics for every half-float frame (the clip threshold: what rounds to the clamp).
    const float clipThreshold = mColorFormat == GL_RGBA32F ? 0.0f
                                : preExposed               ? hd::kHalfFloatRoundsToMax
                                                           : kHalfFloatRoundsToClamp;
    block.outputRange =
        glm::vec4(maxStored, std::ldexp(1.0f, mPreExposure), std::ldexp(1.0f, -mPreExposure), clipThreshold);
    block.lightCount = glm::ivec4(int(mScene.lights.size()), 0, 0, 0);
    for (std::size_t i = 0; i < mScene.lights.size(); ++i) {
        const PointLight& light = mScene.lights[i];
        block.lights[i] = {glm::vec4(light.position, light.range), glm::vec4(light.color * light.intensity, 0.0f)};
    }
    mFrameBlock.update(0, sizeof(block), &block);
}

void SceneRenderer::render(const Camera& camera, const RenderOptions& options, profiling::Profiler* profiler)
{
    // k is decided (and kept in range) by its owner, PreExposureControl; here it is only checked.
    const int k = preExposed() ? options.preExposure.value_or(initialPreExposure(mScene)) : 0;
    if (k < hd::kMinPreExposure || k > hd::kMaxPreExposure)
        throw std::invalid_argument("scene renderer: pre-exposure k = " + std::to_string(k) + " is outside [" +
                                    std::to_string(hd::kMinPreExposure) + ", " + std::to_string(hd::kMaxPreExposure) +
                                    "]");
    if (!mColor.valid())
        resize({1, 1});
    if (!mShadowMapsValid) {
        PassScope pass(profiler, "scene/shadow");
        renderShadowMaps();
    } else if (profiler) {
        profiler->markCached("scene/shadow");  // the sun and the casters stay put: drawn once
    }
    // The near cascade follows the camera: redrawn only when its snapped fit moves.
    glm::vec3 towardsSun = mScene.sun.direction();
    if (towardsSun.y > 0.01f) {
        glm::mat4 fit = nearSunFit(camera, float(mSize.x) / float(mSize.y), towardsSun, mCastersMin, mCastersMax,
                                   mScene.sun.shadowMapSize);
        if (!mNearShadowValid || fit != mNearSunMatrix) {
            PassScope pass(profiler, "scene/shadowNear");
            mNearSunMatrix = fit;
            renderDepthMaps({DepthMapPass{&mNearShadowFramebuffer, &mNearShadowMap, &mNearSunMatrix}});
            mNearShadowValid = true;
        } else if (profiler) {
            profiler->markCached("scene/shadowNear");  // the camera's snapped fit did not move
        }
    }
    mPreExposure = k;
    mFrameStats.clearUint(0u);  // 16 bytes
    uploadFrameBlock(camera, options);
    if (options.lighting == LightingPath::Deferred) {
        renderDeferred(profiler, options.fusedHistogram);
    } else {
        renderForward(profiler);
        if (frameStatsActive()) {
            PassScope pass(profiler, "scene/census");
            runCensus();
        }
    }
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

bool SceneRenderer::frameStatsActive() const
{
    return mColorFormat == GL_RGBA16F;
}

float SceneRenderer::storedClamp() const
{
    if (mColorFormat == GL_RGBA32F)
        return kFloatMaxRadiance;
    return mFrameFormat == FrameFormat::Rgba16f ? hd::kHalfFloatMax : kHalfFloatMaxRadiance;
}

void SceneRenderer::runCensus()
{
    if (!mCensusProgram)
        mCensusProgram = mShaders->buildCompute("scene.frameCensus", "scene/FrameCensus.comp");
    // The forward passes wrote the target as a framebuffer and noted clipped peaks with atomics.
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT);
    mFrameBlock.bindBase(GL_UNIFORM_BUFFER, kFrameBlockBinding);
    mFrameStats.bindBase(GL_SHADER_STORAGE_BUFFER, kFrameStatsBinding);
    mColor.bindUnit(kCensusUnit);
    glBindSampler(kCensusUnit, 0);
    mCensusProgram.use();
    glDispatchCompute((GLuint(mSize.x) + kCensusGroupSize - 1) / kCensusGroupSize,
                      (GLuint(mSize.y) + kCensusGroupSize - 1) / kCensusGroupSize, 1);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
}

void SceneRenderer::bindLightingInputs() const
{
    mFrameBlock.bindBase(GL_UNIFORM_BUFFER, kFrameBlockBinding);
    mFrameStats.bindBase(GL_SHADER_STORAGE_BUFFER, kFrameStatsBinding);
    mMaterials.bindBase(GL_SHADER_STORAGE_BUFFER, kMaterialBinding);
    if (mEnvironment)
        mEnvironment->bind();
    mInterior.bind();
    mSunShadowMap.bindUnit(kSunShadowUnit);
    mSkyOcclusionMap.bindUnit(kSkyOcclusionUnit);
    mSkyUndersideMap.bindUnit(kSkyUndersideUnit);
    mNearShadowMap.bindUnit(kNearShadowUnit);
}

void SceneRenderer::drawOpaqueBatches(const gl::Program& plain, const gl::Program& masked, bool keepDepthState) const
{
    if (!keepDepthState) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
        glDepthMask(GL_TRUE);
    }
    glCullFace(GL_BACK);
    glDisable(GL_BLEND);
    mMeshArray.bind();
    for (const DrawBatch& batch : mBatches) {
        (batch.alphaMask ? masked : plain).use();
        if (batch.doubleSided)
            glDisable(GL_CULL_FACE);
        else
            glEnable(GL_CULL_FACE);
        bindMaterialTextures(batch.material);
        glDrawElements(GL_TRIANGLES, GLsizei(batch.indexCount), GL_UNSIGNED_INT,
                       reinterpret_cast<const void*>(batch.firstIndex * sizeof(std::uint32_t)));
    }
    glDisable(GL_CULL_FACE);
}

void SceneRenderer::renderForward(profiling::Profiler* profiler)
{
    bindLightingInputs();
    {
        PassScope pass(profiler, "scene/opaque");
        // No colour clear: the sky pass writes every pixel the geometry leaves (a 4K RGBA32F clear
        // costs about 3 ms on the H200's graphics units, PERF.md 0.4).
        const float clearDepth = 1.0f;
        glClearNamedFramebufferfv(mFramebuffer.id(), GL_DEPTH, 0, &clearDepth);
        mFramebuffer.bind();
        glViewport(0, 0, mSize.x, mSize.y);
        drawOpaqueBatches(mOpaqueProgram, mOpaqueMaskedProgram);
    }
    {
        PassScope pass(profiler, "scene/sky");
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LEQUAL);
        glDepthMask(GL_FALSE);
        mSkyProgram.use();
        mEmptyArray.bind();
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDepthMask(GL_TRUE);
        glDepthFunc(GL_LESS);
    }
}

void SceneRenderer::renderDeferred(profiling::Profiler* profiler, const FusedHistogramOutputs* fused)
{
    if (!mDeferred)
        mDeferred.emplace(*mShaders, mColorFormat, mEnvironment.has_value());
    if (mDeferredAttachedGeneration != mTargetGeneration) {
        mDeferred->attach(mColor, mDepth);
        mDeferredAttachedGeneration = mTargetGeneration;
    }
    bindLightingInputs();
    {
        PassScope pass(profiler, "scene/depth");
        mDeferred->beginDepthPrepass();
        drawOpaqueBatches(mDeferred->prepassProgram(false), mDeferred->prepassProgram(true));
    }
    {
        PassScope pass(profiler, "scene/gbuffer");
        mDeferred->beginGeometry(mColor);
        drawOpaqueBatches(mDeferred->geometryProgram(), mDeferred->geometryProgram(), true);
        mDeferred->endGeometry();
    }
    {
        PassScope pass(profiler, "scene/lighting");
        mDeferred->light(mColor, mDepth, fused);
    }
}

const char* lightingPathName(LightingPath path)
{
    return path == LightingPath::Forward ? "forward" : "deferred";
}

std::optional<LightingPath> parseLightingPath(std::string_view name)
{
    if (name == "forward")
        return LightingPath::Forward;
    if (name == "deferred")
        return LightingPath::Deferred;
    return std::nullopt;
}

}  // namespace scene
