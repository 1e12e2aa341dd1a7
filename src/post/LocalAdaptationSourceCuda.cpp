// LocalAdaptationSourceCuda.cpp: post::LocalAdaptationSource backed by cuda::LocalAdaptation (the
// summed-area table in src/cuda); built only with the CUDA backend (CudaFallback.cpp otherwise).
#include "post/LocalAdaptationSource.h"

#include "cuda/LocalAdaptation.h"

namespace post {
namespace {

class CudaLocalAdaptationSource final : public LocalAdaptationSource
{
public:
    void run(const gl::Texture& frame,
             glm::ivec2 size,
             const gl::Buffer& params,
             gl::Buffer& output,
             int radius) override
    {
        mLocal.run(frame, size, params, output, radius);
    }
    profiling::TimerBackend* timerBackend() override { return mLocal.timerBackend(); }

private:
    cuda::LocalAdaptation mLocal;
};

}  // namespace

std::unique_ptr<LocalAdaptationSource> createLocalAdaptationSource()
{
    return std::make_unique<CudaLocalAdaptationSource>();
}

}  // namespace post
