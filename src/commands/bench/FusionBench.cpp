// FusionBench.cpp: `hdrlab bench fusion` (commands/bench/FusionBench.h): the frame, the runs per size,
// the table and the CSV.
#include "commands/bench/FusionBench.h"

#include "gl/Program.h"
#include "gl/Texture.h"
#include "platform/GlContext.h"
#include "post/localexposure/ExposureFusion.h"
#include "reference/ExposureFusion.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/Stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>

namespace app {

namespace {

constexpr int kWarmupRuns = 20;
constexpr float kExposureLog2 = 0.0f;

std::string sizeText(glm::ivec2 size)
{
    return std::to_string(size.x) + "x" + std::to_string(size.y);
}

std::string cell(double us)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", us);
    return text;
}

post::FusionSettings benchSettings()
{
    post::FusionSettings s;
    s.highlightContrastScale = 0.8f;  // Unreal's new-project templates
    s.shadowContrastScale = 0.8f;
    return s;
}

/// A dim wall (about -5 EV from middle grey, slow waves), a window 8 EV brighter, grain of 0.3 EV; the
/// values already halves, so the RGBA16F upload and the CPU reference see the same numbers.
std::vector<float> benchFrame(glm::ivec2 size)
{
    std::vector<float> rgba(std::size_t(size.x) * std::size_t(size.y) * 4);
    std::mt19937 rng(34);
    std::normal_distribution<float> grain(0.0f, 0.3f);
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const float u = (float(x) + 0.5f) / float(size.x), v = (float(y) + 0.5f) / float(size.y);
            float ev = -5.0f + 2.0f * std::sin(9.0f * u) * std::cos(6.0f * v) + grain(rng);
            if (u > 0.55f && u < 0.85f && v > 0.2f && v < 0.6f)
                ev += 8.0f;
            const float luminance = 0.18f * std::exp2(ev);
            float* p = &rgba[(std::size_t(y) * std::size_t(size.x) + std::size_t(x)) * 4];
            p[0] = hd::hdRoundToHalf(luminance * 1.1f);
            p[1] = hd::hdRoundToHalf(luminance);
            p[2] = hd::hdRoundToHalf(luminance * 0.8f);
            p[3] = 1.0f;
        }
    return rgba;
}

void measure(gl::ShaderLibrary& shaders, glm::ivec2 size, int runs, FusionBenchRow& row)
{
    const post::FusionSettings settings = benchSettings();
    const std::vector<float> rgba = benchFrame(size);
    gl::Texture frame("bench.fusion-frame", GL_RGBA16F, size);
    frame.upload(GL_RGBA, GL_FLOAT, rgba.data());
    post::ExposureFusion fusion;
    fusion.time(shaders, frame, size, kExposureLog2, settings, 1);
    const std::vector<float> map = fusion.exposureLog2Texture().readRgbaFloat();
    const ref::FusionResult expected = ref::exposureFusion(rgba.data(), size.x, size.y, kExposureLog2, settings);
    row.exact = map.size() == expected.adjustment.size() * 4;
    for (std::size_t i = 0; row.exact && i < expected.adjustment.size(); ++i)
        row.exact = map[i * 4] == expected.adjustment[i];
    row.reduction = fusion.reduction();
    row.levels = fusion.levels();
    row.mapSize = fusion.mapSize();
    fusion.time(shaders, frame, size, kExposureLog2, settings, std::min(runs, kWarmupRuns));
    std::vector<double> reduce, pyramid, collapse, total;
    for (const post::ExposureFusionTimings& t : fusion.time(shaders, frame, size, kExposureLog2, settings, runs)) {
        reduce.push_back(t.reduceMs * 1e3);
        pyramid.push_back(t.pyramidMs * 1e3);
        collapse.push_back(t.collapseMs * 1e3);
        total.push_back(t.totalMs() * 1e3);
    }
    row.runs = int(total.size());
    row.reduceUs = util::median(reduce);
    row.pyramidUs = util::median(pyramid);
    row.collapseUs = util::median(collapse);
    row.totalUs = util::median(total);
    row.minTotalUs = *std::min_element(total.begin(), total.end());
}

}  // namespace

