// BenchCudaSuites.cpp: `hdrlab bench [cuda|scan|integral|equalize8|all] [--csv OUT.csv]`: CUDA
// benchmarks timed with CUDA events (util::upperMedian, a measured time, and minimum of N runs after warm-up), printed
// as markdown tables and written as CSV. Suites:
//  cuda       device-to-device copy bandwidth (1 GiB) and the histograms (cuda-bugetti, cuda-fast in
//             its variants, cuda-cub with and without its luminance pass) at 1920x1080 and 3840x2160
//             RGBA16F, realistic HDR and uniform frames, 64/256/1024/4096 bins; GB/s of frame reads
//             against the copy bandwidth;
//  scan       every CUDA scan at 256..4096 elements (one launch) and 2^20..2^24;
//  integral   integral images 1/4/8.3/16 MP, float/float4/double, Bilgic vs transpose-free vs the CPU;
//  equalize8  Bugetti's program at 1024^2..8192^2, blocks 256/512, every scan, per kernel (Table 1).
#include "commands/bench/BenchCommand.h"

#include "cuda/BenchData.h"
#include "cuda/CudaContext.h"
#include "cuda/Equalize8.h"
#include "cuda/Histogram.h"
#include "cuda/IntegralImage.h"
#include "cuda/Scan.h"
#include "post/AutoRange.h"
#include "reference/Equalize8.h"
#include "reference/IntegralImage.h"
#include "shared/HostDevice.h"
#include "util/Paths.h"
#include "util/Stats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace app {

namespace {

struct Sample
{
    double medianMs = 0.0;
    double minMs = 0.0;
};

struct Row
{
    std::string suite;
    std::string caseName;  ///< frame / data kind
    std::string size;
    std::string param;  ///< bins, length, type, block...
    std::string method;
    std::string variant;
    Sample time;
    double gbps = 0.0;  ///< bytes moved per second / 1e9 (0 when not meaningful)
    std::string note;
};

class Timer
{
public:
    Timer(cudaStream_t stream, int repeat) : mStream(stream), mRepeat(std::max(1, repeat))
    {
        for (int i = 0; i < 2 * mRepeat; ++i)
            mEvents.push_back(cuda::Event::create());
    }

