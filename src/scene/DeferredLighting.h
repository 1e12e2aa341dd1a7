// DeferredLighting.h: the scene's deferred (compute-shaded) lighting path: the opaque pass writes a
// thin G-buffer (shaders/scene/GBuffer.glsl: 32 bytes per pixel besides depth) and the emission,
// then one compute dispatch shades every pixel with the forward path's own code and fills the
// background with the sky (shaders/scene/DeferredLighting.comp).
//
// Why it exists: GPUs whose fragment shading is narrow (the H200 shades fragments on two graphics
// TPCs but runs compute on all 132 SMs) spend most of a frame in the forward fragment shader's
// shadow taps, sky-light rays and light loop; here the rasteriser only writes the G-buffer. Both
// paths give the same picture within one 8-bit sRGB step (tests/scene/DeferredLightingTest.cpp).
// Limits: opaque and alpha-masked surfaces only (the scene has no blending); one shading model.
#pragma once

#include "gl/Framebuffer.h"
#include "gl/Program.h"
#include "gl/Texture.h"

#include <glm/vec2.hpp>

namespace scene {

class DeferredLighting
{
public:
    /// Builds the G-buffer programs (plain and alpha-masked) and the lighting program for a colour
    /// target of `colorFormat` (GL_RGBA16F or GL_RGBA32F); `environment`: the scene has an
    /// environment map (bound by the caller at lighting time).
    DeferredLighting(gl::ShaderLibrary& shaders, GLenum colorFormat, bool environment);

    /// (Re)creates the G-buffer at the size of `color` and the framebuffer that writes `color` (the
    /// emission), the G-buffer and `depth`. Call when either target changes.
    void attach(const gl::Texture& color, const gl::Texture& depth);

    /// Clears depth and marks every pixel as sky; binds the G-buffer framebuffer for the opaque draws.
    void beginGeometry() const;
    const gl::Program& geometryProgram(bool alphaMask) const { return alphaMask ? mGeometryMasked : mGeometry; }

    /// Shades every pixel of `color` (the texture given to attach) from the G-buffer. The caller has
    /// bound the scene's frame block, shadow maps and environment; afterwards every later reader of
    /// `color` (texture fetches, image loads, blits, readbacks, CUDA) sees the result.
    void light(const gl::Texture& color) const;

    /// Bytes per pixel of the G-buffer besides depth and colour (docs, bench traffic).
    static constexpr int kGBufferBytesPerPixel = 32;

private:
    gl::Program mGeometry;
    gl::Program mGeometryMasked;
    gl::Program mLighting;
    GLenum mColorFormat;
    glm::ivec2 mSize{0};
    gl::Texture mSurface;   ///< RGBA32UI: world position, roughness + occlusion
    gl::Texture mNormal;    ///< RG32F: octahedral normal
    gl::Texture mMaterial;  ///< RGBA16: base colour, metalness
    gl::Framebuffer mFramebuffer;
};

}  // namespace scene
