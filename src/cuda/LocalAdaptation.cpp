#include "cuda/LocalAdaptation.h"

#include "cuda/CudaContext.h"
#include "cuda/LocalAdaptationKernels.h"

#include <algorithm>
#include <stdexcept>

namespace cuda {

void LocalAdaptation::run(const gl::Texture& frame,
                          glm::ivec2 size,
                          const gl::Buffer& params,
                          gl::Buffer& output,
                          int radius)
{
    const int width = std::min(size.x, frame.size().x);
    const int height = std::min(size.y, frame.size().y);
    if (width <= 0 || height <= 0)
        return;
    if (radius < 0)
        throw std::invalid_argument("local adaptation: negative radius");
    if (output.size() < outputBytes({width, height}))
        throw std::invalid_argument("local adaptation: output buffer smaller than width * height floats");

    CudaContext& context = CudaContext::instance();
    const cudaStream_t stream = context.stream();
    if (mFrame.track(frame) && mTexture.get() != 0) {
        CUDA_CHECK(cudaStreamSynchronize(stream));  // a new registration: the old texture object goes
        mTexture = TextureObject();
        mTextureArray = nullptr;
    }
    mParams.track(params, GlRegistration::Access::ReadOnly);
    mOutput.track(output, GlRegistration::Access::WriteDiscard);
    MappedResources mapped({&mFrame, &mParams, &mOutput}, stream);

    const cudaArray_t array = mapped.array(mFrame);
    if (array != mTextureArray) {
        if (mTexture.get() != 0)
            CUDA_CHECK(cudaStreamSynchronize(stream));  // the old texture object may still be in use
        mTexture = TextureObject(array);
        mTextureArray = array;
    }
    const std::size_t pixels = std::size_t(width) * std::size_t(height);
    mLogLuminance.reserve(pixels);
    mSat.reserve(pixels);
    const auto* paramWords = static_cast<const std::uint32_t*>(mapped.pointer(mParams));
    launchLogLuminance(mTexture.get(), width, height, paramWords, mLogLuminance.data(), stream);
    integralImage(IntegralMethod::TransposeFree, mLogLuminance.data(), mSat.data(), width, height,
                  IntegralLayout::Inclusive, stream, mWorkspace);
    launchBoxMean(mSat.data(), width, height, radius, paramWords, static_cast<float*>(mapped.pointer(mOutput)), stream);
}

profiling::TimerBackend* LocalAdaptation::timerBackend()
{
    return deviceUnavailableReason() ? nullptr : &CudaContext::instance().timer();
}

}  // namespace cuda
