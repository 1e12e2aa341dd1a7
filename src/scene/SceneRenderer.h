// SceneRenderer.h: renders a Scene into a scene-linear RGBA16F or RGBA32F target (plus depth) with
// OpenGL 4.5.
//
// Target format (FrameFormat, scene/PreExposure.h): rgba16f (the app's default) stores the radiance times
// 2^k in half floats, k chosen per frame by the caller (PreExposureControl from the frame statistics
// this renderer writes: the clipped pixels and the peak, hd::kFrameStats*), clamped at 65504; every
// consumer undoes 2^-k exactly through the luminance weights (post::ImageInput::preExposure). rgba32f
// stores cd/m² as they are (the physical sun disc, ~1.6e9 cd/m², exactly; clamped only at 1e12), at
// twice the bytes. auto is the choice before pre-exposure existed: RGBA32F while the sun disc or an
// emitter exceeds what a half float holds, else RGBA16F clamped at 60000, never pre-exposed. Every
// RGBA16F frame keeps the statistics (what clips is counted); RGBA32F frames keep none.
//
// Passes: "scene/shadowNear" (the sun's near cascade, fitted to the camera's view up to 6 m and
// snapped to texels; redrawn only when that fit moves), "scene/shadow" (the sun's depth map over the
// whole shadow bounds, the far cascade; both tent-filtered in Scene.frag; the top-down and
// bottom-up sky-occlusion maps, through which Scene.frag marches rays for the open-sky fraction that
// blends indoor to outdoor ambient; the scene is static, so they are drawn on the first frame only),
// then the lighting path (RenderOptions::lighting). Forward: "scene/opaque" (GGX + Lambert shading,
// SceneShading.glsl: one indexed draw for all untextured opaque materials, one per textured,
// alpha-masked or double-sided glTF material with its textures bound to units 2-6; textures are
// uploaded once, RGBA8 or SRGB8_ALPHA8 with mipmaps) and "scene/sky" (the analytic sky and sun disc
// behind the geometry, or the environment map, whose image-based lighting then replaces the outdoor
// ambient constant: see EnvironmentLighting.h). Deferred (the default, DeferredLighting.h):
// "scene/depth", "scene/gbuffer" and "scene/lighting", the same shading and sky in a compute pass. Limits: no blending
// (alpha MASK only; masked materials also cut holes in the shadow maps), no point-light shadows, no indirect light
// besides the ambient constants, the environment map (unoccluded but for the sky-occlusion maps) and an
// interior's estimate (InteriorLight.h).
#pragma once

#include "gl/Buffer.h"
#include "gl/Framebuffer.h"
#include "gl/Program.h"
#include "gl/Texture.h"
#include "gl/VertexArray.h"
#include "scene/Camera.h"
#include "scene/DeferredLighting.h"
#include "scene/EnvironmentLighting.h"
#include "scene/InteriorLight.h"
#include "scene/PreExposure.h"
#include "scene/PrimitiveMesh.h"
#include "scene/Scene.h"

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>

#include <initializer_list>
#include <optional>
#include <string_view>

namespace gl {
class SharedAllocator;
}

namespace profiling {
class Profiler;
}

namespace scene {

/// How the opaque surfaces are lit: in their fragments (forward) or by a compute pass over a thin
/// G-buffer (deferred, DeferredLighting.h). Both give the same picture within one sRGB step.
enum class LightingPath {
    Forward,
    Deferred,
};
/// The path a renderer uses unless told otherwise: deferred, 1.6x to 4.2x faster than forward for
/// every shipped scene on the GPU machine (docs/PERF.md section 0.4).
inline constexpr LightingPath kDefaultLightingPath = LightingPath::Deferred;
/// "forward" or "deferred".
const char* lightingPathName(LightingPath path);
/// The path named `name` ("forward" or "deferred"); nothing for any other text.
std::optional<LightingPath> parseLightingPath(std::string_view name);

struct RenderOptions
{
    bool drawSunDisc = true;  ///< off for dynamic-range measurements that must not count the sun
    LightingPath lighting = kDefaultLightingPath;
    /// The deferred lighting pass also bins the frame into these (DeferredLighting.h); ignored by the
    /// forward path, which leaves `written` false.
    const FusedHistogramOutputs* fusedHistogram = nullptr;
    /// The pre-exposure k of an rgba16f frame (the target holds radiance x 2^k), in
    /// [hd::kMinPreExposure, hd::kMaxPreExposure] (its owner, PreExposureControl, keeps it there;
    /// render() throws std::invalid_argument for a k outside); nothing: initialPreExposure of the
    /// scene. Other formats ignore it (k = 0).
    std::optional<int> preExposure;
};

class SceneRenderer
{
public:
    /// Builds the meshes, programs and shadow maps for `scene` (which need not outlive the renderer),
    /// and loads and prefilters its environment map if it has one (relative paths under the data
    /// root, the parent of the shader library's root); a bad map throws SceneError.
    /// `format`: how frames are stored. The default is Auto, the one format that needs no choice of k:
    /// a pre-exposed frame's k comes from frames read back (frames/SceneFrameSource.h), which a renderer
    /// used on its own (tests, `compare`) does not have.
    SceneRenderer(gl::ShaderLibrary& shaders, const Scene& scene, FrameFormat format = FrameFormat::Auto);

    /// Stores later frames in `format` (recreating the colour target when its GL format changes).
    void setFrameFormat(FrameFormat format);
    FrameFormat frameFormat() const { return mFrameFormat; }

