// WardFactors.cpp: see WardFactors.h. Each variant is a ToneWard of its own (its own programs and
// buffers), fitted once through computeCurve (which makes its foveal image), then timed with
// ToneWard::refit, the fit's dispatches alone, in rounds over every variant as histogram-factors does.
#include "commands/bench/WardFactors.h"

#include "commands/CommandFlags.h"
#include "gl/Debug.h"
#include "gl/Query.h"
#include "post/AutoRange.h"
#include "post/LuminanceUnits.h"
#include "post/histogram/HistogramMethod.h"
#include "post/tonemap/ToneShaders.h"
#include "post/tonemap/ToneWard.h"
#include "reference/ToneWardExact.h"
#include "util/Log.h"

#include "platform/GlContext.h"
#include "profiling/Profiler.h"
#include "scene/Scene.h"
#include "scene/SceneRenderer.h"
#include "util/OutputFile.h"
#include "util/Paths.h"
#include "util/Stats.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace app {

namespace {

using post::WardCeilingLoop;

std::string_view loopName(WardCeilingLoop loop)
{
    switch (loop) {
        case WardCeilingLoop::Auto:
            return "auto";
        case WardCeilingLoop::Workgroup:
            return "workgroup";
        case WardCeilingLoop::LanesShared:
            return "lanes-shared";
        case WardCeilingLoop::LanesSubgroup:
            return "lanes-subgroup";
    }
    return "?";
}

/// "" when the fit `op` made (its curve and state words as read back) is the CPU model's
/// (ref::wardFrameFitExact on its foveal image) bit for bit, else the first difference.
std::string differenceFromCpuModel(const post::ToneWard& op,
                                   const std::vector<float>& curve,
                                   const std::vector<float>& state,
                                   const hd::LuminanceWeights& weights)
{
    using namespace post::ward_state;
    const glm::ivec2 grid = op.fovealImage().size();
    const post::WardSettings& s = op.settings();
    const ref::WardExactFit e = ref::wardFrameFitExact(op.fovealImage().readRgbaFloat(), grid.x, grid.y, s, s.bins,
                                                       weights, post::kWardCurveSamples);
    const std::pair<const char*, std::pair<std::uint32_t, float>> words[] = {
        {"outcome", {kOutcome, float(e.outcome)}},
        {"passes", {kPasses, float(e.passes)}},
        {"bwmin", {kBwmin, e.range.bwmin}},
        {"bwmax", {kBwmax, e.range.bwmax}},
        {"bwavg", {kBwavg, e.range.bwavg}},
        {"samples", {kSamples, e.range.samples}},
        {"histot", {kHistot, e.histot}},
        {"final total", {kFinalTotal, e.finalTotal}},
        {"ceiling fraction", {kCeilingFraction, e.ceilingFraction}},
        {"range valid", {kRangeValid, e.range.valid ? 1.0f : 0.0f}},
        {"duplicated", {kDuplicated, e.range.duplicated ? 1.0f : 0.0f}},
        {"converged", {kConverged, e.converged ? 1.0f : 0.0f}},
        {"linear scale", {kLinearScale, e.linearScale}},
    };
    const auto bits = [](float x) { return std::bit_cast<std::uint32_t>(x); };
    for (const auto& [name, word] : words)
        if (bits(state[word.first]) != bits(word.second))
            return std::string("state ") + name;
    if (op.histogramBuffer().readAll<std::uint32_t>(s.bins) != e.bins)
        return "histogram";
    const std::pair<std::uint32_t, float> header[] = {{hd::kCurveLogMin, e.curveLogMin},
                                                      {hd::kCurveLogMax, e.curveLogMax},
                                                      {hd::kCurveMode, e.curveMode},
                                                      {hd::kCurveScale, e.curveScale}};
    for (const auto& [index, value] : header)
        if (bits(curve[index]) != bits(value))
            return "curve header word " + std::to_string(index);
    for (std::size_t i = 0; i < e.curve.size(); ++i)
        if (bits(curve[hd::kCurveHeaderWords + i]) != bits(e.curve[i]))
            return "curve sample " + std::to_string(i);
    return {};
}

}  // namespace