std::optional<double> fusionTargetUs(glm::ivec2 size)
{
    if (size == glm::ivec2{3840, 2160})
        return 150.0;
    return std::nullopt;
}

std::string formatFusionBenchTable(const std::vector<FusionBenchRow>& rows)
{
    std::string out =
        "| frame | base (levels) | reduce us | pyramid us | collapse us | total us (median) | total us (min) | "
        "target us | exact |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const FusionBenchRow& row : rows) {
        const std::string frame = sizeText(row.size) + " " + row.format;
        if (!row.error.empty()) {
            out += "| " + frame + " | " + row.error + " | | | | | | | |\n";
            continue;
        }
        std::string target = "-";
        if (row.targetUs)
            target = cell(*row.targetUs) + (row.totalUs <= *row.targetUs ? " (met)" : " (missed)");
        out += "| " + frame + " | " + sizeText(row.mapSize) + " (" + std::to_string(row.levels) + ") | " +
               cell(row.reduceUs) + " | " + cell(row.pyramidUs) + " | " + cell(row.collapseUs) + " | " +
               cell(row.totalUs) + " | " + cell(row.minTotalUs) + " | " + target + " | " +
               (row.exact ? "yes" : "**NO**") + " |\n";
    }
    return out;
}

std::string formatFusionBenchCsv(const std::vector<FusionBenchRow>& rows)
{
    std::string out =
        "size,format,reduction,levels,map,device,reduce_us,pyramid_us,collapse_us,total_us,min_total_us,runs,exact,"
        "target_us,error\n";
    const auto field = [](std::string text) {
        std::replace(text.begin(), text.end(), ',', ';');
        std::replace(text.begin(), text.end(), '\n', ' ');
        return text;
    };
    for (const FusionBenchRow& row : rows) {
        char numbers[256];
        std::snprintf(numbers, sizeof numbers, "%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d", row.reduceUs, row.pyramidUs,
                      row.collapseUs, row.totalUs, row.minTotalUs, row.runs, row.exact ? 1 : 0);
        out += sizeText(row.size) + "," + row.format + "," + std::to_string(row.reduction) + "," +
               std::to_string(row.levels) + "," + sizeText(row.mapSize) + "," + field(row.device) + "," +
               (row.error.empty() ? std::string(numbers) : ",,,,,0,0") + "," +
               (row.targetUs ? cell(*row.targetUs) : "") + "," + field(row.error) + "\n";
    }
    return out;
}

int runFusionBench(const CommonOptions& common,
                   const std::vector<glm::ivec2>& sizes,
                   int runs,
                   const std::optional<std::filesystem::path>& csv)
{
    try {
        const std::unique_ptr<platform::GlContext> context =
            platform::createHeadlessContext(platform::ContextOptions{});
        gl::ShaderLibrary shaders(util::findDataRoot(common.dataDir) / "shaders");
        const std::string device = "GL: " + context->info().renderer;
        std::vector<FusionBenchRow> rows;
        for (glm::ivec2 size : sizes) {
            FusionBenchRow row;
            row.size = size;
            row.device = device;
            row.targetUs = fusionTargetUs(size);
            try {
                measure(shaders, size, runs, row);
            } catch (const std::exception& e) {
                row.error = std::string("failed: ") + e.what();
            }
            std::cerr << "bench fusion: " << sizeText(size) << ": "
                      << (row.error.empty() ? cell(row.totalUs) + " us" : row.error) << "\n";
            rows.push_back(row);
        }
        std::cout << "\nFusion local exposure (exposure fusion, Unreal 5.5's Fusion method), contrast scales 0.8/0.8, "
                     "synthetic RGBA16F frame; medians of "
                  << runs << " runs after " << std::min(runs, kWarmupRuns) << " warm-up runs\n  " << device << "\n\n"
                  << formatFusionBenchTable(rows) << std::flush;
        if (csv) {
            util::writeFileAtomically(*csv, formatFusionBenchCsv(rows));
            std::cout << "wrote " << csv->string() << "\n";
        }
        for (const FusionBenchRow& row : rows)
            if (!row.error.empty() || !row.exact)
                return 1;
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "hdrlab: error: bench fusion: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace app