    /// Resizes the colour and depth targets; sizes below 1x1 are raised to 1x1.
    void resize(glm::ivec2 size);
    glm::ivec2 size() const { return mSize; }
    /// Later colour targets are created through `allocator` (memory CUDA shares, post/CudaInterop.h;
    /// null: plain GL storage); a current one is recreated at once.
    void setTargetAllocator(gl::SharedAllocator* allocator);

    /// Renders one frame into hdrTarget(); `profiler` (nullable) times the sub-passes (the forward
    /// path's frame statistics as "scene/census").
    void render(const Camera& camera, const RenderOptions& options, profiling::Profiler* profiler = nullptr);

    /// The RGBA16F or RGBA32F scene-linear colour (cd/m² x 2^preExposure(), see above), valid after render().
    const gl::Texture& hdrTarget() const { return mColor; }
    /// The k the last frame was stored with (0 unless the format is rgba16f).
    int preExposure() const { return mPreExposure; }
    /// Whether frames are stored pre-exposed (FrameFormat::Rgba16f), k possibly 0.
    bool preExposed() const { return mFrameFormat == FrameFormat::Rgba16f; }
    /// The last frame's statistics (uint[hd::kFrameStatsWords]: clipped pixels, peak), written on the
    /// GPU while it was stored; zero while frameStatsActive() is false. Read it back
    /// asynchronously (post::AsyncReadback), never in the frame.
    const gl::Buffer& frameStats() const { return mFrameStats; }
    /// The statistics are kept for RGBA16F targets (pre-exposed or auto's plain half frame).
    bool frameStatsActive() const;
    /// The value an RGBA16F frame's clipped channels are stored as (65504 pre-exposed, 60000 plain),
    /// or the RGBA32F clamp.
    float storedClamp() const;
    /// The scene as rendered (an environment map's sun filled in).
    const Scene& scene() const { return mScene; }
    const gl::Texture& depthTarget() const { return mDepth; }
    const gl::Framebuffer& framebuffer() const { return mFramebuffer; }
    /// The sun it lights with (a "fromEnvironment" sun as found in the map).
    const Sun& sun() const { return mScene.sun; }

private:
    struct DepthMapPass
    {
        const gl::Framebuffer* framebuffer;
        const gl::Texture* map;
        const glm::mat4* matrix;  ///< world -> the map's [0,1]^3
    };
    void renderShadowMaps();
    void renderDepthMaps(std::initializer_list<DepthMapPass> passes);
    void uploadFrameBlock(const Camera& camera, const RenderOptions& options);
    void uploadTextures();
    void bindMaterialTextures(int material) const;
    void bindLightingInputs() const;
    void drawOpaqueBatches(const gl::Program& plain, const gl::Program& masked, bool keepDepthState = false) const;
    void renderForward(profiling::Profiler* profiler);
    void renderDeferred(profiling::Profiler* profiler, const FusedHistogramOutputs* fused);
    void runCensus();  ///< the forward path's frame statistics (FrameCensus.comp)

    Scene mScene;
    gl::Program mShadowProgram;
    gl::Program mShadowMaskedProgram;
    gl::Program mOpaqueProgram;
    gl::Program mOpaqueMaskedProgram;
    gl::Program mSkyProgram;
    gl::Buffer mVertices;
    gl::Buffer mIndices;
    gl::Buffer mMaterials;
    gl::Buffer mFrameBlock;
    gl::VertexArray mMeshArray;
    gl::VertexArray mEmptyArray;
    GLsizei mIndexCount = 0;
    GLsizei mShadowIndexCount = 0;
    std::vector<DrawBatch> mBatches;
    std::vector<gl::Texture> mTextures;  ///< one per Scene::textures entry
    gl::Texture mWhiteTexture;           ///< stands in for every texture a material lacks

    gl::Texture mSunShadowMap;
    gl::Framebuffer mSunShadowFramebuffer;
    glm::mat4 mSunMatrix{1.0f};
    gl::Texture mSkyOcclusionMap;
    gl::Framebuffer mSkyOcclusionFramebuffer;
    glm::mat4 mSkyOcclusionMatrix{1.0f};
    gl::Texture mSkyUndersideMap;  ///< the casters seen from below: with the top-down map, what is solid
    gl::Framebuffer mSkyUndersideFramebuffer;
    glm::mat4 mSkyUndersideMatrix{1.0f};
    bool mShadowMapsValid = false;
    gl::Texture mNearShadowMap;  ///< the near cascade, fitted to the camera (see nearSunFit)
    gl::Framebuffer mNearShadowFramebuffer;
    glm::mat4 mNearSunMatrix{1.0f};
    bool mNearShadowValid = false;
    glm::vec3 mCastersMin{0.0f};
    glm::vec3 mCastersMax{0.0f};

    FrameFormat mFrameFormat = FrameFormat::Auto;
    GLenum mColorFormat = GL_RGBA16F;
    int mPreExposure = 0;
    gl::Buffer mFrameStats;
    gl::Program mCensusProgram;  ///< built on first use
    glm::ivec2 mSize{0};
    gl::SharedAllocator* mTargetAllocator = nullptr;
    gl::Texture mColor;
    gl::Texture mDepth;
    gl::Framebuffer mFramebuffer;
    std::optional<EnvironmentLighting> mEnvironment;
    InteriorLighting mInterior;             ///< the interior's block, or one that says there is none
    gl::ShaderLibrary* mShaders = nullptr;  ///< builds the deferred path on its first use
    std::optional<DeferredLighting> mDeferred;
    int mTargetGeneration = 0;  ///< bumped whenever mColor/mDepth are recreated
    int mDeferredAttachedGeneration = -1;
};

}  // namespace scene
