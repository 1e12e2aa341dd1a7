// Equalize8Cuda.cpp: the run of `hdrlab equalize8 IN.png -o OUT.png --scan ID --block 256|512`, Bugetti's
// CUDA histogram equalization of an 8-bit grey image (colour inputs are converted to grey by the
// loader), with the per-kernel times of his Table 1 (CUDA events; median of 5 runs after a warm-up).
#include "commands/equalize8/Equalize8Command.h"

#include "cuda/CudaContext.h"
#include "cuda/Equalize8.h"
#include "cuda/Scan.h"
#include "image/ImageIo.h"
#include "util/Stats.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace app {

int runEqualize8Command(const CommonOptions&, const Equalize8Options& options)
{
    const auto scan = cuda::scanAlgorithmFromId(options.scan);
    if (!scan) {
        std::string ids;
        for (cuda::ScanAlgorithm algorithm : cuda::kAllScanAlgorithms)
            ids += (ids.empty() ? "" : ", ") + std::string(cuda::scanAlgorithmId(algorithm));
        std::cerr << "hdrlab equalize8: unknown scan '" << options.scan << "' (" << ids << ")\n";
        return 2;
    }
    if (options.block != 256 && options.block != 512) {
        std::cerr << "hdrlab equalize8: --block must be 256 or 512, not " << options.block << "\n";
        return 2;
    }
    if (const auto& reason = cuda::deviceUnavailableReason()) {
        std::cerr << "hdrlab: error: " << *reason << "\n";
        return 1;
    }
    try {
        const image::Image8 input = image::loadImage8(options.input, 1);
        if (input.empty()) {
            std::cerr << "hdrlab equalize8: '" << options.input.string() << "' is empty\n";
            return 1;
        }
        cuda::Equalize8Program program(*scan, int(options.block));
        const std::size_t count = input.pixels.size();
        std::vector<std::uint8_t> result = program.run(input.pixels.data(), count);  // warm-up (module load)
        constexpr int kRuns = 5;
        std::vector<double> histogram, scanMs, normalize, equalize, total;
        for (int run = 0; run < kRuns; ++run) {
            cuda::Equalize8Timings timings;
            result = program.run(input.pixels.data(), count, &timings);
            histogram.push_back(timings.histogramMs);
            scanMs.push_back(timings.scanMs);
            normalize.push_back(timings.normalizeMs);
            equalize.push_back(timings.equalizeMs);
            total.push_back(timings.totalMs());
        }
        image::Image8 output(input.width, input.height, 1);
        output.pixels = std::move(result);
        image::writePng(options.output, output);

        std::printf("equalize8 %dx%d, scan %s, block %u on %s\n", input.width, input.height, options.scan.c_str(),
                    options.block, cuda::CudaContext::instance().describe().c_str());
        std::printf("| kernel | median ms (%d runs) |\n|---|---|\n", kRuns);
        std::printf(
            "| CalculateHistogram | %.4f |\n| scan (%s) | %.4f |\n| NormalizeCdf | %.4f |\n"
            "| EqualizeHistogram | %.4f |\n| total | %.4f |\n",
            util::median(histogram), options.scan.c_str(), util::median(scanMs), util::median(normalize),
            util::median(equalize), util::median(total));
        std::printf("wrote %s\n", options.output.string().c_str());
        return 0;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
