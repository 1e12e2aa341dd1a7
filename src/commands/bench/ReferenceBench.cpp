// ReferenceBench.cpp: see ReferenceBench.h.
#include "commands/bench/ReferenceBench.h"

#include "gl/Debug.h"
#include "shared/HostDevice.h"
#include "util/Log.h"

#include <cstdio>
#include <exception>

namespace app {

namespace {

std::string medians(const ReferenceTimes& times)
{
    std::string text;
    for (const std::string& stage : kReferenceStages) {
        char part[96];
        std::snprintf(part, sizeof part, "%s%s %.2f us", text.empty() ? "" : ", ", stage.c_str(),
                      times.medianUs(stage));
        text += part;
    }
    return text;
}

void append(std::vector<double>& to, const std::vector<double>& from)
{
    to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

const ReferenceTimes* ReferenceRound::forTimeSource(const std::string& timeSource) const
{
    if (timeSource == "cuda-event" && cuda.measured())
        return &cuda;
    return gl.measured() ? &gl : nullptr;
}

double ReferenceRound::stageUs(const std::string& stage, const std::string& timeSource) const
{
    const ReferenceTimes* times = forTimeSource(timeSource);
    return times && hasReferenceStage(stage) ? times->medianUs(stage) : 0.0;
}

bool hasReferenceStage(const std::string& stage)
{
    return stage == "histogram" || stage == "curve" || stage == "apply" || stage == "chain";
}

post::Traffic referenceTraffic(const std::string& stage, const post::TrafficShape& shape)
{
    if (stage == "histogram")
        return post::histogramMinimumTraffic(shape);
    if (stage == "curve")
        return post::scanMinimumTraffic(shape);
    if (stage == "apply")
        return post::applyMinimumTraffic(shape);
    if (stage == "chain")
        return referenceTraffic("histogram", shape) + referenceTraffic("curve", shape) +
               referenceTraffic("apply", shape);
    if (stage == "copy") {
        const std::uint64_t bytes = post::pixelCount(shape.frame) * shape.frameBytesPerPixel;
        return {bytes, bytes};
    }
    return {};
}

ReferenceRound measureReferenceRound(GlReferenceChain& chain,
                                     const gl::Texture& frame,
                                     const gl::Buffer& params,
                                     std::uint32_t bins,
                                     int runs,
                                     int warmup,
                                     bool gpuTimers,
                                     bool cuda)
{
    ReferenceRound round;
    round.gl.api = "gl";
    round.cuda.api = "cuda";
    try {
        gl::DebugGroup group("bench/reference-chain");
        chain.prepare(frame.size(), frame.format(), bins);
        round.gl = chain.time(frame, params, runs, warmup, gpuTimers);
    } catch (const std::exception& error) {
        round.gl.unavailableReason = error.what();
        round.cuda.unavailableReason = "the GL reference did not run";
        return round;
    }
    if (!cuda)
        return round;  // the header says why CUDA does not run
    // The CUDA chain's frame: the GL copy of the last run, read back once per round.
    const glm::ivec2 size = chain.size();
    const std::uint64_t pixels = std::uint64_t(size.x) * std::uint64_t(size.y);
    const std::size_t bytes = referenceFrameBytes(size, chain.halfFrame());
    std::vector<std::uint8_t> linear = chain.linearFrame().readAll<std::uint8_t>(bytes);
    const std::vector<std::uint32_t> words = params.readAll<std::uint32_t>(hd::kHistogramParamsWords);
    round.cuda = measureCudaReferenceChain(linear, pixels, chain.halfFrame(), words, runs, warmup);
    return round;
}

std::string describeReferenceRound(const ReferenceRound& round)
{
    std::string text;
    for (const ReferenceTimes* times : {&round.gl, &round.cuda}) {
        const std::string api = times->api == "cuda" ? "CUDA" : "GL compute";
        if (times->measured())
            text += util::format("reference chain ({}, {} runs, {}): {}\n", api, times->chainUs.size(), times->source,
                                 medians(*times));
        else if (!times->unavailableReason.empty())
            text += util::format("reference chain ({}): not run: {}\n", api, times->unavailableReason);
    }
    return text;
}

void ReferenceRounds::add(const std::string& size, std::uint32_t bins, const ReferenceRound& round)
{
    for (const ReferenceTimes* times : {&round.gl, &round.cuda}) {
        if (!times->measured())
            continue;
        Pooled& pooled = mPooled[{size, bins, times->api}];
        pooled.times.api = times->api;
        pooled.times.source = times->source;
        append(pooled.times.copyUs, times->copyUs);
        append(pooled.times.histogramUs, times->histogramUs);
        append(pooled.times.curveUs, times->curveUs);
        append(pooled.times.applyUs, times->applyUs);
        append(pooled.times.chainUs, times->chainUs);
        ++pooled.rounds;
    }
}

std::string ReferenceRounds::table() const
{
    if (mPooled.empty())
        return {};
    std::string out =
        "\n### reference chain: every round's runs pooled (median us; the copy is not part of the chain)\n\n"
        "| size | bins | API | timer | rounds | runs | histogram | curve | apply | chain | copy |\n"
        "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& [key, pooled] : mPooled) {
        const ReferenceTimes& t = pooled.times;
        char line[320];
        std::snprintf(line, sizeof line, "| %s | %u | %s | %s | %d | %zu | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                      std::get<0>(key).c_str(), std::get<1>(key), t.api.c_str(), t.source.c_str(), pooled.rounds,
                      t.chainUs.size(), t.medianUs("histogram"), t.medianUs("curve"), t.medianUs("apply"),
                      t.medianUs("chain"), t.medianUs("copy"));
        out += line;
    }
    return out;
}

}  // namespace app