std::vector<WardFactorVariant> wardFactorVariants()
{
    std::vector<WardFactorVariant> list;
    auto add = [&](std::string name, std::string factor, auto change) {
        WardFactorVariant v;
        v.name = std::move(name);
        v.factor = std::move(factor);
        change(v);
        list.push_back(v);
    };
    using L = WardCeilingLoop;
    using P = post::WardCurvePath;
    using Parts = post::WardSpreadParts;
    add("pipeline", "as the method runs", [](auto& v) { v.path = P::Spread; });
    // The spread path's two dispatches alone, its slice per invocation, and the kernel it replaced.
    add("spread: range dispatch alone", "spread", [](auto& v) { v.path = P::Spread, v.parts = Parts::RangeOnly; });
    add("spread: bin + fit dispatch alone", "spread", [](auto& v) { v.path = P::Spread, v.parts = Parts::BinAndFit; });
    for (std::uint32_t samples : {1u, 2u, 8u})
        add("spread, " + std::to_string(samples) + (samples == 1 ? " sample" : " samples") + " per invocation",
            "spread", [&](auto& v) { v.path = P::Spread, v.samplesPerInvocation = samples; });
    for (std::uint32_t size : {128u, 512u})
        add("spread, " + std::to_string(size) + " invocations", "spread",
            [&](auto& v) { v.path = P::Spread, v.groupSize = size; });
    add("one workgroup (before)", "spread", [](auto& v) { v.path = P::OneWorkgroup; });
    // The fit where the pipeline runs it: right after the histogram pass that wrote the foveal image.
    add("spread, after the histogram pass", "context",
        [](auto& v) { v.path = P::Spread, v.afterHistogramPass = true; });
    add("one workgroup, after the histogram pass", "context",
        [](auto& v) { v.path = P::OneWorkgroup, v.afterHistogramPass = true; });
    add("spread, range keys from the histogram pass", "context",
        [](auto& v) { v.path = P::Spread, v.afterHistogramPass = true, v.rangeKeys = true; });
    add("spread, after the histogram pass and a glFinish", "context",
        [](auto& v) { v.path = P::Spread, v.afterHistogramPass = true, v.finishHistogramPass = true; });
    add("spread, after a streaming read of the frame's bytes", "context",
        [](auto& v) { v.path = P::Spread, v.afterStreamingRead = true; });
    // The stages, on each loop: differences of consecutive rows are the stages' costs.
    for (L loop : {L::Workgroup, L::LanesSubgroup}) {
        const std::string prefix = loop == L::Workgroup ? "workgroup loop" : "subgroup loop";
        add(prefix + ": range + log-average", "stages", [&](auto& v) { v.loop = loop, v.stopAfter = 1; });
        add(prefix + ": + histogram", "stages", [&](auto& v) { v.loop = loop, v.stopAfter = 2; });
        add(prefix + ": + first pass", "stages", [&](auto& v) { v.loop = loop, v.stopAfter = 3, v.passLimit = 1; });
        add(prefix + ": + every pass", "stages", [&](auto& v) { v.loop = loop, v.stopAfter = 3; });
        add(prefix + ": + CDF, LUT, view (whole fit)", "stages", [&](auto& v) { v.loop = loop; });
    }
    add("lanes, sums through shared memory", "ceiling loop", [](auto& v) { v.loop = L::LanesShared; });
    // The parallel parts (the samples' reads, the reductions, the LUT) on more invocations.
    for (std::uint32_t size : {512u, 1024u}) {
        const std::string prefix = std::to_string(size) + " invocations";
        add(prefix + ": range + log-average + histogram", "workgroup size",
            [&](auto& v) { v.loop = L::Workgroup, v.stopAfter = 2, v.groupSize = size; });
        add(prefix + ": whole fit, subgroup loop", "workgroup size",
            [&](auto& v) { v.loop = L::LanesSubgroup, v.groupSize = size; });
        add(prefix + ": whole fit, workgroup loop", "workgroup size",
            [&](auto& v) { v.loop = L::Workgroup, v.groupSize = size; });
    }
    // The TVI ceiling: per-pass transcendentals (hdExp, hdWardThreshold, hdDivide) per bin.
    add("TVI ceiling, pipeline", "TVI ceiling", [](auto& v) { v.path = P::Spread, v.humanContrast = true; });
    for (L loop : {L::Workgroup, L::LanesShared, L::LanesSubgroup}) {
        const std::string name = "TVI ceiling, " + std::string(loopName(loop));
        add(name, "TVI ceiling", [&](auto& v) { v.loop = loop, v.humanContrast = true; });
        add(name + ": first pass", "TVI ceiling",
            [&](auto& v) { v.loop = loop, v.humanContrast = true, v.stopAfter = 3, v.passLimit = 1; });
        add(name + ": every pass", "TVI ceiling",
            [&](auto& v) { v.loop = loop, v.humanContrast = true, v.stopAfter = 3; });
        add(name + ", threshold constant", "TVI ceiling",
            [&](auto& v) { v.loop = loop, v.humanContrast = true, v.constantThreshold = true; });
    }
    return list;
}

