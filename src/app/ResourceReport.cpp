#include "app/ResourceReport.h"

#include "post/CudaProbe.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace app {

long long residentSetKb()
{
    // statm: size resident shared text lib data dt, in pages.
    std::ifstream statm("/proc/self/statm");
    long long sizePages = 0, residentPages = 0;
    if (!(statm >> sizePages >> residentPages))
        return -1;
    const long pageBytes = sysconf(_SC_PAGESIZE);
    return pageBytes > 0 ? residentPages * (pageBytes / 1024) : -1;
}

ResourceSample sampleResources(std::uint64_t frame)
{
    ResourceSample sample;
    sample.frame = frame;
    sample.rssKb = residentSetKb();
    for (std::size_t kind = 0; kind < sample.glObjects.size(); ++kind)
        sample.glObjects[kind] = gl::liveObjectCount(gl::ObjectKind(kind));
    sample.glTotal = gl::liveObjectCountTotal();
    sample.cudaAllocations = cuda::liveDeviceAllocations();
    return sample;
}

std::string formatResourceLine(const ResourceSample& sample)
{
    std::ostringstream line;
    line << "resources: frame=" << sample.frame << " rss_kb=" << sample.rssKb << " gl_total=" << sample.glTotal;
    for (std::size_t kind = 0; kind < sample.glObjects.size(); ++kind) {
        std::string name(gl::toString(gl::ObjectKind(kind)));
        for (char& c : name)
            if (c == '-')
                c = '_';
        line << " gl_" << name << "=" << sample.glObjects[kind];
    }
    line << " cuda_allocs=";
    if (sample.cudaAllocations)
        line << *sample.cudaAllocations;
    else
        line << "n/a";
    return line.str();
}

}  // namespace app