    /// Runs `work` kWarmup times, then `repeat` times each between two events.
    Sample measure(const std::function<void()>& work)
    {
        constexpr int kWarmup = 3;
        for (int i = 0; i < kWarmup; ++i)
            work();
        for (int i = 0; i < mRepeat; ++i) {
            CUDA_CHECK(cudaEventRecord(mEvents[std::size_t(2 * i)].get(), mStream));
            work();
            CUDA_CHECK(cudaEventRecord(mEvents[std::size_t(2 * i + 1)].get(), mStream));
        }
        CUDA_CHECK(cudaStreamSynchronize(mStream));
        std::vector<double> times;
        for (int i = 0; i < mRepeat; ++i) {
            float ms = 0.0f;
            CUDA_CHECK(
                cudaEventElapsedTime(&ms, mEvents[std::size_t(2 * i)].get(), mEvents[std::size_t(2 * i + 1)].get()));
            times.push_back(double(ms));
        }
        return {util::upperMedian(times), *std::min_element(times.begin(), times.end())};
    }

private:
    cudaStream_t mStream;
    int mRepeat;
    std::vector<cuda::Event> mEvents;
};

double gigabytesPerSecond(double bytes, double ms)
{
    return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

std::string sizeText(int width, int height)
{
    return std::to_string(width) + "x" + std::to_string(height);
}

class Bench
{
public:
    Bench(int repeat) : mContext(cuda::CudaContext::instance()), mStream(mContext.stream()), mRepeat(repeat) {}

    void copyBandwidth()
    {
        const std::size_t bytes = std::size_t(1) << 30;
        cuda::DeviceBuffer<unsigned char> source(bytes);
        cuda::DeviceBuffer<unsigned char> target(bytes);
        CUDA_CHECK(cudaMemsetAsync(source.data(), 1, bytes, mStream));
        Timer timer(mStream, 10);
        const Sample time = timer.measure([&] {
            CUDA_CHECK(cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, mStream));
        });
        mCopyGbps = gigabytesPerSecond(2.0 * double(bytes), time.medianMs);
        add({"cuda", "copy", "1 GiB", "", "cudaMemcpy D2D", "read+write", time, mCopyGbps, ""});
    }

    void histograms()
    {
        if (mCopyGbps == 0.0)
            copyBandwidth();
        const int sizes[][2] = {{1920, 1080}, {3840, 2160}};
        const unsigned binCounts[] = {64, 256, 1024, 4096};
        cuda::DeviceBuffer<std::uint32_t> params(hd::kHistogramParamsWords);
        cuda::DeviceBuffer<std::uint32_t> histogram(hd::kHistogramBufferWords);
        cuda::DeviceBuffer<std::uint32_t> cdf(hd::kMaxHistogramBins);
        cuda::FastHistogramWorkspace fastWorkspace;
        cuda::CubHistogramWorkspace cubWorkspace;
        Timer timer(mStream, mRepeat);
        for (const auto& size : sizes) {
            const int width = size[0], height = size[1];
            const std::size_t pixels = std::size_t(width) * std::size_t(height);
            cuda::DeviceBuffer<__half> frame(pixels * 4);
            const cudaChannelFormatDesc format = cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
            cuda::CudaArray array(format, std::size_t(width), std::size_t(height));
            for (bool uniform : {false, true}) {
                cuda::fillHdrFrame(frame.data(), width, height, 7, uniform, mStream);
                CUDA_CHECK(cudaMemcpy2DToArrayAsync(array.get(), 0, 0, frame.data(), std::size_t(width) * 8,
                                                    std::size_t(width) * 8, std::size_t(height),
                                                    cudaMemcpyDeviceToDevice, mStream));
                cuda::TextureObject texture(array.get());
                const std::string frameName = uniform ? "uniform" : "hdr";
                const double frameBytes = double(pixels) * 8.0;
                for (unsigned bins : binCounts) {
                    setParams(params, -10.0f, 20.0f, bins, width, height);
                    cuda::HistogramInput viaTexture{texture.get(), nullptr, width, height};
                    cuda::HistogramInput viaBuffer{0, frame.data(), width, height};
                    cuda::HistogramOutput output{histogram.data(), nullptr};
                    cuda::HistogramOutput withCdf{histogram.data(), cdf.data()};
                    auto row = [&](const std::string& method, const std::string& variant, const Sample& time,
                                   double bytes, const std::string& note = "") {
                        const double gbps = gigabytesPerSecond(bytes, time.medianMs);
                        std::ostringstream text;
                        text.precision(0);
                        text << std::fixed << 100.0 * gbps / mCopyGbps << "% of copy";
                        add({"cuda", frameName, sizeText(width, height), std::to_string(bins), method, variant, time,
                             gbps, note.empty() ? text.str() : note + "; " + text.str()});
                    };
                    for (int block : {256, 512}) {
                        const Sample t = timer.measure(
                            [&] { cuda::histogramBugetti(viaTexture, params.data(), bins, output, block, mStream); });
                        row("cuda-bugetti", "texture, block " + std::to_string(block), t, frameBytes);
                    }
                    struct FastVariant
                    {
                        const char* name;
                        bool texture;
                        cuda::FastMerge merge;
                        bool aggregation;
                        bool cdf;
                        bool fastMath;
                    };
                    const FastVariant variants[] = {
                        {"texture, auto merge", true, cuda::FastMerge::Auto, false, false, true},
                        {"texture, auto merge, +CDF", true, cuda::FastMerge::Auto, false, true, true},
                        {"buffer, auto merge", false, cuda::FastMerge::Auto, false, false, true},
                        {"buffer, auto merge, +CDF", false, cuda::FastMerge::Auto, false, true, true},
                        {"buffer, last-block merge", false, cuda::FastMerge::LastBlock, false, false, true},
                        {"buffer, global-atomic merge", false, cuda::FastMerge::GlobalAtomics, false, false, true},
                        {"buffer, warp aggregation (match_any)", false, cuda::FastMerge::Auto, true, false, true},
                        {"buffer, exact hdBinOf math", false, cuda::FastMerge::Auto, false, false, false},
                    };
                    for (const FastVariant& variant : variants) {
                        cuda::FastHistogramOptions options;
                        options.merge = variant.merge;
                        options.warpAggregation = variant.aggregation;
                        options.fastMath = variant.fastMath;
                        options.multiprocessors = mContext.multiprocessorCount();
                        cuda::FastMerge used = cuda::FastMerge::Auto;
                        const Sample t = timer.measure([&] {
                            used = cuda::histogramFast(variant.texture ? viaTexture : viaBuffer, params.data(), bins,
                                                       variant.cdf ? withCdf : output, fastWorkspace, options, mStream);
                        });
                        row("cuda-fast", variant.name, t, frameBytes,
                            used == cuda::FastMerge::GlobalAtomics ? "merged by atomics" : "merged by last block");
                    }
                    float* samples = cubWorkspace.samples(pixels);
                    const Sample both = timer.measure(
                        [&] { cuda::histogramCub(viaBuffer, params.data(), bins, output, cubWorkspace, mStream); });
                    row("cuda-cub", "luminance pass + HistogramEven", both, frameBytes);
                    const Sample alone = timer.measure([&] {
                        cuda::cubHistogramEvenPass(samples, pixels, bins, histogram.data(), cubWorkspace, mStream);
                    });
                    row("cuda-cub", "HistogramEven alone (float samples)", alone, double(pixels) * 4.0);
                }
            }
        }
    }

    void scans()
    {
        const std::size_t lengths[] = {
            256, 512, 1024, 2048, 4096, std::size_t(1) << 20, std::size_t(1) << 22, std::size_t(1) << 24};
        cuda::DeviceBuffer<std::uint32_t> input(lengths[7]);
        cuda::DeviceBuffer<std::uint32_t> output(lengths[7]);
        cuda::fillUint32(input.data(), input.size(), 1000, 3, mStream);
        cuda::DeviceScratch workspace;
        Timer timer(mStream, mRepeat);
        for (std::size_t n : lengths) {
            for (cuda::ScanAlgorithm algorithm : cuda::kAllScanAlgorithms) {
                cuda::ScanOptions options;
                options.workspace = &workspace;
                const Sample t = timer.measure(
                    [&] { cuda::scanInclusive(algorithm, input.data(), output.data(), n, mStream, options); });
                const std::size_t launches = n <= cuda::kScanTile ? 1 : 0;
                add({"scan", "uint32", std::to_string(n), n <= cuda::kScanTile ? "one launch" : "multi-tile",
                     std::string(cuda::scanAlgorithmId(algorithm)), "block 1024", t,
                     gigabytesPerSecond(2.0 * 4.0 * double(n), t.medianMs), launches ? "latency-bound" : ""});
            }
        }
    }

    void integralImages()
    {
        const int sizes[][2] = {{1024, 1024}, {2048, 2048}, {3840, 2160}, {4096, 4096}};
        cuda::DeviceScratch workspace;
        Timer timer(mStream, std::max(5, mRepeat / 4));
        for (const auto& size : sizes) {
            const int width = size[0], height = size[1];
            const std::size_t pixels = std::size_t(width) * std::size_t(height);
            const std::string mp = sizeText(width, height);
            benchIntegral<float>("float", width, height, pixels, mp, workspace, timer);
            benchIntegral<float4>("float4", width, height, pixels, mp, workspace, timer);
            benchIntegral<double>("double", width, height, pixels, mp, workspace, timer);
        }
    }

    void equalize8()
    {
        const int sides[] = {1024, 2048, 4096, 8192};
        for (int side : sides) {
            const std::size_t count = std::size_t(side) * std::size_t(side);
            std::vector<std::uint8_t> host(count);
            double cpuMs = 0.0;
            bool first = true;
            for (int block : {256, 512}) {
                for (cuda::ScanAlgorithm algorithm : cuda::kAllScanAlgorithms) {
                    cuda::Equalize8Program program(algorithm, block);
                    std::uint8_t* input = program.input(count);
                    cuda::fillGrey8(input, count, side, 11, mContext.stream());
                    if (first) {
                        CUDA_CHECK(cudaMemcpyAsync(host.data(), input, count, cudaMemcpyDeviceToHost, mStream));
                        CUDA_CHECK(cudaStreamSynchronize(mStream));
                        const auto start = std::chrono::steady_clock::now();
                        const auto reference = ref::equalize8(host.data(), count);
                        cpuMs =
                            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                        add({"equalize8",
                             "grey8",
                             sizeText(side, side),
                             "-",
                             "CPU sequential (ref::equalize8)",
                             "",
                             {cpuMs, cpuMs},
                             0.0,
                             reference.empty() ? "" : "one run"});
                        first = false;
                    }
                    const int runs = std::max(5, mRepeat / 5);
                    std::vector<double> total, histogram, scan, normalize, equalize;
                    for (int run = 0; run < runs + 2; ++run) {
                        cuda::Equalize8Timings timings;
                        program.runOnDevice(count, &timings);
                        if (run < 2)
                            continue;  // warm-up
                        total.push_back(timings.totalMs());
                        histogram.push_back(timings.histogramMs);
                        scan.push_back(timings.scanMs);
                        normalize.push_back(timings.normalizeMs);
                        equalize.push_back(timings.equalizeMs);
                    }
                    const Sample t{util::upperMedian(total), *std::min_element(total.begin(), total.end())};
                    std::ostringstream note;
                    note.precision(4);
                    note << std::fixed << "hist " << util::upperMedian(histogram) << " scan " << util::upperMedian(scan)
                         << " norm " << util::upperMedian(normalize) << " eq " << util::upperMedian(equalize)
                         << " ms; speedup " << std::setprecision(1) << cpuMs / t.medianMs << "x";
                    add({"equalize8", "grey8", sizeText(side, side), "block " + std::to_string(block),
                         std::string(cuda::scanAlgorithmId(algorithm)), "4 kernels", t,
                         gigabytesPerSecond(3.0 * double(count), t.medianMs), note.str()});
                }
            }
        }
    }

    void print() const
    {
        std::string suite;
        for (const Row& row : mRows) {
            if (row.suite != suite) {
                suite = row.suite;
                std::printf(
                    "\n### %s\n\n| case | size | param | method | variant | median ms | min ms | GB/s | note |\n"
                    "|---|---|---|---|---|---|---|---|---|\n",
                    suite.c_str());
            }
            std::printf("| %s | %s | %s | %s | %s | %.4f | %.4f | %.1f | %s |\n", row.caseName.c_str(),
                        row.size.c_str(), row.param.c_str(), row.method.c_str(), row.variant.c_str(), row.time.medianMs,
                        row.time.minMs, row.gbps, row.note.c_str());
        }
        std::fflush(stdout);
    }

    std::string csv() const
    {
        std::ostringstream out;
        out << "suite,case,size,param,method,variant,median_ms,min_ms,gbps,note\n";
        auto quoted = [](const std::string& text) { return "\"" + text + "\""; };
        for (const Row& row : mRows)
            out << row.suite << "," << row.caseName << "," << row.size << "," << quoted(row.param) << ","
                << quoted(row.method) << "," << quoted(row.variant) << "," << row.time.medianMs << "," << row.time.minMs
                << "," << row.gbps << "," << quoted(row.note) << "\n";
        return out.str();
    }

    const cuda::CudaContext& context() const { return mContext; }

private:
    void add(Row row)
    {
        std::fprintf(stderr, "  %s %s %s %s %s: %.4f ms\n", row.suite.c_str(), row.caseName.c_str(), row.size.c_str(),
                     row.param.c_str(), (row.method + " " + row.variant).c_str(), row.time.medianMs);
        mRows.push_back(std::move(row));
    }

    void setParams(cuda::DeviceBuffer<std::uint32_t>& params,
                   float logMin,
                   float logMax,
                   unsigned bins,
                   int width,
                   int height)
    {
        post::HistogramSpec spec;  // clamp policy, the default luminance definition
        spec.binCount = bins;
        const auto words = post::histogramParamWords(logMin, logMax, spec, {width, height});
        CUDA_CHECK(cudaMemcpyAsync(params.data(), words.data(), sizeof(words), cudaMemcpyHostToDevice, mStream));
        CUDA_CHECK(cudaStreamSynchronize(mStream));  // `words` lives on this stack frame
    }

    template <typename T>
    void benchIntegral(const char* type,
                       int width,
                       int height,
                       std::size_t pixels,
                       const std::string& size,
                       cuda::DeviceScratch& workspace,
                       Timer& timer)
    {
        constexpr int kChannels = sizeof(T) == sizeof(float4) ? 4 : 1;
        using Scalar = std::conditional_t<sizeof(T) == sizeof(double), double, float>;
        cuda::DeviceBuffer<T> input(pixels);
        cuda::DeviceBuffer<T> output(pixels);
        if constexpr (sizeof(T) == sizeof(double))
            cuda::fillDouble(reinterpret_cast<double*>(input.data()), pixels, 5, mStream);
        else
            cuda::fillFloat(reinterpret_cast<float*>(input.data()), pixels * kChannels, 5, mStream);
        const double bytes = 2.0 * double(pixels) * sizeof(T);
        for (cuda::IntegralMethod method :
             {cuda::IntegralMethod::BilgicTranspose, cuda::IntegralMethod::TransposeFree}) {
            const Sample t = timer.measure([&] {
                cuda::integralImage(method, input.data(), output.data(), width, height, cuda::IntegralLayout::Inclusive,
                                    mStream, workspace);
            });
            add({"integral", type, size, type, "cuda", std::string(cuda::integralMethodName(method)), t,
                 gigabytesPerSecond(bytes, t.medianMs), "inclusive"});
        }
        std::vector<Scalar> host(pixels * kChannels);
        CUDA_CHECK(cudaMemcpyAsync(host.data(), input.data(), pixels * sizeof(T), cudaMemcpyDeviceToHost, mStream));
        CUDA_CHECK(cudaStreamSynchronize(mStream));
        const auto start = std::chrono::steady_clock::now();
        const auto result =
            ref::integralImage<Scalar>(host.data(), width, height, ref::IntegralKind::Inclusive, kChannels);
        const double cpuMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        add({"integral",
             type,
             size,
             type,
             "cpu",
             "sequential (ref::integralImage)",
             {cpuMs, cpuMs},
             gigabytesPerSecond(bytes, cpuMs),
             result.empty() ? "" : "one run"});
    }

    cuda::CudaContext& mContext;
    cudaStream_t mStream;
    int mRepeat;
    double mCopyGbps = 0.0;
    std::vector<Row> mRows;
};

}  // namespace

