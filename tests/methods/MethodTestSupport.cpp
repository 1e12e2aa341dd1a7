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
    if (auto* readback = dynamic_cast<post::HistogramCpuReadback*>(method.get()))
        readback->setSynchronous(true);
    return method;
}

ts::GpuHistogram runOnTexture(post::HistogramMethod& method, const gl::Texture& texture, glm::ivec2 size,
                              float logMin, float logMax, const post::HistogramSpec& spec)
{
    gl::Buffer params = post::createHistogramParamsBuffer("methods-test.params");
    post::writeHistogramParams(params, logMin, logMax, spec, size);
    gl::Buffer histogram("methods-test.histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    gl::Buffer cumulative("methods-test.cumulative", hd::kMaxHistogramBins * sizeof(std::uint32_t));
    histogram.clearUint(0xDEADBEEFu);
    cumulative.clearUint(0xDEADBEEFu);
    post::PassContext ctx{ts::shaderLibrary(), ts::testProfiler(), ts::testGpuCaps(), 0};
    post::HistogramTargets targets{histogram, params, method.producesCumulative() ? &cumulative : nullptr};
    method.build(ctx, post::ImageInput{texture, size}, spec, targets);
    glFinish();
    ts::GpuHistogram result;
    const auto words = histogram.readAll<std::uint32_t>(hd::kHistogramBufferWords);
    result.bins.assign(words.begin(), words.begin() + spec.binCount);
    for (std::size_t i = 0; i < hd::kCounterCount; ++i)
        result.counters[i] = words[hd::kHistogramCountersOffset + i];
    if (method.producesCumulative())
        result.cumulative = cumulative.readAll<std::uint32_t>(spec.binCount);
    return result;
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

} // namespace methods_test