std::vector<WardFactorRow> measureWardFactors(post::PassContext& ctx,
                                              const post::ImageInput& image,
                                              float fovYDegrees,
                                              int runs,
                                              const std::vector<WardFactorVariant>& variants)
{
    using namespace post::ward_state;
    std::unique_ptr<post::HistogramMethod> method = post::createHistogramMethod("compute-shared-atomic");
    post::HistogramSpec spec{hd::kDefaultHistogramBins, post::OutOfRange::Clamp};
    post::LuminanceUnits units;  // a pre-exposed frame's weights times 2^-k, as the pipeline passes them
    units.preExposure = image.preExposure;
    spec.luminance = units.effectiveWeights();
    spec.cdPerUnit = float(units.cdPerUnit());
    spec.storedScale = units.storedScale();
    // The pipeline's histogram buffers: Ward reads none of them (it bins its own foveal samples).
    gl::Buffer histogram("ward-factors/histogram", hd::kHistogramBufferWords * sizeof(std::uint32_t));
    gl::Buffer cdf("ward-factors/cdf", hd::kMaxHistogramBins * sizeof(std::uint32_t));
    gl::Buffer params = post::createHistogramParamsBuffer("ward-factors/params");

    struct Prepared
    {
        std::unique_ptr<post::ToneWard> op;
        gl::Buffer curve;
        std::vector<double> us;
    };
    std::vector<WardFactorRow> rows;
    std::vector<Prepared> prepared(variants.size());
    const std::uint32_t subgroup = post::WardCurveProgram::subgroupLanes(ctx.caps);
    for (std::size_t index = 0; index < variants.size(); ++index) {
        const WardFactorVariant& v = variants[index];
        WardFactorRow& row = rows.emplace_back();
        row.variant = v;
        if (v.loop == WardCeilingLoop::LanesSubgroup && !subgroup) {
            row.error = "no subgroup arithmetic in compute shaders here";
            continue;
        }
        Prepared& p = prepared[index];
        p.op = std::make_unique<post::ToneWard>();
        post::WardSettings s;
        s.sampling = post::WardSampling::Frame;
        s.humanContrast = v.humanContrast;
        p.op->setSettings(s);
        p.op->setCeilingLoop(v.loop);
        gl::ShaderDefines experiment;
        if (v.stopAfter)
            experiment.emplace_back("STOP_AFTER", std::to_string(v.stopAfter));
        if (v.passLimit)
            experiment.emplace_back("PASS_LIMIT", std::to_string(v.passLimit));
        if (v.constantThreshold)
            experiment.emplace_back("CONSTANT_THRESHOLD", "1");
        if (v.groupSize)
            experiment.emplace_back("GROUP_SIZE", std::to_string(v.groupSize));
        if (v.samplesPerInvocation)
            experiment.emplace_back("SAMPLES_PER_INVOCATION", std::to_string(v.samplesPerInvocation));
        p.op->setCurveExperiment(experiment);
        p.op->setCurvePath(v.path);
        p.op->setSpreadParts(v.parts);
        p.op->setRangeKeysFromHistogram(v.rangeKeys);
        p.curve = gl::Buffer("ward-factors/curve", hd::kCurveBufferWords * sizeof(float));
        // Zero: the fit writes the header and one channel's samples, and the whole buffer is compared
        // (uninitialised words beyond them once made equal fits look different).
        p.curve.clearUint(0u);
        const post::ToneInputs inputs{image, image, histogram, cdf, params, spec, 1.0 / 60.0, fovYDegrees, *method};
        p.op->computeCurve(ctx, inputs, p.curve);  // the foveal image and a first fit
        row.loopUsed = p.op->ceilingLoopUsed();
    }

    // The pipeline's histogram pass with `op`'s foveal target: the frame binned, the foveal image written.
    post::writeHistogramParams(params, -10.0f, 20.0f, spec, image.size);
    const auto histogramPassWithFoveal = [&](post::ToneWard& op) {
        post::FovealTarget* foveal = op.fovealTarget(image.size, fovYDegrees);
        if (!foveal)
            return;
        post::HistogramTargets targets{histogram, params, nullptr};
        targets.foveal = foveal;
        method->build(ctx, image, spec, targets);
        foveal->written = false;
    };

    // A plain read of as many bytes as the frame holds (the memory floor's kernel), nothing else.
    const std::size_t frameBytes =
        std::size_t(image.size.x) * std::size_t(image.size.y) * (image.texture.format() == GL_RGBA16F ? 8u : 16u);
    gl::Buffer streamSource("ward-factors/stream-source", frameBytes);
    gl::Buffer streamSink("ward-factors/stream-sink", 16);
    streamSource.clearUint(0x5a5a5a5au);  // one repeated word: the fold is 0, never the sentinel
    const gl::Program streamProgram = ctx.shaders.buildCompute("ward-factors.stream-read", "bench/StreamRead.comp");
    const auto streamingRead = [&] {
        streamProgram.use();
        streamProgram.set(0, unsigned(frameBytes / 16));
        streamProgram.set(1, 1u);
        streamSource.bindBase(GL_SHADER_STORAGE_BUFFER, 0);
        streamSink.bindBase(GL_SHADER_STORAGE_BUFFER, 1);
        glDispatchCompute(1024, 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    };

    // Rounds over every variant, so a change of the GPU's clocks reaches every variant alike; each
    // variant's warm-up dispatches are queued (flushed, not waited for) before its timed ones.
    const int rounds = std::clamp(runs / 20, 1, 10);
    const int perRound = std::max(1, runs / rounds);
    const int warmup = std::min(10, runs);
    std::vector<gl::Query> stamps;
    for (int i = 0; i < perRound * 2; ++i)
        stamps.emplace_back("ward-factors/stamp", GL_TIMESTAMP);
    for (int round = 0; round < rounds; ++round)
        for (std::size_t index = 0; index < variants.size(); ++index) {
            Prepared& p = prepared[index];
            if (!rows[index].error.empty())
                continue;
            gl::DebugGroup group("ward-factors/" + variants[index].name);
            for (int i = 0; i < warmup; ++i)
                p.op->refit(ctx, p.curve);
            glFlush();
            for (int i = 0; i < perRound; ++i) {
                if (variants[index].afterHistogramPass)
                    histogramPassWithFoveal(*p.op);
                if (variants[index].afterStreamingRead)
                    streamingRead();
                if (variants[index].finishHistogramPass)
                    glFinish();  // a benchmark: the pass has ended before the fit's first timestamp
                stamps[std::size_t(i) * 2].timestamp();
                p.op->refit(ctx, p.curve);
                stamps[std::size_t(i) * 2 + 1].timestamp();
            }
            for (std::size_t i = 0; i + 1 < stamps.size(); i += 2)
                p.us.push_back(double(stamps[i + 1].waitResult() - stamps[i].waitResult()) * 1e-3);
        }

    // The references: the pipeline's own fit, one per ceiling, itself checked against the CPU model.
    std::vector<float> referenceCurve[2], referenceState[2];
    bool haveReference[2] = {false, false};
    for (std::size_t index = 0; index < variants.size(); ++index) {
        const WardFactorVariant& v = variants[index];
        WardFactorRow& row = rows[index];
        if (!row.error.empty())
            continue;
        Prepared& p = prepared[index];
        row.medianUs = util::median(p.us);
        row.minUs = *std::min_element(p.us.begin(), p.us.end());
        p.op->refit(ctx, p.curve);
        const std::vector<float> state = p.op->stateBuffer().readAll<float>(kWords);
        const std::vector<float> curve = p.curve.readAll<float>(hd::kCurveBufferWords);
        if ((v.stopAfter == 0 || v.stopAfter == 3) && v.parts != post::WardSpreadParts::RangeOnly)
            row.passes = int(state[kPasses]);
        if (v.complete())
            row.outcome = int(state[kOutcome]);
        if (v.pipeline() && !haveReference[v.humanContrast]) {
            referenceCurve[v.humanContrast] = curve;
            referenceState[v.humanContrast] = state;
            haveReference[v.humanContrast] = true;
            row.cpuDifference = differenceFromCpuModel(*p.op, curve, state, spec.luminance);
            row.cpuExact = row.cpuDifference.empty();
        }
    }
    for (std::size_t index = 0; index < variants.size(); ++index) {  // again, now that the references exist
        const WardFactorVariant& v = variants[index];
        WardFactorRow& row = rows[index];
        if (!row.error.empty() || !v.complete())
            continue;
        Prepared& p = prepared[index];
        p.op->refit(ctx, p.curve);
        // The first word that differs, named, so a difference can be told apart from a different input.
        const auto firstDifference = [](const char* what, const std::vector<float>& a, const std::vector<float>& b) {
            for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
                if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i]))
                    return util::format("{} word {}: {} (pipeline {})", what, i, a[i], b[i]);
            return std::string();
        };
        const std::vector<float> curve = p.curve.readAll<float>(hd::kCurveBufferWords);
        const std::vector<float> state = p.op->stateBuffer().readAll<float>(kWords);
        if (haveReference[v.humanContrast]) {
            row.difference = firstDifference("state", state, referenceState[v.humanContrast]);
            if (row.difference.empty())
                row.difference = firstDifference("curve", curve, referenceCurve[v.humanContrast]);
        }
        row.exact = haveReference[v.humanContrast] && row.difference.empty();
        if (!row.exact && !v.pipeline()) {  // against the CPU model on its own foveal image
            row.cpuDifference = differenceFromCpuModel(*p.op, curve, state, spec.luminance);
            row.cpuExact = row.cpuDifference.empty();
        }
    }
    for (std::size_t index = 0; index < variants.size(); ++index) {  // the keys path against both dispatches
        if (!variants[index].rangeKeys || !rows[index].error.empty())
            continue;
        Prepared& p = prepared[index];
        if (!p.op->fovealTarget(image.size, fovYDegrees)) {
            rows[index].keysDifference =
                "no foveal image from the histogram pass at this size (blocks under 32 pixels)";
            continue;
        }
        histogramPassWithFoveal(*p.op);
        p.op->refit(ctx, p.curve);
        const bool used = p.op->rangeFromHistogramPass();
        const std::vector<float> keysCurve = p.curve.readAll<float>(hd::kCurveBufferWords);
        const std::vector<float> keysState = p.op->stateBuffer().readAll<float>(kWords);
        p.op->refit(ctx, p.curve);  // no keys written since: both dispatches, on the same foveal image
        const auto same = [](const std::vector<float>& a, const std::vector<float>& b) {
            return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](float x, float y) {
                return std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
            });
        };
        rows[index].keysDifference =
            !used                                                             ? "the range keys were not used"
            : !same(keysState, p.op->stateBuffer().readAll<float>(kWords))    ? "state differs from the two dispatches'"
            : !same(keysCurve, p.curve.readAll<float>(hd::kCurveBufferWords)) ? "curve differs from the two dispatches'"
                                                                              : "";
    }
    return rows;
}

