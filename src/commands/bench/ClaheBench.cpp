// ClaheBench.cpp: `hdrlab bench clahe` (commands/bench/ClaheBench.h): the image, the runs per backend,
// the table and the CSV.
#include "commands/bench/ClaheBench.h"

#include "commands/clahe/ClaheBackends.h"
#include "reference/Clahe.h"
#include "util/OutputFile.h"
#include "util/Stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <random>

namespace app {

namespace {

constexpr int kTilesX = 8, kTilesY = 8;
constexpr double kClipLimit = 40.0;
constexpr int kWarmupRuns = 20;
constexpr int kCpuRuns = 3;  ///< the reference takes tens of ms a run at 4K

std::string sizeText(glm::ivec2 size)
{
    return std::to_string(size.x) + "x" + std::to_string(size.y);
}

/// Times, outputs and checks one backend on one image.
template <class Sample>
void measure(ClaheRunner& runner,
             const ref::ClaheImage<Sample>& image,
             const ref::ClaheImage<Sample>& expected,
             const hd::ClaheGeometry& geometry,
             int runs,
             ClaheBenchRow& row)
{
    std::vector<Sample> result;
    if constexpr (sizeof(Sample) == 1)
        result = runner.run8(image.samples.data(), geometry);
    else
        result = runner.run16(image.samples.data(), geometry);
    row.exact = result == expected.samples;
    const bool cpu = row.backend == "cpu";
    if (!cpu)
        runner.time(std::min(runs, kWarmupRuns));  // a short run (tests, llvmpipe) warms up less
    const std::vector<ClaheStageTimings> timings = runner.time(cpu ? std::min(runs, kCpuRuns) : runs);
    std::vector<double> histogram, lut, blend, total, launchFloor;
    for (const ClaheStageTimings& t : timings) {
        launchFloor.push_back(t.launchFloorMs * 1e3);
        histogram.push_back(t.histogramMs * 1e3);
        lut.push_back(t.lutMs * 1e3);
        blend.push_back(t.blendMs * 1e3);
        total.push_back(t.totalMs() * 1e3);
    }
    row.runs = int(timings.size());
    row.histogramUs = util::median(histogram);
    row.lutUs = util::median(lut);
    row.blendUs = util::median(blend);
    row.totalUs = util::median(total);
    row.launchFloorUs = util::median(launchFloor);
    row.minTotalUs = *std::min_element(total.begin(), total.end());
}

template <class Sample>
ref::ClaheImage<Sample> planeOf(glm::ivec2 size, int bits)
{
    const std::vector<std::uint16_t> samples = claheBenchImage(size, bits);
    return {size.x, size.y, std::vector<Sample>(samples.begin(), samples.end())};
}

std::string cell(double us)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", us);
    return text;
}

}  // namespace

std::optional<double> claheTargetUs(const std::string& backend, glm::ivec2 size, int bits)
{
    const bool uhd = size == glm::ivec2{3840, 2160}, fullHd = size == glm::ivec2{1920, 1080};
    if (backend != "gl" && backend != "cuda")
        return std::nullopt;
    if (bits == 8 && uhd)
        return backend == "gl" ? 25.0 : 20.0;
    if (bits == 8 && fullHd)
        return 10.0;
    if (bits == 16 && uhd)
        return 250.0;
    return std::nullopt;
}

std::vector<std::uint16_t> claheBenchImage(glm::ivec2 size, int bits)
{
    // A dim, smooth scene (two slow waves), a bright window in the upper right, grain of 1 % of the
    // range: the values sit in a narrow band, as a photograph's do.
    const int maxValue = bits == 16 ? 65535 : 255;
    std::mt19937 rng(33);
    std::normal_distribution<double> grain(0.0, 0.01);
    std::vector<std::uint16_t> samples(std::size_t(size.x) * std::size_t(size.y));
    for (int y = 0; y < size.y; ++y)
        for (int x = 0; x < size.x; ++x) {
            const double u = double(x) / size.x, v = double(y) / size.y;
            double level =
                0.18 + 0.12 * std::sin(7.0 * u + 1.0) * std::cos(5.0 * v) + (u > 0.62 && v < 0.35 ? 0.55 : 0.0);
            level += grain(rng);
            samples[std::size_t(y) * std::size_t(size.x) + std::size_t(x)] =
                std::uint16_t(std::lround(std::clamp(level, 0.0, 1.0) * maxValue));
        }
    return samples;
}

