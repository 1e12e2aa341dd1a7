// HistogramFactors.cpp: see HistogramFactors.h. The dispatch mirrors
// post/histogram/HistogramComputeSharedAtomic.cpp (32x8 workgroups, a persistent grid over tiles of
// 32 x 8*PIXELS or 32*PIXELS x 8 pixels, one shared copy), so the "pipeline" row is the method.
#include "commands/bench/HistogramFactors.h"

#include "commands/CommandFlags.h"
#include "gl/Debug.h"
#include "gl/Program.h"
#include "gl/Query.h"
#include "gl/Texture.h"
#include "post/AutoRange.h"
#include "post/LuminanceUnits.h"
#include "post/histogram/HistogramComputeSharedAtomic.h"
#include "util/Log.h"

#include "platform/GlContext.h"
#include "profiling/Profiler.h"
#include "reference/Histogram.h"
#include "scene/PreExposure.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/Stats.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace app {

namespace {

// The method's own launch constants, so that the "pipeline" variant stays the method.
using Method = post::HistogramComputeSharedAtomic;
constexpr std::uint32_t kTileWidth = Method::kTileWidth;
constexpr std::uint32_t kGroupRows = Method::kGroupRows;

std::uint32_t methodCapacity(std::uint32_t bins)
{
    for (std::uint32_t capacity : Method::kBinCapacities)
        if (capacity >= bins)
            return capacity;
    return Method::kBinCapacities.back();
}

HistogramFactorVariant variant(std::string name, std::string factor)
{
    HistogramFactorVariant v;
    v.name = std::move(name);
    v.factor = std::move(factor);
    return v;
}

}  // namespace

std::vector<HistogramFactorVariant> histogramFactorVariants()
{
    std::vector<HistogramFactorVariant> list;
    list.push_back(variant("pipeline", "as the method runs"));

    auto add = [&](std::string name, std::string factor, auto change) {
        HistogramFactorVariant v = variant(std::move(name), std::move(factor));
        change(v);
        list.push_back(v);
    };
    add("read only, texelFetch", "reading the frame", [](auto& v) { v.work = 1; });
    add("read only, imageLoad", "reading the frame", [](auto& v) { v.work = 1, v.source = 1; });
    add("read only, storage buffer", "reading the frame", [](auto& v) { v.work = 1, v.source = 2; });
    add("clears and merge only", "fixed cost", [](auto& v) { v.work = 2; });
    add("groups add into the histogram (needs the global clear)", "fixed cost", [](auto& v) { v.selfClear = false; });
    add("read and compute the luminance only", "binning", [](auto& v) { v.work = 4; });
    add("read and bin, no atomics", "binning", [](auto& v) { v.work = 3; });
    add("read and bin with the polynomial log2, no atomics", "binning", [](auto& v) { v.work = 3, v.binning = 0; });
    add("read and bin with hardware log2, no atomics", "binning", [](auto& v) { v.work = 3, v.binning = 2; });
    add("source: imageLoad", "source", [](auto& v) { v.source = 1; });
    add("source: storage buffer", "source", [](auto& v) { v.source = 2; });
    add("polynomial log2 for every pixel", "binning", [](auto& v) { v.binning = 0; });
    add("hardware log2", "binning", [](auto& v) { v.binning = 2; });
    add("run-length merge on", "atomics", [](auto& v) { v.runMerge = true; });
    add("run-length merge off", "atomics", [](auto& v) { v.runMerge = false; });
    add("capacity 4096", "shared array", [](auto& v) { v.capacity = 4096; });
    add("capacity 1024", "shared array", [](auto& v) { v.capacity = 1024; });
    add("1 pixel per invocation", "shape", [](auto& v) { v.pixels = 1; });
    add("2 pixels per invocation", "shape", [](auto& v) { v.pixels = 2; });
    add("8 pixels per invocation", "shape", [](auto& v) { v.pixels = 8; });
    add("row strips (STRIP)", "shape", [](auto& v) { v.strip = true; });
    add("grid 264 groups", "grid", [](auto& v) { v.maxGroups = 264; });
    add("grid 528 groups", "grid", [](auto& v) { v.maxGroups = 528; });
    add("grid 4096 groups", "grid", [](auto& v) { v.maxGroups = 4096; });
    add("grid: one group per tile", "grid", [](auto& v) { v.maxGroups = 1u << 30; });
    add("buffer + hardware log2", "combined", [](auto& v) { v.source = 2, v.binning = 2; });
    add("buffer + hardware log2, 8 px, tile grid", "combined",
        [](auto& v) { v.source = 2, v.binning = 2, v.pixels = 8, v.maxGroups = 1u << 30; });
    add("texelFetch, 8 px, tile grid", "combined", [](auto& v) { v.pixels = 8, v.maxGroups = 1u << 30; });
    return list;
}