namespace {

/// The stage split the "stages" rows imply for one loop: each row minus the one before it.
std::string stageSplit(const std::vector<WardFactorRow>& rows, const std::string& prefix)
{
    std::vector<const WardFactorRow*> stages;
    for (const WardFactorRow& row : rows)
        if (row.variant.factor == "stages" && row.variant.name.rfind(prefix, 0) == 0 && row.error.empty() &&
            row.variant.groupSize == 0)
            stages.push_back(&row);
    if (stages.size() != 5)
        return {};
    const int passes = stages[4]->passes;
    const double first = stages[2]->medianUs - stages[1]->medianUs;
    const double further = stages[3]->medianUs - stages[2]->medianUs;
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: read + range + log-average %.1f us, histogram %.1f us, first pass %.1f us, %d further "
                  "passes %.1f us (%.2f us each), CDF + LUT + view %.1f us; whole fit %.1f us\n",
                  prefix.c_str(), stages[0]->medianUs, stages[1]->medianUs - stages[0]->medianUs, first,
                  std::max(passes - 1, 0), further, passes > 1 ? further / (passes - 1) : 0.0,
                  stages[4]->medianUs - stages[3]->medianUs, stages[4]->medianUs);
    out << line;
    return out.str();
}

/// The spread path's dispatches against the one-workgroup kernel it replaced.
std::string spreadSplit(const std::vector<WardFactorRow>& rows)
{
    const auto find = [&](std::string_view name) -> const WardFactorRow* {
        for (const WardFactorRow& row : rows)
            if (row.variant.name == name && row.error.empty())
                return &row;
        return nullptr;
    };
    const WardFactorRow* both = find("pipeline");
    const WardFactorRow* range = find("spread: range dispatch alone");
    const WardFactorRow* fit = find("spread: bin + fit dispatch alone");
    const WardFactorRow* before = find("one workgroup (before)");
    if (!both || !range || !fit || !before)
        return {};
    char line[256];
    std::snprintf(line, sizeof line,
                  "spread (the pipeline): range dispatch %.1f us, bin + fit dispatch %.1f us, both %.1f us; one "
                  "workgroup (before) %.1f us\n",
                  range->medianUs, fit->medianUs, both->medianUs, before->medianUs);
    return line;
}

}  // namespace

