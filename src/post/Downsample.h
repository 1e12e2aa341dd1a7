// Downsample.h: the box-downsampled histogram input (Scheuermann & Hensley 2007 build the histogram
// from a downsampled frame to save bandwidth). Factor 1, 2, 4 or 8; the output is ceil(w/f) x
// ceil(h/f) RGBA32F, each texel the mean of the pixels of its block that exist. NaN/Inf propagate
// (a block with a NaN pixel is NaN, counted as such by the histogram).
#pragma once

#include "post/PostTypes.h"

namespace gl {
class SharedAllocator;
}

namespace post {

class Downsample
{
public:
    static glm::ivec2 outputSize(glm::ivec2 input, int factor);
    static bool isValidFactor(int factor) { return factor == 1 || factor == 2 || factor == 4 || factor == 8; }

    /// Downsamples `input` by `factor` (2, 4, 8) into an internal texture (reallocated on size change).
    ImageInput run(PassContext& ctx, const ImageInput& input, int factor);
    const gl::Texture& texture() const { return mOutput; }
    /// Later outputs are created through `allocator` (shared with CUDA; null: plain GL storage).
    void setSharedAllocator(gl::SharedAllocator* allocator)
    {
        mAllocator = allocator;
        mOutput = gl::Texture();
    }

private:
    gl::Program mProgram;
    gl::Texture mOutput;
    gl::SharedAllocator* mAllocator = nullptr;
};

}  // namespace post
