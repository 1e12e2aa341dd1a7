#include "post/tonemap/WardPcondPlan.h"

#include "util/Drand48.h"

#include <stdexcept>
#include <string>

namespace post {

std::pair<int, int> pfiltBoxRange(int out, int outCount, int inCount)
{
    // pfilt: centre (int)((out + .5) in / outs), radius in / outs / 2 + 1, and an input index i in the
    // window is taken while its scaled offset (ratio i - (out + .5), or i - centre when upsampling)
    // lies in [-0.5, 0.5). The offsets grow with i, so the taken indices are one run.
    const double ratio = double(outCount) / inCount;
    const int centre = int((out + .5) * inCount / outCount);
    const int radius = inCount / outCount / 2 + 1;
    int first = -1;
    int last = -1;
    for (int i = centre + 1 - radius; i <= centre + radius; ++i) {
        if (i < 0)
            continue;
        if (i >= inCount)
            break;
        const double offset = ratio < 1.0 ? ratio * i - (out + .5) : double(i - centre);
        if (offset < -0.5)
            continue;
        if (offset >= 0.5)
            break;
        if (first < 0)
            first = i;
        last = i;
    }
    if (first < 0)
        return {0, 0};
    return {first, last + 1};
}

bool WardPcondPlan::matches(int w, int h, const ref::PcondView& v, double aspect) const
{
    return w == width && h == height && v.given == view.given && v.type == view.type &&
           v.horizontal == view.horizontal && v.vertical == view.vertical && aspect == pixelAspect;
}

WardPcondPlan WardPcondPlan::make(int width, int height, const ref::PcondView& view, double pixelAspect)
{
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        throw std::invalid_argument("pcond sampling: picture size " + std::to_string(width) + "x" +
                                    std::to_string(height) + " outside 1..16384");
    WardPcondPlan plan;
    plan.width = width;
    plan.height = height;
    plan.view = view;
    plan.pixelAspect = pixelAspect;
    plan.grid = ref::pcondFovealGrid(width, height, view, pixelAspect);
    for (int r = 0; r < plan.grid.height; ++r) {
        const auto [first, end] = pfiltBoxRange(r, plan.grid.height, height);
        plan.boxes.push_back(first);
        plan.boxes.push_back(end);
    }
    for (int c = 0; c < plan.grid.width; ++c) {
        const auto [first, end] = pfiltBoxRange(c, plan.grid.width, width);
        plan.boxes.push_back(first);
        plan.boxes.push_back(end);
    }

    // getlumsamp: walk the scanlines; each draw gives a skip distance by sequential selection of the
    // n still wanted among the pixels left; a skip past the end of the scanline spends the draw.
    const long long pixels = (long long)width * height;
    long long wanted = std::min(16LL * plan.grid.width * plan.grid.height, pixels);
    plan.positions.reserve(std::size_t(wanted));
    util::Drand48 random;
    long long left = pixels;
    int remainingInScanline = 0;
    int scanline = -1;
    while (wanted > 0) {
        if (remainingInScanline <= 0) {
            if (++scanline >= height)
                break;
            remainingInScanline = width;
        }
        const double draw = random.next();
        long long skip = 0;
        double cumulative = 0;
        while ((cumulative += (1. - cumulative) * double(wanted) / double(left - skip)) < draw)
            ++skip;
        ++skip;
        if (remainingInScanline < skip) {
            left -= remainingInScanline;
            remainingInScanline = 0;
            continue;
        }
        remainingInScanline -= int(skip);
        plan.positions.push_back(std::uint32_t(remainingInScanline) | (std::uint32_t(scanline) << 16));
        --wanted;
        left -= skip;
    }
    return plan;
}

}  // namespace post