std::string formatWardFactorTable(const std::vector<WardFactorRow>& rows)
{
    std::ostringstream out;
    out << "| factor | variant | loop | passes | fit us (median) | min | curve |\n|---|---|---|---:|---:|---:|---|\n";
    char line[512];
    for (const WardFactorRow& row : rows) {
        if (!row.error.empty()) {
            out << "| " << row.variant.factor << " | " << row.variant.name << " | | | not run: " << row.error
                << " | | |\n";
            continue;
        }
        const bool fitted = row.variant.parts != post::WardSpreadParts::RangeOnly;
        const std::string passes =
            fitted && (row.passes > 0 || row.variant.stopAfter == 0 || row.variant.stopAfter == 3)
                ? std::to_string(row.passes)
                : "-";
        std::string curve =
            row.variant.rangeKeys
                ? (row.keysDifference.empty() ? "= two dispatches" : "DIFFERENT: " + row.keysDifference)
            : !row.variant.complete() ? "experiment"
            : row.exact
                ? "= pipeline"
                : "differs from the pipeline (" + row.difference + "; " +
                      (row.cpuExact ? "= CPU model on its own foveal image" : "CPU model: " + row.cpuDifference) + ")";
        if (row.variant.pipeline())
            curve = row.cpuExact ? "reference: = CPU model" : "DIFFERENT from the CPU model: " + row.cpuDifference;
        std::snprintf(line, sizeof line, "| %s | %s | %s | %s | %.1f | %.1f | %s |\n", row.variant.factor.c_str(),
                      row.variant.name.c_str(), std::string(loopName(row.loopUsed)).c_str(), passes.c_str(),
                      row.medianUs, row.minUs, curve.c_str());
        out << line;
    }
    out << "\n" << spreadSplit(rows) << stageSplit(rows, "workgroup loop") << stageSplit(rows, "subgroup loop");
    return out.str();
}

