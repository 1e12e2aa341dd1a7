// LocalAdaptation.h: per-pixel local adaptation level for the `percentile` operator's local option:
// the mean of log2 luminance over a (2r+1)^2 window around each pixel, from a summed-area table
// (Bilgic et al. integral image, transpose-free variant, in double on range-centred log-luminance
// so the sums stay exact enough at 4K). One frame: map the HDR texture, the params buffer and the
// output buffer in one call; log-luminance kernel -> SAT (row + carried column pass) -> box-mean
// kernel writing float[w*h] (row y * w + x, texture row 0 first) into the GL buffer; unmap.
//
// Used through post::LocalAdaptationSource: the pipeline runs it when the percentile operator's local
// adaptation is on or the local-mean view is shown; the apply pass reads `output` at
// hd::kBindingLocalAdaptation and looks the curve up at Lw * 2^(blend * (metered - local mean)).
#pragma once

#include "cuda/GlInterop.h"
#include "cuda/IntegralImage.h"

#include "gl/Buffer.h"
#include "gl/Texture.h"
#include "profiling/Profiler.h"

#include <glm/vec2.hpp>

namespace cuda {

class LocalAdaptation
{
public:
    /// Bytes the output buffer needs for a frame of `size`.
    static std::size_t outputBytes(glm::ivec2 size)
    {
        return std::size_t(size.x) * std::size_t(size.y) * sizeof(float);
    }

    /// Enqueues the work on the CUDA context's stream; no CPU wait. `params` is the histogram params
    /// buffer (its range clamps the log-luminance). Throws std::invalid_argument when `output` is
    /// smaller than outputBytes(size) or radius < 0.
    void run(const gl::Texture& frame, glm::ivec2 size, const gl::Buffer& params, gl::Buffer& output, int radius);

    /// CUDA events for the profiler scope around run() ("local-adaptation/cuda").
    profiling::TimerBackend* timerBackend();

private:
    GlRegistration mFrame;
    GlRegistration mParams;
    GlRegistration mOutput;
    TextureObject mTexture;
    cudaArray_t mTextureArray = nullptr;
    DeviceBuffer<double> mLogLuminance;
    DeviceBuffer<double> mSat;
    DeviceScratch mWorkspace;
};

}  // namespace cuda