int runCudaBenchSuites(const CommonOptions&, const BenchOptions& options)
{
    const std::string& suite = options.suite;
    if (std::find(kCudaBenchSuites.begin(), kCudaBenchSuites.end(), suite) == kCudaBenchSuites.end()) {
        std::string names;
        for (const char* name : kCudaBenchSuites)
            names += (names.empty() ? "" : ", ") + std::string(name);
        std::cerr << "hdrlab bench: unknown suite '" << suite << "' (" << names << ")\n";
        return 2;
    }
    if (const auto& reason = cuda::deviceUnavailableReason()) {
        std::cerr << "hdrlab: error: " << *reason << "\n";
        return 1;
    }
    try {
        Bench bench(int(std::clamp(options.repeat, 1u, 1000u)));
        std::printf("hdrlab bench %s on %s, %u runs per case (median, min; CUDA events)\n", suite.c_str(),
                    bench.context().describe().c_str(), options.repeat);
        const bool all = suite == "all";
        if (all || suite == "cuda")
            bench.histograms();
        if (all || suite == "scan")
            bench.scans();
        if (all || suite == "integral")
            bench.integralImages();
        if (all || suite == "equalize8")
            bench.equalize8();
        bench.print();
        if (options.csv) {
            util::writeFileAtomically(*options.csv, bench.csv());
            std::printf("\nwrote %s\n", options.csv->string().c_str());
        }
        return 0;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
