// Clahe.cu: the CLAHE kernels of cuda/Clahe.h and their sequencing. Every value is computed with
// shared/Clahe.h's functions, so the bytes are the CPU reference's (and OpenCV's x86-64 build's).
//  * claheHistogramLut8Kernel (8-bit, one launch for histograms and LUTs, no memset): block = (tile,
//    slab of ~kSlabPixels8 of the tile's pixels), 128 threads. The slab's samples go into one shared
//    histogram per warp (see accumulateSlab), the block adds its non-zero bins to the tile's global
//    histogram (atomicAdd), then every thread fences and thread 0 takes a ticket (atomicAdd on the
//    tile's counter). The block that draws ticket slabsPerTile - 1 is the tile's last: every other
//    block's atomics happened before its ticket (fence + barrier + ticket), so warp 0 of the last
//    block reads the complete histogram from L2 (__ldcg: never the read-only/L1 path, which may hold
//    stale lines), computes the tile's LUT (clip, redistribution, warp scan: 8 bins a lane), copies
//    the histogram to histogramCopy (tests read it there), and leaves the working histogram zeroed
//    and the ticket at 0 for the next launch. The buffers are zeroed by a memset only after an
//    upload (a new image or geometry) or a launch that failed to enqueue, outside the timed stages.
//  * claheHistogram16Kernel (16-bit): block = (tile, slab of ~kSlabPixels16 pixels), 256 threads,
//    global atomics straight into the tile's 65536 bins (cleared by a memset before the kernel);
//    or (ClaheVariant::sharedHistogram16, the default) claheHistogram16SharedKernel: 1024 threads,
//    slabs of <= 65535 padded pixels counted in 65536 16-bit shared counters, then one global
//    atomicAdd per non-zero counter (far fewer than one per pixel: a tile spans a narrow band);
//    then claheLutKernel: one block per tile, 1024 threads: clipped = sum max(h - clip, 0) (block
//    reduction), then chunks of 4 x threads bins: hdClaheRedistributed, a block-wide inclusive scan
//    with the carried prefix, hdClaheLutValue. (65536 bins are too much for a last histogram block.)
//  * Reading the slab (both depths): the tile's columns inside the image are read as aligned 16-byte
//    units of the packed image (16 8-bit or 8 16-bit samples; the edge units masked per sample), the
//    padded columns (BORDER_REFLECT_101) one sample at a time. Each thread aggregates runs of equal
//    samples (a constant image costs one atomic per thread) and issues 4 units' loads at a time.
//  * claheBlend8Kernel (8-bit): a block of 64 x 4 threads covers 256 columns x 32 rows, a thread 4
//    consecutive columns (one 32-bit load and store when the width is a multiple of 4) in every 4th
//    row. It first loads all 8 of its image words (their latency overlaps the table fill), then
//    packs the four LUT bytes of each cell (a region whose pixels blend the same four tiles) it
//    overlaps into one 32-bit word per level in shared memory: one shared load a pixel. A block
//    overlapping more than 12 cells (tiles much smaller than 256 x 64) reads the LUTs from global.
//    The per-pixel arithmetic is conversion-free (ClaheVariant::conversionFreeBlend, ClaheBlend.cuh).
//  * claheBlendKernel (16-bit): one thread per 4 consecutive samples of a row (one 64-bit load and
//    store when the width is a multiple of 4), the four LUT values from global memory (L1/L2).
//  * claheFused8Kernel (8-bit, ClaheVariant::singleLaunch8): both 8-bit kernels in one launch; each
//    block takes a work item from a counter (histogram slabs first, then blend blocks), a blend block
//    waits for the LUT flags of its tiles (ClaheBlend.cuh).
//  * claheEmptyKernel: nothing, launched between two events when timings are read: the launch floor.
// The kernels are in ClaheHistogram.cuh and ClaheBlend.cuh; ClaheVariant (Clahe.h) selects the
// experiment variants at run time (HDRLAB_CLAHE_CUDA_* environment variables by default).
#include "cuda/Clahe.h"

