#include "methods/MethodTestSupport.h"

#include "post/AutoRange.h"
#include "post/histogram/HistogramCpuReadback.h"
#include "support/GlTestEnvironment.h"

#include <cctype>

namespace methods_test {

namespace ts = testing_support;

std::unique_ptr<post::HistogramMethod> createForTest(const std::string& id)
{
    std::unique_ptr<post::HistogramMethod> method = post::createHistogramMethod(id);
    if (post::ReadbackLatency* readback = method->readbackLatency())
        readback->setSynchronous(true);
    return method;
}

ts::GpuHistogram runOnTexture(post::HistogramMethod& method,
                              const gl::Texture& texture,
                              glm::ivec2 size,
                              float logMin,
                              float logMax,
                              const post::HistogramSpec& spec)
{
    return ts::runHistogramMethodOnTexture(method, texture, size, logMin, logMax, spec);
}

bool isPerBinPassMethod(const std::string& id)
{
    return id == "green-occlusion" || id == "kubias-depth" || id == "fluck-tiles";
}

bool withinTestBudget(const std::string& id, int width, int height, std::uint32_t bins)
{
    return !isPerBinPassMethod(id) || double(width) * double(height) * double(bins) <= kPerBinPassBudget;
}

std::string testNameOf(const std::string& id)
{
    std::string name;
    for (char c : id)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
}

}  // namespace methods_test
