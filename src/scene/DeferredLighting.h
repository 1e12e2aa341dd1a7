// DeferredLighting.h: the scene's deferred (compute-shaded) lighting path. Per frame: a depth
// pre-pass; a G-buffer pass in which only each pixel's visible fragment runs (early GL_EQUAL depth
// test) and stores the surface's shading inputs in a thin G-buffer through image stores
// (shaders/scene/GBuffer.glsl: 32 bytes per pixel) and its emission in the colour target; then one
// compute dispatch shades every pixel with the forward path's own code and fills the background with
// the sky (shaders/scene/DeferredLighting.comp).
//
// Why it exists: on GPUs whose graphics units are few (the H200 rasterises, shades fragments and
// writes render targets with two graphics TPCs, but runs compute on all 132 SMs) the forward
// fragment shader's shadow taps, sky-light rays and light loop, and its render-target writes, are
// the frame; here the graphics units only rasterise depth and run a short fragment shader.
// Both paths give the same picture within one 8-bit sRGB step (tests/scene/DeferredLightingTest.cpp).
// Exact depth ties (coplanar surfaces): a stencil bit lets the first drawn fragment win, as
// GL_LESS does in the forward path. Both passes store through shaders/scene/PreExposure.glsl (times
// 2^k, clamped); the lighting pass takes the emission back out of the target times 2^-k and keeps
// the frame statistics (clip count, peak) per workgroup. Limits: opaque and alpha-masked surfaces only (the scene has
// no blending); one shading model; the depth target must have a stencil part (GL_DEPTH32F_STENCIL8).
//
// Fused histogram: given FusedHistogramOutputs, the lighting pass runs its FUSED_HISTOGRAM variant,
// which also bins every pixel it stores into the post pipeline's log-luminance histogram (and Ward's
// foveal sums) in the same dispatch, so the chain need not read the frame for them
// (shaders/histogram/FusedLighting.glsl; the method is src/post/histogram/HistogramFusedLighting.h,
// connected by the app: this layer knows only the buffers).
#pragma once

#include "gl/Buffer.h"
#include "gl/Framebuffer.h"
#include "gl/Program.h"
#include "gl/Texture.h"
#include "scene/Scene.h"

#include <glm/vec2.hpp>

#include <array>

namespace scene {

/// What the lighting pass fills for a fused histogram this frame (the app fills it from the post
/// pipeline's target). Its owner clears the buffers and writes the params before the pass.
struct FusedHistogramOutputs
{
    const gl::Buffer* params = nullptr;  ///< uint[hd::kHistogramParamsWords]: range, bin count, policy
    gl::Buffer* histogram = nullptr;     ///< uint[hd::kFusedHistogramWords]: bins, counters, min/max L bits
    gl::Buffer* fovealSums = nullptr;    ///< vec4 per (tile, slot) of Ward's foveal blocks; null: none
    glm::ivec2 fovealGrid{0};            ///< the foveal grid (with fovealSums)
    glm::ivec2 fovealSpan{0};            ///< block slots per 8x8 tile along x and y (with fovealSums)
    PixelInjection inject;               ///< a stress preset's texels, written (and binned) by the pass
    bool* written = nullptr;             ///< set true once the pass has filled the outputs
};

class DeferredLighting
{
public:
    /// Builds the pre-pass, G-buffer and lighting programs for a colour target of `colorFormat`
    /// (GL_RGBA16F or GL_RGBA32F); `environment`: the scene has an environment map (bound by the
    /// caller at lighting time).
    DeferredLighting(gl::ShaderLibrary& shaders, GLenum colorFormat, bool environment);

    /// (Re)creates the G-buffer at the size of `color` and the framebuffer over `depth`
    /// (GL_DEPTH32F_STENCIL8). Call when either target changes.
    void attach(const gl::Texture& color, const gl::Texture& depth);

    /// Clears depth and stencil and binds the depth-only framebuffer; the caller then draws every
    /// opaque batch with prepassProgram() under GL_LESS.
    void beginDepthPrepass() const;
    const gl::Program& prepassProgram(bool alphaMask) const { return alphaMask ? mPrepassMasked : mPrepass; }

    /// Binds the G-buffer and `color` as images and sets the GL_EQUAL depth and first-wins stencil
    /// tests; the caller then draws every opaque batch with geometryProgram() (masked ones too: the
    /// pre-pass already cut their holes) and calls endGeometry().
    void beginGeometry(const gl::Texture& color) const;
    const gl::Program& geometryProgram() const { return mGeometry; }
    void endGeometry() const;

    /// Shades every pixel of `color` from the G-buffer and `depth`. The caller has bound the scene's
    /// frame block, shadow maps and environment; afterwards every later reader of `color` (texture
    /// fetches, image loads, blits, readbacks, CUDA) sees the result. With `fused`, the same dispatch
    /// also bins every stored pixel into its outputs (and writes the preset's injected texels).
    void light(const gl::Texture& color, const gl::Texture& depth, const FusedHistogramOutputs* fused = nullptr);

    /// Bytes per pixel of the G-buffer besides depth and colour (docs, bench traffic).
    static constexpr int kGBufferBytesPerPixel = 32;

private:
    void bindImages(const gl::Texture& color) const;
    /// Binds the fused outputs and the injected texels' buffer; returns the variant to run.
    const gl::Program& prepareFused(const FusedHistogramOutputs& fused);

    gl::ShaderLibrary* mShaders;
    gl::ShaderDefines mLightingDefines;
    gl::Program mPrepass;
    gl::Program mPrepassMasked;
    gl::Program mGeometry;
    gl::Program mLighting;
    std::array<gl::Program, 2> mFusedLighting;  ///< [foveal sums]; built on first use
    gl::Buffer mInjectedTexels;                 ///< ascending linear indices of the preset's injected texels
    PixelInjection mInjectedRequest;            ///< the injection it was made for
    PixelInjection mInjectedCounts;             ///< what it holds (fewer on a frame with fewer pixels)
    glm::ivec2 mInjectedSize{-1};               ///< the frame size it was made for
    GLenum mColorFormat;
    glm::ivec2 mSize{0};
    gl::Texture mSurface;          ///< RGBA32UI: world position, roughness + occlusion
    gl::Texture mNormal;           ///< RG32F: octahedral normal
    gl::Texture mMaterial;         ///< RGBA16: base colour, metalness
    gl::Framebuffer mFramebuffer;  ///< depth and stencil only
};

}  // namespace scene