#include "cuda/ClaheBlend.cuh"
#include "cuda/ClaheHistogram.cuh"

#include "cuda/CudaContext.h"
#include "cuda/CudaRaii.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cuda {

namespace {

using namespace clahe_kernels;

__global__ void claheEmptyKernel()
{
}

double elapsedMs(const Event& from, const Event& to)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, from.get(), to.get()));
    return double(ms);
}

std::size_t roundUp(std::size_t value, std::size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

struct ClaheProgram::Impl
{
    ClaheVariant variant;
    bool sharedMemoryRaised = false;  ///< claheHistogram16SharedKernel's shared-memory limit is set
    hd::ClaheGeometry geometry;
    bool uploaded = false;
    DeviceBuffer<unsigned char> input;  ///< the image, rounded up to whole 16-byte units (tail zeroed)
    DeviceBuffer<unsigned char> output;
    DeviceBuffer<std::uint32_t> histograms;     ///< working histograms (8-bit: zero between launches)
    DeviceBuffer<std::uint32_t> histogramCopy;  ///< 8-bit: the last launch's histograms (tests)
    DeviceBuffer<std::uint16_t> luts;
    DeviceBuffer<unsigned> tickets;  ///< 8-bit: one per tile, zero between launches
    /// 8-bit single launch: the work counter, then one LUT flag per tile (zeroed with the tickets).
    DeviceBuffer<unsigned> fusedState;
    unsigned workBase = 0;  ///< the work counter's value before the next single launch
    unsigned epoch = 0;     ///< the last single launch's number (its LUT flags' value)
    /// The 8-bit launch's precondition (histograms and tickets zero) may not hold: after an upload
    /// (new buffers or geometry), a 16-bit launch, or a launch that threw before it was enqueued.
    bool needsClear = true;
    Event marks[4];       ///< the stages: before the histograms, before the LUTs, before the blend, after
    Event floorMarks[2];  ///< around the empty kernel

    std::size_t sampleBytes() const { return geometry.bins == hd::kClaheBins8 ? 1 : 2; }
    std::size_t imageBytes() const
    {
        return std::size_t(geometry.width) * std::size_t(geometry.height) * sampleBytes();
    }
    std::size_t tableSize() const { return std::size_t(geometry.tileCount()) * std::size_t(geometry.bins); }

    void check(const hd::ClaheGeometry& g, int bins, const char* what, const void* samples) const;
    void upload(const void* samples, const hd::ClaheGeometry& g);
    ClaheTimings launch(bool readTimings);
    /// The device's largest shared memory a block may opt in to (bytes; queried once).
    int sharedMemoryOptin()
    {
        if (sharedOptin < 0) {
            int device = 0;
            CUDA_CHECK(cudaGetDevice(&device));
            CUDA_CHECK(cudaDeviceGetAttribute(&sharedOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        }
        return sharedOptin;
    }
    int sharedOptin = -1;
    void download(void* result) const;
};

void ClaheProgram::Impl::check(const hd::ClaheGeometry& g, int bins, const char* what, const void* samples) const
{
    const std::string name = std::string("CLAHE (CUDA) ") + what + ": ";
    if (g.bins != bins)
        throw std::invalid_argument(name + "geometry.bins must be " + std::to_string(bins) + ", not " +
                                    std::to_string(g.bins));
    if (g.width <= 0 || g.height <= 0)
        throw std::invalid_argument(name + "empty image (" + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                    ")");
    if (g.tilesX < 1 || g.tilesX > hd::kClaheMaxTiles || g.tilesY < 1 || g.tilesY > hd::kClaheMaxTiles)
        throw std::invalid_argument(name + "tile grid " + std::to_string(g.tilesX) + "x" + std::to_string(g.tilesY) +
                                    " outside 1.." + std::to_string(hd::kClaheMaxTiles) + " a side");
    if (g.tileWidth < 1 || g.tileHeight < 1 || g.paddedWidth != g.tileWidth * g.tilesX ||
        g.paddedHeight != g.tileHeight * g.tilesY || g.paddedWidth < g.width || g.paddedHeight < g.height)
        throw std::invalid_argument(name + "inconsistent geometry (use hd::claheGeometry)");
    if (double(g.tileWidth) * double(g.tileHeight) >= 2147483648.0)
        throw std::invalid_argument(name + "tile area of 2^31 pixels or more");
    if (samples == nullptr)
        throw std::invalid_argument(name + "no samples");
}

void ClaheProgram::Impl::upload(const void* samples, const hd::ClaheGeometry& g)
{
    // Buffers first: if an allocation throws, the program keeps no geometry its buffers cannot hold.
    uploaded = false;
    const std::size_t bytes = std::size_t(g.width) * std::size_t(g.height) * (g.bins == hd::kClaheBins8 ? 1 : 2);
    const std::size_t padded = roundUp(bytes, kUnitBytes);
    const std::size_t table = std::size_t(g.tileCount()) * std::size_t(g.bins);
    needsClear = true;
    input.reserve(padded);
    output.reserve(padded);
    histograms.reserve(table);
    histogramCopy.reserve(g.bins == hd::kClaheBins8 ? table : 0);
    luts.reserve(table);
    tickets.reserve(std::size_t(g.tileCount()));
    fusedState.reserve(std::size_t(g.tileCount()) + 1);
    geometry = g;
    const cudaStream_t stream = CudaContext::instance().stream();
    CUDA_CHECK(cudaMemcpyAsync(input.data(), samples, bytes, cudaMemcpyHostToDevice, stream));
    if (padded > bytes)  // read by the histogram's last units (masked), never counted
        CUDA_CHECK(cudaMemsetAsync(input.data() + bytes, 0, padded - bytes, stream));
    uploaded = true;
}

ClaheTimings ClaheProgram::Impl::launch(bool readTimings)
{
    const ClaheVariant& variant = this->variant;
    const hd::ClaheGeometry& g = geometry;
    const cudaStream_t stream = CudaContext::instance().stream();
    const bool eight = g.bins == hd::kClaheBins8;

    HistogramArgs h{};
    h.image = input.data();
    h.histograms = histograms.data();
    h.histogramCopy = eight ? histogramCopy.data() : nullptr;
    h.luts = luts.data();
    h.tickets = tickets.data();
    h.width = g.width;
    h.height = g.height;
    h.tilesX = g.tilesX;
    h.tileWidth = g.tileWidth;
    h.tileHeight = g.tileHeight;
    // The shared-counter kernel needs 128 KB of shared memory a block (an H100/H200 has 227 KB; sm_75
    // and sm_86 GPUs less: they take the global-atomic kernel) and tiles no wider than a slab.
    const bool shared16 = !eight && variant.sharedHistogram16 && g.tileWidth <= kMaxSlabPixels16Shared &&
                          sharedMemoryOptin() >= kSharedBytes16;
    if (shared16) {  // at most kMaxSlabPixels16Shared padded pixels a block: its 16-bit counters cannot carry
        const int slabPixels = std::clamp(variant.slabPixels16 > 0 ? variant.slabPixels16 : kMaxSlabPixels16Shared, 1,
                                          kMaxSlabPixels16Shared);
        h.slabRows = std::clamp(slabPixels / g.tileWidth, 1, g.tileHeight);  // tileWidth <= 16447 < 65535
    } else {
        const int fallback = eight ? (variant.singleLaunch8 ? kSlabPixelsFused8 : kSlabPixels8) : kSlabPixels16;
        const int slabPixels = std::max(1, (eight ? variant.slabPixels8 : variant.slabPixels16) > 0
                                               ? (eight ? variant.slabPixels8 : variant.slabPixels16)
                                               : fallback);
        h.slabRows = std::min(g.tileHeight, std::max(1, (slabPixels + g.tileWidth - 1) / g.tileWidth));
    }
    h.slabsPerTile = (g.tileHeight + h.slabRows - 1) / h.slabRows;
    h.clipLimit = g.clipLimit;
    h.lutScale = g.lutScale;
    const unsigned histogramBlocks = unsigned(g.tileCount()) * unsigned(h.slabsPerTile);

    BlendArgs b{};
    b.image = input.data();
    b.output = output.data();
    b.luts = luts.data();
    b.width = g.width;
    b.height = g.height;
    b.tilesX = g.tilesX;
    b.tilesY = g.tilesY;
    b.inverseTileWidth = g.inverseTileWidth;
    b.inverseTileHeight = g.inverseTileHeight;
    b.groupsPerRow = (g.width + 3) / 4;
    const std::size_t blendItems = std::size_t(g.height) * std::size_t(b.groupsPerRow);
    const unsigned blendBlocks = unsigned((blendItems + kBlendThreads - 1) / kBlendThreads);
    const dim3 packedGrid(unsigned((g.width + kPackedColumns - 1) / kPackedColumns),
                          unsigned((g.height + kPackedRows - 1) / kPackedRows));

    if (readTimings) {  // the launch floor: what an empty kernel costs between two events
        CUDA_CHECK(cudaEventRecord(floorMarks[0].get(), stream));
        claheEmptyKernel<<<1, 32, 0, stream>>>();
        CUDA_CHECK_LAUNCH("claheEmptyKernel");
        CUDA_CHECK(cudaEventRecord(floorMarks[1].get(), stream));
    }
    if (eight) {
        if (needsClear) {  // untimed: only the first launch after an upload (or a failure) clears
            CUDA_CHECK(cudaMemsetAsync(histograms.data(), 0, tableSize() * sizeof(std::uint32_t), stream));
            CUDA_CHECK(cudaMemsetAsync(tickets.data(), 0, std::size_t(g.tileCount()) * sizeof(unsigned), stream));
            CUDA_CHECK(
                cudaMemsetAsync(fusedState.data(), 0, (std::size_t(g.tileCount()) + 1) * sizeof(unsigned), stream));
            workBase = 0;
            epoch = 0;
        }
        needsClear = true;  // until the launches below are enqueued
        CUDA_CHECK(cudaEventRecord(marks[0].get(), stream));
        if (variant.singleLaunch8) {
            const unsigned blendItems = packedGrid.x * packedGrid.y;
            ++epoch;
            const FusedArgs f{fusedState.data(), workBase, histogramBlocks, packedGrid.x,
                              LutFlags{fusedState.data() + 1, epoch}};
            workBase += histogramBlocks + blendItems;  // what the launch adds to the counter (mod 2^32)
            if (variant.conversionFreeBlend)
                claheFused8Kernel<true><<<histogramBlocks + blendItems, kFusedThreads, 0, stream>>>(h, b, f);
            else
                claheFused8Kernel<false><<<histogramBlocks + blendItems, kFusedThreads, 0, stream>>>(h, b, f);
            CUDA_CHECK_LAUNCH("claheFused8Kernel");
            CUDA_CHECK(cudaEventRecord(marks[1].get(), stream));
        } else {
            claheHistogramLut8Kernel<<<histogramBlocks, kHistogram8Threads, 0, stream>>>(h);
            CUDA_CHECK_LAUNCH("claheHistogramLut8Kernel");
            CUDA_CHECK(cudaEventRecord(marks[1].get(), stream));
            if (variant.conversionFreeBlend)
                claheBlend8Kernel<true><<<packedGrid, dim3(kPackedThreadsX, kPackedThreadsY), 0, stream>>>(b);
            else
                claheBlend8Kernel<false><<<packedGrid, dim3(kPackedThreadsX, kPackedThreadsY), 0, stream>>>(b);
            CUDA_CHECK_LAUNCH("claheBlend8Kernel");
        }
        CUDA_CHECK(cudaEventRecord(marks[3].get(), stream));
        needsClear = false;  // the kernel leaves histograms and tickets zero
    } else {
        needsClear = true;  // the 16-bit launch leaves its histograms in the buffer
        CUDA_CHECK(cudaEventRecord(marks[0].get(), stream));
        CUDA_CHECK(cudaMemsetAsync(histograms.data(), 0, tableSize() * sizeof(std::uint32_t), stream));
        if (shared16) {
            if (!sharedMemoryRaised) {  // 128 KB of dynamic shared memory is above the default 48 KB
                CUDA_CHECK(cudaFuncSetAttribute(claheHistogram16SharedKernel,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes16));
                sharedMemoryRaised = true;
            }
            claheHistogram16SharedKernel<<<histogramBlocks, kHistogram16SharedThreads, kSharedBytes16, stream>>>(h);
        } else {
            claheHistogram16Kernel<<<histogramBlocks, kHistogram16Threads, 0, stream>>>(h);
        }
        CUDA_CHECK_LAUNCH("claheHistogram16Kernel");
        CUDA_CHECK(cudaEventRecord(marks[1].get(), stream));
        claheLutKernel<hd::kClaheBins16, 1024>
            <<<unsigned(g.tileCount()), 1024, 0, stream>>>(histograms.data(), luts.data(), g.clipLimit, g.lutScale);
        CUDA_CHECK_LAUNCH("claheLutKernel");
        CUDA_CHECK(cudaEventRecord(marks[2].get(), stream));
        if (variant.conversionFreeBlend)
            claheBlendKernel<std::uint16_t, true><<<blendBlocks, kBlendThreads, 0, stream>>>(b);
        else
            claheBlendKernel<std::uint16_t, false><<<blendBlocks, kBlendThreads, 0, stream>>>(b);
        CUDA_CHECK_LAUNCH("claheBlendKernel");
        CUDA_CHECK(cudaEventRecord(marks[3].get(), stream));
    }

    ClaheTimings timings;
    if (readTimings) {
        CUDA_CHECK(cudaEventSynchronize(marks[3].get()));
        timings.histogramMs = elapsedMs(marks[0], marks[1]);
        timings.lutMs = eight ? 0.0 : elapsedMs(marks[1], marks[2]);  // 8-bit: folded into the histograms
        timings.blendMs = elapsedMs(eight ? marks[1] : marks[2], marks[3]);
        timings.launchFloorMs = elapsedMs(floorMarks[0], floorMarks[1]);
    }
    return timings;
}

void ClaheProgram::Impl::download(void* result) const
{
    const cudaStream_t stream = CudaContext::instance().stream();
    CUDA_CHECK(cudaMemcpyAsync(result, output.data(), imageBytes(), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

namespace {

/// The value of environment variable `name`, or "" when unset.
std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

int environmentInt(const char* name)
{
    const std::string text = environment(name);
    return text.empty() ? 0 : std::max(0, std::atoi(text.c_str()));
}

}  // namespace

ClaheVariant ClaheVariant::fromEnvironment()
{
    ClaheVariant v;
    v.conversionFreeBlend = environment("HDRLAB_CLAHE_CUDA_BLEND") != "convert";
    v.sharedHistogram16 = environment("HDRLAB_CLAHE_CUDA_HIST16") != "global";
    v.slabPixels8 = environmentInt("HDRLAB_CLAHE_CUDA_SLAB8");
    v.slabPixels16 = environmentInt("HDRLAB_CLAHE_CUDA_SLAB16");
    v.singleLaunch8 = environment("HDRLAB_CLAHE_CUDA_LAUNCH") == "single";
    return v;
}

std::string ClaheVariant::describe() const
{
    return std::string("launch8=") + (singleLaunch8 ? "single" : "two") +
           " blend=" + (conversionFreeBlend ? "bits" : "convert") +
           " hist16=" + (sharedHistogram16 ? "shared" : "global") + " slab8=" +
           (slabPixels8 > 0 ? std::to_string(slabPixels8)
                            : std::to_string(singleLaunch8 ? kSlabPixelsFused8 : kSlabPixels8)) +
           " slab16=" +
           (slabPixels16 > 0 ? std::to_string(slabPixels16)
                             : std::to_string(sharedHistogram16 ? kMaxSlabPixels16Shared : kSlabPixels16));
}

ClaheProgram::ClaheProgram(const ClaheVariant& variant) : mImpl(std::make_unique<Impl>())
{
    mImpl->variant = variant;
    for (Event& mark : mImpl->marks)
        mark = Event::create();
    for (Event& mark : mImpl->floorMarks)
        mark = Event::create();
}

ClaheProgram::~ClaheProgram() = default;

std::vector<std::uint8_t> ClaheProgram::run8(const std::uint8_t* samples,
                                             const hd::ClaheGeometry& geometry,
                                             ClaheTimings* timings)
{
    mImpl->check(geometry, hd::kClaheBins8, "run8", samples);
    mImpl->upload(samples, geometry);
    const ClaheTimings measured = mImpl->launch(timings != nullptr);
    std::vector<std::uint8_t> result(std::size_t(geometry.width) * std::size_t(geometry.height));
    mImpl->download(result.data());
    if (timings)
        *timings = measured;
    return result;
}

std::vector<std::uint16_t> ClaheProgram::run16(const std::uint16_t* samples,
                                               const hd::ClaheGeometry& geometry,
                                               ClaheTimings* timings)
{
    mImpl->check(geometry, hd::kClaheBins16, "run16", samples);
    mImpl->upload(samples, geometry);
    const ClaheTimings measured = mImpl->launch(timings != nullptr);
    std::vector<std::uint16_t> result(std::size_t(geometry.width) * std::size_t(geometry.height));
    mImpl->download(result.data());
    if (timings)
        *timings = measured;
    return result;
}

const ClaheVariant& ClaheProgram::variant() const
{
    return mImpl->variant;
}

ClaheTimings ClaheProgram::rerun()
{
    if (!mImpl->uploaded)
        throw std::logic_error("CLAHE (CUDA) rerun: no image uploaded (call run8 or run16 first)");
    return mImpl->launch(true);
}

std::vector<std::uint32_t> ClaheProgram::readTileHistograms() const
{
    std::vector<std::uint32_t> values(mImpl->uploaded ? mImpl->tableSize() : 0);
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    if (!values.empty())
        CUDA_CHECK(cudaMemcpyAsync(
            values.data(), mImpl->sampleBytes() == 1 ? mImpl->histogramCopy.data() : mImpl->histograms.data(),
            values.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, CudaContext::instance().stream()));
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    return values;
}

std::vector<std::uint16_t> ClaheProgram::readLuts() const
{
    std::vector<std::uint16_t> values(mImpl->uploaded ? mImpl->tableSize() : 0);
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    if (!values.empty())
        CUDA_CHECK(cudaMemcpyAsync(values.data(), mImpl->luts.data(), values.size() * sizeof(std::uint16_t),
                                   cudaMemcpyDeviceToHost, CudaContext::instance().stream()));
    CUDA_CHECK(cudaStreamSynchronize(CudaContext::instance().stream()));
    return values;
}

std::vector<std::uint8_t> ClaheProgram::readImage8() const
{
    if (!mImpl->uploaded || mImpl->sampleBytes() != 1)
        throw std::logic_error("CLAHE (CUDA) readImage8: the last run was not an 8-bit one");
    std::vector<std::uint8_t> values(std::size_t(mImpl->geometry.width) * std::size_t(mImpl->geometry.height));
    mImpl->download(values.data());
    return values;
}

std::vector<std::uint16_t> ClaheProgram::readImage16() const
{
    if (!mImpl->uploaded || mImpl->sampleBytes() != 2)
        throw std::logic_error("CLAHE (CUDA) readImage16: the last run was not a 16-bit one");
    std::vector<std::uint16_t> values(std::size_t(mImpl->geometry.width) * std::size_t(mImpl->geometry.height));
    mImpl->download(values.data());
    return values;
}

}  // namespace cuda