// CudaTimingCliTest.cpp: a CUDA histogram method's timing row is the GPU time of its own kernels
// (issue 39): in a 1080p headless run, "histogram/cuda-fast" is within 2x of the same method's build
// time that `compare` measures on its own (the kernels' CUDA events, repeated), and the wait for the
// GL scene at the interop hand-over is its own row, "interop-wait/histogram/cuda-fast". Skipped where
// CUDA does not run (the software renderer, a build without CUDA).
#include "cli/CliTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

namespace {

namespace fs = std::filesystem;
using cli_test::hdrlab;

/// The cells of one CSV line; a quoted cell (compare quotes its labels, which hold commas) is one
/// cell, without its quotes.
std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"')
            cells.back() += '"', ++i;
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            cells.emplace_back();
        else
            cells.back() += c;
    }
    return cells;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

TEST(CudaTimingCliTest, ACudaMethodsRowIsItsKernelsAndTheInteropWaitIsItsOwnRow)
{
    const fs::path dir = testing_support::scratchDir("cli-cuda-timing");
    const auto run = cli_test::runIn(dir, hdrlab("--headless --size 1920x1080 --frames 120 --histogram-method "
                                                 "cuda-fast --capture-csv t.csv"));
    if (run.output.find("unavailable") != std::string::npos || run.output.find("not available") != std::string::npos ||
        (run.exitCode != 0 && run.output.find("CUDA") != std::string::npos))
        GTEST_SKIP() << "CUDA does not run here: " << run.output;
    ASSERT_EQ(run.exitCode, 0) << run.output;
    std::map<std::string, std::vector<double>> gpuMs;
    std::ifstream in(dir / "t.csv");
    std::string line;
    std::getline(in, line);  // frame,pass,cpu_ms,gpu_ms,gpu_source
    while (std::getline(in, line)) {
        const auto cells = split(line);
        // After the warm-up; a pass without a GPU time (CPU-only) leaves its gpu_ms cell empty.
        if (cells.size() >= 5 && !cells[3].empty() && std::stoll(cells[0]) >= 20)
            gpuMs[cells[1]].push_back(std::stod(cells[3]));
    }
    ASSERT_TRUE(gpuMs.count("histogram/cuda-fast")) << "the method's row";
    ASSERT_TRUE(gpuMs.count("interop-wait/histogram/cuda-fast")) << "the hand-over's own row";
    const double row = median(gpuMs["histogram/cuda-fast"]);

    const auto compare = cli_test::runIn(dir, hdrlab("compare --size 1920x1080 --methods cuda-fast --csv c.csv"));
    ASSERT_EQ(compare.exitCode, 0) << compare.output;
    std::ifstream csv(dir / "c.csv");
    std::getline(csv, line);
    const auto header = split(line);
    const auto column = std::find(header.begin(), header.end(), "median_ms") - header.begin();
    double kernels = 0.0;
    while (std::getline(csv, line)) {
        const auto cells = split(line);
        if (!cells.empty() && cells[0] == "cuda-fast" && std::size_t(column) < cells.size() &&
            !cells[std::size_t(column)].empty())
            kernels = std::stod(cells[std::size_t(column)]);
    }
    ASSERT_GT(kernels, 0.0) << compare.output;
    EXPECT_LT(row, 2.0 * kernels) << "the row (" << row << " ms) is the kernels' time (" << kernels
                                  << " ms), not the wait for the scene";
    EXPECT_GT(row, 0.5 * kernels) << row << " ms against " << kernels << " ms";
    fs::remove_all(dir);
}

}  // namespace
