// ScanMethod.h: the interface of prefix-sum (scan) techniques that integrate a histogram into its
// cumulative distribution (inclusive scan of uint32 counts, on the GPU).
#pragma once

#include "post/Parameter.h"
#include "post/PostTypes.h"

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace post {

class ScanMethod
{
public:
    virtual ~ScanMethod() = default;

    virtual std::string_view id() const = 0;
    virtual std::string_view label() const = 0;
    virtual std::string_view description() const = 0;
    virtual Backend backend() const { return Backend::OpenGL; }
    virtual Availability availability(const GpuCaps&) const { return Availability::yes(); }
    /// True for "in-curve": the pipeline runs no scan dispatch and hands the tone operator the CDF buffer
    /// to fill inside its curve dispatch (ToneInputs::fusedCdf); inclusiveScan() is its stand-alone form.
    virtual bool fusedIntoCurve() const { return false; }
    /// Longest input this method scans in one call.
    virtual std::uint32_t maxLength() const { return hd::kMaxHistogramBins; }

    /// output[i] = input[0] + ... + input[i] for i < count (uint32, both buffers from offset 0).
    virtual void inclusiveScan(PassContext& ctx, const gl::Buffer& input, gl::Buffer& output, std::uint32_t count) = 0;

    virtual bool ui() { return false; }
    /// Every option ui() edits, keyed "<id>.<name>" and bound to this object (post/Parameter.h).
    virtual ParameterList parameters() { return {}; }
    virtual std::string status() const { return {}; }
    /// The timer for this method's profiler scope when it runs outside GL (CUDA events), else nullptr:
    /// `ctx.profiler.scope(name, method.timerBackend())`.
    virtual profiling::TimerBackend* timerBackend() { return nullptr; }
};

struct ScanMethodEntry
{
    std::string_view id;
    std::function<std::unique_ptr<ScanMethod>()> create;
};

const std::vector<ScanMethodEntry>& scanMethodRegistry();
std::unique_ptr<ScanMethod> createScanMethod(std::string_view id);

}  // namespace post