std::string formatWardFactorCsv(const std::vector<WardFactorRow>& rows)
{
    std::ostringstream out;
    out << "factor,variant,loop,stop_after,pass_limit,constant_threshold,human_contrast,group_size,passes,outcome,"
           "fit_median_us,fit_min_us,exact,cpu_exact,path,spread_parts,samples_per_invocation,error\n";
    for (const WardFactorRow& row : rows) {
        const WardFactorVariant& v = row.variant;
        out << '"' << v.factor << "\",\"" << v.name << "\"," << loopName(row.loopUsed) << ',' << v.stopAfter << ','
            << v.passLimit << ',' << v.constantThreshold << ',' << v.humanContrast << ','
            << (v.groupSize ? v.groupSize : post::WardCurveProgram::kGroupSize) << ',' << row.passes << ','
            << row.outcome << ',' << row.medianUs << ',' << row.minUs << ',' << row.exact << ',' << row.cpuExact << ','
            << (v.path == post::WardCurvePath::Spread ? "spread" : "one-workgroup") << ',' << int(v.parts) << ','
            << (v.samplesPerInvocation ? v.samplesPerInvocation : post::WardCurveDispatch::kSamplesPerInvocation)
            << ",\"" << row.error << "\"\n";
    }
    return out.str();
}

