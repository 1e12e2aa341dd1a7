// LocalAdaptationSource.h: where the pipeline gets the per-pixel local mean log2 luminance that the
// percentile operator's local adaptation and its view use. The one implementation is CUDA's
// summed-area table (cuda::LocalAdaptation, Bilgic et al. 2010); builds without CUDA get nullptr.
#pragma once

#include "gl/Buffer.h"
#include "gl/Texture.h"

#include <glm/vec2.hpp>

#include <memory>

namespace profiling {
class TimerBackend;
}

namespace post {

class LocalAdaptationSource
{
public:
    virtual ~LocalAdaptationSource() = default;
    /// Writes float[w*h] (row 0 first) into `output`: the mean log2 L over the (2r+1)^2 window around
    /// each pixel of `frame`, clamped to the params' range. Asynchronous, ordered with GL.
    virtual void run(const gl::Texture& frame,
                     glm::ivec2 size,
                     const gl::Buffer& params,
                     gl::Buffer& output,
                     int radius) = 0;
    virtual profiling::TimerBackend* timerBackend() = 0;
};

/// The CUDA implementation, or nullptr in a build without CUDA.
std::unique_ptr<LocalAdaptationSource> createLocalAdaptationSource();

}  // namespace post
