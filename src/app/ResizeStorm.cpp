#include "app/ResizeStorm.h"

#include "util/Log.h"

#include <GLFW/glfw3.h>

#include <random>
#include <set>
#include <stdexcept>
#include <utility>

namespace app {
namespace {

/// The sizes every storm starts with: degenerate, very wide, very tall.
constexpr glm::ivec2 kExtremeSizes[] = {{1, 1}, {4000, 1}, {1, 4000}, {2, 1}, {1, 2},   {4000, 2}, {3, 4000},
                                        {1, 1}, {16, 9},   {4000, 7}, {7, 3}, {1, 300}, {300, 1},  {2, 2}};
constexpr unsigned kBinChoices[] = {1, 64, 256, 1000, 4096};
constexpr int kDownsampleChoices[] = {1, 2, 4, 8};
constexpr std::uint32_t kSeed = 20240611u;
/// Ordinary random sizes stay small: the paper methods draw bins + 5 full-screen passes per frame,
/// and the storm must stay quick on a CPU rasteriser.
constexpr glm::ivec2 kMaxOrdinarySize{480, 270};
constexpr int kMaxWideSide = 4000;

/// Step i changes a setting every `period` steps, at `phase`, so the changes interleave.
bool every(int i, int period, int phase)
{
    return i % period == phase;
}

template <typename T>
const T& cycle(const std::vector<T>& list, int& next)
{
    return list[std::size_t(next++) % list.size()];
}

std::string sizeText(glm::ivec2 size)
{
    return std::to_string(size.x) + "x" + std::to_string(size.y);
}

}  // namespace

std::vector<StormStep> planResizeStorm(int steps,
                                       glm::ivec2 homeSize,
                                       const StormMethods& methods,
                                       const post::PipelineSettings& home)
{
    std::mt19937 random(kSeed);
    auto pick = [&random](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
    int nextHistogram = 1, nextScan = 1, nextTone = 1, nextBins = 0, nextDownsample = 1;
    bool autoRange = home.rangeMode == post::RangeMode::Auto;

    std::vector<StormStep> plan;
    plan.reserve(std::size_t(steps) + 1);
    for (int i = 0; i < steps; ++i) {
        StormStep step;
        if (std::size_t(i) < std::size(kExtremeSizes)) {
            step.windowSize = kExtremeSizes[i];
        } else if (every(i, 4, 0)) {  // tiny
            step.windowSize = {pick(1, 8), pick(1, 8)};
        } else if (every(i, 4, 1)) {  // a line or a column
            glm::ivec2 line{pick(1000, kMaxWideSide), pick(1, 3)};
            step.windowSize = pick(0, 1) ? line : glm::ivec2(line.y, line.x);
        } else {
            step.windowSize = {pick(1, kMaxOrdinarySize.x), pick(1, kMaxOrdinarySize.y)};
        }
        if (every(i, 20, 10))
            step.window = StormStep::Window::Iconify;
        else if (every(i, 20, 12))
            step.window = StormStep::Window::Restore;
        if (every(i, 3, 0) && !methods.histogram.empty())
            step.histogramMethod = cycle(methods.histogram, nextHistogram);
        if (every(i, 5, 1) && !methods.scan.empty())
            step.scanMethod = cycle(methods.scan, nextScan);
        if (every(i, 4, 2) && !methods.tone.empty())
            step.toneOperator = cycle(methods.tone, nextTone);
        if (every(i, 7, 3))
            step.bins = kBinChoices[std::size_t(nextBins++) % std::size(kBinChoices)];
        if (every(i, 9, 4))
            step.downsample = kDownsampleChoices[std::size_t(nextDownsample++) % std::size(kDownsampleChoices)];
        if (every(i, 13, 6))
            step.autoRange = autoRange = !autoRange;
        plan.push_back(std::move(step));
    }
    StormStep last;
    last.windowSize = homeSize;
    last.window = StormStep::Window::Restore;
    last.histogramMethod = home.histogramMethod;
    last.scanMethod = home.scanMethod;
    last.toneOperator = home.toneOperator;
    last.bins = home.spec.binCount;
    last.downsample = home.downsample;
    last.autoRange = home.rangeMode == post::RangeMode::Auto;
    plan.push_back(std::move(last));
    return plan;
}

StormMethods availableStormMethods(const post::GpuCaps& caps)
{
    StormMethods methods;
    for (const post::HistogramMethodEntry& entry : post::histogramMethodRegistry())
        if (entry.create()->availability(caps).available)
            methods.histogram.emplace_back(entry.id);
    for (const post::ScanMethodEntry& entry : post::scanMethodRegistry())
        if (entry.create()->availability(caps).available)
            methods.scan.emplace_back(entry.id);
    for (const post::ToneOperatorEntry& entry : post::toneOperatorRegistry())
        methods.tone.emplace_back(entry.id);
    return methods;
}

ResizeStorm::ResizeStorm(int steps, glm::ivec2 homeSize, const post::GpuCaps& caps, const post::PipelineSettings& home)
    : mPlan(planResizeStorm(steps, homeSize, availableStormMethods(caps), home))
{
}

bool ResizeStorm::apply(std::size_t iteration, GLFWwindow* window, post::PostPipeline& pipeline)
{
    if (iteration >= mPlan.size())
        return false;
    const StormStep& step = mPlan[iteration];
    mApplied = iteration + 1;

    if (step.window == StormStep::Window::Iconify) {
        glfwIconifyWindow(window);
        ++mIconifies;
    }
    glfwSetWindowSize(window, step.windowSize.x, step.windowSize.y);
    if (step.window == StormStep::Window::Restore)
        glfwRestoreWindow(window);

    post::PipelineSettings settings = pipeline.settings();
    // A fused method runs only where the frame's lighting pass bins for it (not forward lighting, view).
    if (step.histogramMethod) {
        const auto method = post::createHistogramMethod(*step.histogramMethod);
        if (!method || pipeline.histogramAvailability(*method).available)
            settings.histogramMethod = *step.histogramMethod;
    }
    if (step.scanMethod)
        settings.scanMethod = *step.scanMethod;
    if (step.toneOperator)
        settings.toneOperator = *step.toneOperator;
    if (step.bins)
        settings.spec.binCount = *step.bins;
    if (step.downsample)
        settings.downsample = *step.downsample;
    if (step.autoRange)
        settings.rangeMode = *step.autoRange ? post::RangeMode::Auto : post::RangeMode::Manual;
    std::string message;
    const bool changed = pipeline.applySettings(settings, &message);
    const post::PipelineSettings& now = pipeline.settings();
    if (now.histogramMethod != settings.histogramMethod || now.scanMethod != settings.scanMethod ||
        now.toneOperator != settings.toneOperator)
        throw std::runtime_error("resize storm, " + describe(iteration, settings) +
                                 ": the pipeline refused the switch: " + message);
    if (changed)
        ++mSwitches;
    return changed;
}

std::string ResizeStorm::describe(std::size_t iteration, const post::PipelineSettings& current) const
{
    const std::size_t shown = std::min(iteration, mPlan.size() - 1);
    const StormStep& step = mPlan[shown];
    std::string text = util::format("step {}/{}: window {}", shown + 1, mPlan.size(), sizeText(step.windowSize));
    if (step.window == StormStep::Window::Iconify)
        text += " (iconified)";
    return text + util::format(", {}, {}, {}, {} bins, downsample {}, range {}", current.histogramMethod,
                               current.scanMethod, current.toneOperator, current.spec.binCount, current.downsample,
                               current.rangeMode == post::RangeMode::Auto ? "auto" : "manual");
}

void ResizeStorm::noteRenderedFrame(glm::ivec2 framebufferSize)
{
    mRenderedSizes.insert({framebufferSize.x, framebufferSize.y});
}

std::string ResizeStorm::summary() const
{
    std::set<std::pair<int, int>> requested;
    for (std::size_t i = 0; i < mApplied; ++i)
        requested.insert({mPlan[i].windowSize.x, mPlan[i].windowSize.y});
    // Extremes of what was really rendered: the smallest area, the widest and the tallest aspect.
    std::pair<int, int> smallest{0, 0}, widest{0, 0}, tallest{0, 0};
    for (const auto& [x, y] : mRenderedSizes) {
        if (smallest.first == 0 || x * y < smallest.first * smallest.second)
            smallest = {x, y};
        if (widest.first == 0 || x * 1.0 / y > widest.first * 1.0 / widest.second)
            widest = {x, y};
        if (tallest.first == 0 || y * 1.0 / x > tallest.second * 1.0 / tallest.first)
            tallest = {x, y};
    }
    auto text = [](std::pair<int, int> size) { return sizeText({size.first, size.second}); };
    return util::format(
        "resize storm: {} steps, {} distinct window sizes requested, {} rendered (smallest {}, "
        "widest {}, tallest {}), {} iconify requests, {} settings switches, {} frames skipped while "
        "minimised or empty",
        mApplied, requested.size(), mRenderedSizes.size(), text(smallest), text(widest), text(tallest), mIconifies,
        mSwitches, mSkippedFrames);
}

}  // namespace app