int runWardFactorsCommand(const std::optional<std::filesystem::path>& dataDir,
                          int runs,
                          const std::optional<std::filesystem::path>& csvPath)
{
    try {
        const std::filesystem::path dataRoot = util::findDataRoot(dataDir);
        std::unique_ptr<platform::GlContext> context = platform::createHeadlessContext(platform::ContextOptions{});
        gl::ShaderLibrary shaders(dataRoot / "shaders");
        post::GpuCaps caps = post::queryGpuCaps(context->info());
        profiling::Profiler profiler(true);
        post::PassContext ctx{shaders, profiler, caps, 0};
        const scene::Scene scene = scene::defaultScene();
        const std::uint32_t subgroup = post::WardCurveProgram::subgroupLanes(caps);
        std::string csv;
        for (glm::ivec2 size : {glm::ivec2{3840, 2160}, glm::ivec2{1920, 1080}}) {
            scene::SceneRenderer renderer(shaders, scene, scene::FrameFormat::Rgba16f);
            renderer.resize(size);
            renderer.render(scene.camera, scene::RenderOptions{}, nullptr);
            const post::ImageInput image{renderer.hdrTarget(), size, renderer.preExposure()};
            const float fovY = scene.camera.verticalFovDegrees;
            const glm::ivec2 grid = post::ToneWard::fovealGridSize(size, fovY);
            const std::vector<WardFactorRow> rows = measureWardFactors(ctx, image, fovY, runs, wardFactorVariants());
            std::cout << util::format(
                             "\n{}x{} RGBA16F (pre-exposed by 2^{}), Ward defaults (100 bins, frame sampling), "
                             "{}x{} foveal samples, {} runs; subgroup lanes here: {}; {}\n\n",
                             size.x, size.y, image.preExposure, grid.x, grid.y, runs, subgroup, caps.gl.renderer)
                      << formatWardFactorTable(rows) << std::flush;
            const std::string part = formatWardFactorCsv(rows);
            const std::string prefix = std::to_string(size.x) + "x" + std::to_string(size.y) + ",";
            std::istringstream lines(part);
            bool header = true;
            for (std::string line; std::getline(lines, line); header = false) {
                if (header && !csv.empty())
                    continue;
                csv += (header ? "size," : prefix) + line + "\n";
            }
        }
        if (csvPath)
            util::writeTextOutput(*csvPath, csv);
        return 0;
    } catch (const std::exception& error) {
        return reportCommandError(std::cerr, error);
    }
}

}  // namespace app
