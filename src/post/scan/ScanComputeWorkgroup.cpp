#include "post/scan/ScanComputeWorkgroup.h"

#include <algorithm>
#include <stdexcept>

namespace post {

std::string_view ScanComputeWorkgroup::description() const
{
    return "GL compute, one workgroup of 1024 threads x 4 elements: serial scan per thread, Kogge-Stone across "
           "threads in shared memory (double-buffered), up to 4096 elements.";
}

void ScanComputeWorkgroup::inclusiveScan(PassContext& ctx,
                                         const gl::Buffer& input,
                                         gl::Buffer& output,
                                         std::uint32_t count)
{
    if (count > maxLength())
        throw std::invalid_argument("compute-scan scans at most " + std::to_string(maxLength()) + " elements, got " +
                                    std::to_string(count));
    const std::size_t bytes = std::size_t(count) * sizeof(std::uint32_t);
    if (input.size() < bytes || output.size() < bytes)
        throw std::invalid_argument("compute-scan: buffers smaller than " + std::to_string(count) + " uints");
    if (count == 0)
        return;
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("scan.compute-scan", "scan/WorkgroupScan.comp");
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    mProgram.use();
    mProgram.set(0, unsigned(count));
    input.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0, 0, bytes);
    output.bindRange(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1, 0, bytes);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