std::vector<ClaheBenchRow> measureClaheBackends(const CommonOptions& common,
                                                const std::vector<glm::ivec2>& sizes,
                                                int runs)
{
    std::vector<ClaheBenchRow> rows;
    std::vector<std::unique_ptr<ClaheRunner>> runners;  // one per backend, made once (contexts, modules)
    std::vector<std::string> failures;
    for (const ClaheBackend& backend : claheBackends()) {
        std::unique_ptr<ClaheRunner> runner;
        std::string error;
        if (auto reason = backend.unavailableReason()) {
            error = "unavailable: " + *reason;
        } else {
            try {
                runner = backend.create(common);
            } catch (const std::exception& e) {
                error = std::string("failed to start: ") + e.what();
            }
        }
        runners.push_back(std::move(runner));
        failures.push_back(error);
    }
    for (int bits : {8, 16})
        for (glm::ivec2 size : sizes) {
            const int bins = bits == 16 ? hd::kClaheBins16 : hd::kClaheBins8;
            const hd::ClaheGeometry geometry = hd::claheGeometry(size.x, size.y, kTilesX, kTilesY, kClipLimit, bins);
            const auto image8 = bits == 8 ? planeOf<std::uint8_t>(size, 8) : ref::ClaheImage<std::uint8_t>{};
            const auto image16 = bits == 16 ? planeOf<std::uint16_t>(size, 16) : ref::ClaheImage<std::uint16_t>{};
            const auto expected8 = bits == 8 ? ref::clahe(image8, kClipLimit, kTilesX, kTilesY) : image8;
            const auto expected16 = bits == 16 ? ref::clahe(image16, kClipLimit, kTilesX, kTilesY) : image16;
            for (std::size_t b = 0; b < runners.size(); ++b) {
                ClaheBenchRow row;
                row.size = size;
                row.bits = bits;
                row.backend = std::string(claheBackends()[b].id);
                row.targetUs = claheTargetUs(row.backend, size, bits);
                row.error = failures[b];
                if (runners[b]) {
                    row.device = runners[b]->device();
                    try {
                        if (bits == 8)
                            measure(*runners[b], image8, expected8, geometry, runs, row);
                        else
                            measure(*runners[b], image16, expected16, geometry, runs, row);
                    } catch (const std::exception& e) {
                        row.error = std::string("failed: ") + e.what();
                    }
                }
                std::cerr << "bench clahe: " << sizeText(size) << " " << bits << "-bit " << row.backend << ": "
                          << (row.error.empty() ? cell(row.totalUs) + " us" : row.error) << "\n";
                rows.push_back(row);
            }
        }
    return rows;
}

std::string formatClaheBenchTable(const std::vector<ClaheBenchRow>& rows)
{
    std::string out =
        "| image | backend | histogram us | lut us | blend us | total us (median) | total us (min) | target us | "
        "exact |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n";
    for (const ClaheBenchRow& row : rows) {
        const std::string image = sizeText(row.size) + " " + std::to_string(row.bits) + "-bit";
        if (!row.error.empty()) {
            out += "| " + image + " | " + row.backend + " | " + row.error + " | | | | | | |\n";
            continue;
        }
        std::string target = "-";
        if (row.targetUs)
            target = cell(*row.targetUs) + (row.totalUs <= *row.targetUs ? " (met)" : " (missed)");
        out += "| " + image + " | " + row.backend + " | " + cell(row.histogramUs) + " | " + cell(row.lutUs) + " | " +
               cell(row.blendUs) + " | " + cell(row.totalUs) + " | " + cell(row.minTotalUs) + " | " + target + " | " +
               (row.exact ? "yes" : "**NO**") + " |\n";
    }
    return out;
}

std::string formatClaheBenchCsv(const std::vector<ClaheBenchRow>& rows)
{
    std::string out =
        "size,bits,backend,device,histogram_us,lut_us,blend_us,total_us,min_total_us,runs,exact,"
        "target_us,error\n";
    const auto field = [](std::string text) {
        std::replace(text.begin(), text.end(), ',', ';');
        std::replace(text.begin(), text.end(), '\n', ' ');
        return text;
    };
    for (const ClaheBenchRow& row : rows) {
        char numbers[256];
        std::snprintf(numbers, sizeof numbers, "%.3f,%.3f,%.3f,%.3f,%.3f,%d,%d", row.histogramUs, row.lutUs,
                      row.blendUs, row.totalUs, row.minTotalUs, row.runs, row.exact ? 1 : 0);
        out += sizeText(row.size) + "," + std::to_string(row.bits) + "," + row.backend + "," + field(row.device) + "," +
               (row.error.empty() ? std::string(numbers) : ",,,,,0,0") + "," +
               (row.targetUs ? cell(*row.targetUs) : "") + "," + field(row.error) + "\n";
    }
    return out;
}

int runClaheBench(const CommonOptions& common,
                  const std::vector<glm::ivec2>& sizes,
                  int runs,
                  const std::optional<std::filesystem::path>& csv)
{
    try {
        const std::vector<ClaheBenchRow> rows = measureClaheBackends(common, sizes, runs);
        std::cout << "\nCLAHE (OpenCV's arithmetic), " << kTilesX << "x" << kTilesY << " tiles, clip limit "
                  << kClipLimit << ", photo-like synthetic image; medians of " << runs << " runs after "
                  << std::min(runs, kWarmupRuns) << " warm-up runs (cpu: " << std::min(runs, kCpuRuns) << " runs)\n";
        for (const ClaheBenchRow& row : rows)
            if (!row.device.empty() && row.size == rows.front().size && row.bits == rows.front().bits)
                std::cout << "  " << row.backend << ": " << row.device << "\n";
        std::cout << "\n" << formatClaheBenchTable(rows) << std::flush;
        for (const ClaheBenchRow& row : rows)
            if (row.error.empty() && row.launchFloorUs > 0.0)
                std::cout << "launch floor (" << row.backend << ", " << sizeText(row.size) << " " << row.bits
                          << "-bit): an empty kernel between two events, median " << cell(row.launchFloorUs) << " us\n";
        if (csv) {
            util::writeFileAtomically(*csv, formatClaheBenchCsv(rows));
            std::cout << "wrote " << csv->string() << "\n";
        }
        for (const ClaheBenchRow& row : rows)
            if ((row.error.empty() && !row.exact) || row.error.rfind("failed", 0) == 0)
                return 1;
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "hdrlab: error: bench clahe: " << error.what() << "\n";
        return 1;
    }
}

}  // namespace app