std::vector<HistogramFactorRow> measureHistogramFactors(post::PassContext& ctx,
                                                        const post::ImageInput& image,
                                                        const HistogramFactorSettings& settings,
                                                        const std::vector<HistogramFactorVariant>& variants)
{
    const std::uint32_t bins = std::clamp(settings.bins, 1u, hd::kMaxHistogramBins);
    const glm::ivec2 size = image.size;
    gl::Buffer params = post::createHistogramParamsBuffer("factors/params");
    post::HistogramSpec spec{bins, post::OutOfRange::Clamp};
    post::LuminanceUnits units;  // a pre-exposed frame is binned with the weights times 2^-k, as the pipeline does
    units.preExposure = image.preExposure;
    spec.luminance = units.effectiveWeights();
    spec.cdPerUnit = float(units.cdPerUnit());
    spec.storedScale = units.storedScale();
    post::writeHistogramParams(params, settings.logMin, settings.logMax, spec, size);
    gl::Buffer histogram("factors/histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    gl::Buffer accumulator("factors/accumulator", (hd::kHistogramBufferWords + 1) * sizeof(std::uint32_t));
    accumulator.clearUint(0u);  // SELF_CLEAR variants leave it zero after each dispatch

    // The storage-buffer source: the frame's texels copied once, row-major RGBA16F (8 bytes each).
    gl::Buffer frameTexels;
    const bool halfFrame = image.texture.format() == GL_RGBA16F;
    if (halfFrame) {
        const std::size_t bytes = std::size_t(size.x) * std::size_t(size.y) * 8u;
        frameTexels = gl::Buffer("factors/frame-texels", bytes);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, frameTexels.id());
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTextureImage(image.texture.id(), 0, GL_RGBA, GL_HALF_FLOAT, GLsizei(bytes), nullptr);
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }

    // Every variant's program and grid first; then the timed runs in rounds, each round running
    // every variant in turn, so a change of the GPU's clocks during the run (seen on the H200: the
    // same dispatch 45 us at the start and 63 us a few seconds later) reaches every variant alike.
    struct Prepared
    {
        gl::Program program;
        std::vector<double> dispatchUs, withClearUs;
    };
    std::vector<HistogramFactorRow> rows;
    std::vector<Prepared> prepared(variants.size());
    for (std::size_t index = 0; index < variants.size(); ++index) {
        const HistogramFactorVariant& v = variants[index];
        HistogramFactorRow& row = rows.emplace_back();
        row.variant = v;
        row.capacity = v.capacity ? std::max(v.capacity, methodCapacity(bins)) : methodCapacity(bins);
        row.sharedBytes = (row.capacity + hd::kCounterCount) * 4u;
        row.binned = v.work == 0;
        if (v.source == 2 && !halfFrame) {
            row.error = "the storage-buffer source needs an RGBA16F frame";
            continue;
        }
        prepared[index].program = ctx.shaders.buildCompute("factors." + v.name, "histogram/SharedAtomic.comp",
                                                           {{"PIXELS", std::to_string(v.pixels)},
                                                            {"STRIP", v.strip ? "1" : "0"},
                                                            {"BIN_CAPACITY", std::to_string(row.capacity)},
                                                            {"REPLICAS", "1"},
                                                            {"SOURCE", std::to_string(v.source)},
                                                            {"BINNING", std::to_string(v.binning)},
                                                            {"RUN_MERGE", v.runMerge ? "1" : "0"},
                                                            {"WORK", std::to_string(v.work)},
                                                            {"SELF_CLEAR", v.selfClear ? "1" : "0"}});
        const std::uint64_t tileWidth = v.strip ? kTileWidth * v.pixels : kTileWidth;
        const std::uint64_t tileHeight = v.strip ? kGroupRows : kGroupRows * v.pixels;
        const std::uint64_t tiles = ((std::uint64_t(size.x) + tileWidth - 1) / tileWidth) *
                                    ((std::uint64_t(size.y) + tileHeight - 1) / tileHeight);
        row.groups = std::uint32_t(std::min<std::uint64_t>({tiles, v.maxGroups, 65535u}));
    }

    auto dispatch = [&](std::size_t index) {
        const HistogramFactorVariant& v = variants[index];
        const gl::Program& program = prepared[index].program;
        program.use();
        glProgramUniform2i(program.id(), 0, size.x, size.y);
        image.texture.bindUnit(hd::kTextureUnitInput);
        glBindSampler(hd::kTextureUnitInput, 0);
        if (v.source == 1)
            image.texture.bindImage(hd::kImageUnitInput, GL_READ_ONLY, GL_RGBA16F, 0);
        if (v.source == 2)
            frameTexels.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
        histogram.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogram);
        params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
        accumulator.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
        glDispatchCompute(rows[index].groups, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    };

    // The queries exist before the timed runs, and each variant's warm-up runs are queued (flushed,
    // not waited for) right before its timed ones, so the GPU is still busy while the CPU queues
    // them: the timed runs execute back to back, and no timestamp pair spans a wait for the CPU.
    const int rounds = std::clamp(settings.runs / 20, 1, 10);
    const int perRound = std::max(1, settings.runs / rounds);
    std::vector<gl::Query> stamps;
    for (int i = 0; i < perRound * 3; ++i)
        stamps.emplace_back("factors/stamp", GL_TIMESTAMP);
    for (int round = 0; round < rounds; ++round)
        for (std::size_t index = 0; index < variants.size(); ++index) {
            if (!rows[index].error.empty())
                continue;
            gl::DebugGroup group("factors/" + variants[index].name);
            for (int i = 0; i < settings.warmup; ++i) {
                histogram.clearUint(0u);
                dispatch(index);
            }
            glFlush();
            for (int i = 0; i < perRound; ++i) {
                stamps[std::size_t(i) * 3].timestamp();
                histogram.clearUint(0u);
                stamps[std::size_t(i) * 3 + 1].timestamp();
                dispatch(index);
                stamps[std::size_t(i) * 3 + 2].timestamp();
            }
            for (std::size_t i = 0; i + 2 < stamps.size(); i += 3) {
                const std::uint64_t start = stamps[i].waitResult();
                const std::uint64_t cleared = stamps[i + 1].waitResult();
                const std::uint64_t end = stamps[i + 2].waitResult();
                prepared[index].dispatchUs.push_back(double(end - cleared) * 1e-3);
                prepared[index].withClearUs.push_back(double(end - start) * 1e-3);
            }
        }

    std::vector<std::uint32_t> reference;  // the pipeline variant's histogram
    for (std::size_t index = 0; index < variants.size(); ++index) {
        HistogramFactorRow& row = rows[index];
        if (!row.error.empty())
            continue;
        const std::vector<double>& dispatchUs = prepared[index].dispatchUs;
        row.dispatchMedianUs = util::median(dispatchUs);
        row.dispatchMinUs = *std::min_element(dispatchUs.begin(), dispatchUs.end());
        row.withClearMedianUs = util::median(prepared[index].withClearUs);
        if (!row.binned)
            continue;
        histogram.clearUint(0u);  // one more run, read back: its histogram
        dispatch(index);
        std::vector<std::uint32_t> words = histogram.readAll<std::uint32_t>(hd::kHistogramBufferWords);
        words.resize(bins);  // the bins; the counters follow at kHistogramCountersOffset
        const std::vector<std::uint32_t> counters =
            histogram.readAll<std::uint32_t>(hd::kCounterCount, hd::kHistogramCountersOffset * sizeof(std::uint32_t));
        words.insert(words.end(), counters.begin(), counters.end());
        if (reference.empty())
            reference = words;
        row.exact = words == reference;
        std::uint64_t difference = 0;
        for (std::size_t i = 0; i < words.size(); ++i)
            difference += words[i] > reference[i] ? words[i] - reference[i] : reference[i] - words[i];
        row.movedPixels = difference / 2;
        row.histogram = std::move(words);
    }
    return rows;
}

int runHistogramFactorsCommand(const std::optional<std::filesystem::path>& dataDir,
                               int runs,
                               const std::optional<std::filesystem::path>& csvPath)
{
    try {
        const std::filesystem::path dataRoot = util::findDataRoot(dataDir);
        std::unique_ptr<platform::GlContext> context = platform::createHeadlessContext(platform::ContextOptions{});
        gl::ShaderLibrary shaders(dataRoot / "shaders");
        post::GpuCaps caps;
        caps.gl = context->info();
        profiling::Profiler profiler(true);
        post::PassContext ctx{shaders, profiler, caps, 0};
        const scene::Scene scene = scene::defaultScene();
        std::string csv;
        for (glm::ivec2 size : {glm::ivec2{3840, 2160}, glm::ivec2{1920, 1080}}) {
            scene::SceneRenderer renderer(shaders, scene, scene::FrameFormat::Rgba16f);
            renderer.resize(size);
            renderer.render(scene.camera, scene::RenderOptions{}, nullptr);
            const post::ImageInput image{renderer.hdrTarget(), size, renderer.preExposure()};
            // The frame's own range, as the pipeline's auto range finds it (weights times 2^-k).
            post::LuminanceUnits units;
            units.preExposure = image.preExposure;
            const std::vector<float> pixels = image.texture.readRgbaFloat();
            HistogramFactorSettings settings;
            settings.runs = runs;
            settings.warmup = std::min(settings.warmup, runs);
            if (auto range = ref::autoRange(pixels.data(), size.x, size.y, units.effectiveWeights())) {
                settings.logMin = range->logMin;
                settings.logMax = std::max(range->logMax, range->logMin + post::AutoRange::kMinimumSpan);
            }
            const std::vector<HistogramFactorRow> rows =
                measureHistogramFactors(ctx, image, settings, histogramFactorVariants());
            std::cout << util::format(
                             "\n{}x{} RGBA16F (pre-exposed by 2^{}), {} bins over [{}, {}] EV, {} runs; {}\n\n", size.x,
                             size.y, image.preExposure, settings.bins, settings.logMin, settings.logMax, runs,
                             caps.gl.renderer)
                      << formatHistogramFactorTable(rows) << std::flush;
            std::string part = formatHistogramFactorCsv(rows);
            const std::string prefix = std::to_string(size.x) + "x" + std::to_string(size.y) + ",";
            std::string prefixed;
            std::istringstream lines(part);
            for (std::string line; std::getline(lines, line);)
                prefixed += (prefixed.empty() && csv.empty() ? "size," : prefix) + line + "\n";
            if (!csv.empty())  // one header
                prefixed.erase(0, prefixed.find('\n') + 1);
            csv += prefixed;
        }
        if (csvPath)
            util::writeTextOutput(*csvPath, csv);
        return 0;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

std::string formatHistogramFactorTable(const std::vector<HistogramFactorRow>& rows)
{
    const double pipeline = rows.empty() ? 0.0 : rows.front().dispatchMedianUs;
    std::ostringstream out;
    // "stage": what the histogram stage costs with this variant: the dispatch alone where the last
    // workgroup publishes (SELF_CLEAR), else the global clear and the dispatch.
    out << "| factor | variant | groups | shared B | dispatch us (median) | min | stage | vs pipeline | "
           "histogram |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    char line[512];
    for (const HistogramFactorRow& row : rows) {
        if (!row.error.empty()) {
            out << "| " << row.variant.factor << " | " << row.variant.name << " | | | not run: " << row.error
                << " | | | | |\n";
            continue;
        }
        const std::string histogram = !row.binned ? "none (not binned)"
                                      : row.exact ? "exact"
                                                  : util::format("{} pixels moved", row.movedPixels);
        std::snprintf(line, sizeof line, "| %s | %s | %u | %u | %.1f | %.1f | %.1f | %.2fx | %s |\n",
                      row.variant.factor.c_str(), row.variant.name.c_str(), row.groups, row.sharedBytes,
                      row.dispatchMedianUs, row.dispatchMinUs,
                      row.variant.selfClear ? row.dispatchMedianUs : row.withClearMedianUs,
                      pipeline > 0.0 ? row.dispatchMedianUs / pipeline : 0.0, histogram.c_str());
        out << line;
    }
    return out.str();
}

std::string formatHistogramFactorCsv(const std::vector<HistogramFactorRow>& rows)
{
    std::ostringstream out;
    out << "factor,variant,source,binning,run_merge,work,capacity,pixels,strip,groups,shared_bytes,"
           "dispatch_median_us,dispatch_min_us,with_clear_median_us,binned,exact,moved_pixels,error\n";
    for (const HistogramFactorRow& row : rows) {
        const HistogramFactorVariant& v = row.variant;
        out << '"' << v.factor << "\",\"" << v.name << "\"," << v.source << ',' << v.binning << ',' << v.runMerge << ','
            << v.work << ',' << row.capacity << ',' << v.pixels << ',' << v.strip << ',' << row.groups << ','
            << row.sharedBytes << ',' << row.dispatchMedianUs << ',' << row.dispatchMinUs << ','
            << row.withClearMedianUs << ',' << row.binned << ',' << row.exact << ',' << row.movedPixels << ",\""
            << row.error << "\"\n";
    }
    return out.str();
}

}  // namespace app
