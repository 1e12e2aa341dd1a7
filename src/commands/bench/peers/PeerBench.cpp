// PeerBench.cpp: see PeerBench.h. The peers' rounds, their table and CSV rows, and the preset check.
#include "commands/bench/peers/PeerBench.h"

#include "app/App.h"
#include "gl/Debug.h"
#include "post/PostPipeline.h"
#include "util/Log.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace app {

namespace {

/// How close a preset's exposure must come to its peer's (issue 38).
constexpr double kPresetToleranceEv = 0.1;

std::string fixedText(double value, int digits)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

}  // namespace

PeerBench::PeerBench(const gl::ShaderLibrary& shaders) : mPeers(createPeerMeterings(shaders))
{
}

std::vector<PeerMeasurement> PeerBench::measure(const gl::Texture& frame,
                                                const gl::Buffer& params,
                                                int runs,
                                                int warmup,
                                                bool gpuTimers)
{
    std::vector<PeerMeasurement> out;
    gl::DebugGroup group("peers");
    for (const auto& peer : mPeers) {
        PeerMeasurement m{
            std::string(peer->id()), std::string(peer->engine()), std::string(peer->simplifies()), {}, {}};
        peer->prepare(frame.size());
        peer->run(frame, params);  // snapped: the state is this frame's target
        m.exposure = peer->exposure();
        m.times = peer->time(frame, params, runs, warmup, gpuTimers);
        out.push_back(std::move(m));
    }
    return out;
}

std::string describePeers(const std::vector<PeerMeasurement>& peers, double hdrlabMeteringUs, const std::string& what)
{
    std::ostringstream out;
    out << "\nengine peers on the same frame (" << what
        << "; median us of every pass an engine's auto exposure runs, GL; EV = log2 of the factor on cd/m^2 where "
           "its adaptation settles on this frame):\n\n";
    out << "| metering | timer | median us | x hdrlab | EV | passes (median us) |\n|---|---|---:|---:|---:|---|\n";
    out << "| hdrlab (histogram + scan + curve) | - | " << fixedText(hdrlabMeteringUs, 2) << " | 1.00 | - | - |\n";
    for (const PeerMeasurement& peer : peers) {
        std::string passes;
        for (std::size_t pass = 0; pass < peer.times.passes.size(); ++pass)
            passes += (pass ? ", " : "") + peer.times.passes[pass] + " " + fixedText(peer.times.medianUs(pass), 2);
        const double metering = peer.times.meteringMedianUs();
        out << "| " << peer.id << " (" << peer.engine << ") | " << peer.times.source << " | " << fixedText(metering, 2)
            << " | " << (hdrlabMeteringUs > 0.0 ? fixedText(metering / hdrlabMeteringUs, 2) : "-") << " | "
            << fixedText(peer.exposure.targetEv, 3) << " | " << passes << " |\n";
    }
    out << "\nwhat each peer simplifies:\n";
    for (const PeerMeasurement& peer : peers)
        out << "  " << peer.id << ": " << peer.simplifies << "\n";
    return out.str();
}

std::string peerCsvRows(const std::vector<PeerMeasurement>& peers, const PeerCsvContext& context)
{
    // The columns of BenchPipelineCommand.cpp's csv(): no traffic, floor, rates or reference for a peer.
    std::ostringstream out;
    const auto row = [&](const PeerMeasurement& peer, const std::string& stage, double medianUs) {
        out << context.size << ',' << context.bins << ',' << context.op << ",peer-" << peer.id << ',' << peer.id
            << ",-," << stage << ',' << peer.times.source << ',' << fixedText(medianUs, 3) << ",,,,," << context.frames
            << ",,,,," << context.frameFormat << ",,,," << fixedText(peer.exposure.targetEv, 4) << '\n';
    };
    for (const PeerMeasurement& peer : peers) {
        row(peer, "metering", peer.times.meteringMedianUs());
        for (std::size_t pass = 0; pass < peer.times.passes.size(); ++pass)
            row(peer, "metering/" + peer.times.passes[pass], peer.times.medianUs(pass));
    }
    return out.str();
}

void runPeerRound(App& app,
                  PeerBench& peers,
                  const PeerCsvContext& context,
                  double hdrlabMeteringUs,
                  int warmup,
                  std::ostream& csv)
{
    const post::PostPipeline::LastRun last = app.pipeline().lastRun();
    if (!last.hdr)
        return;
    const std::vector<PeerMeasurement> measured =
        peers.measure(*last.hdr, app.pipeline().paramsBuffer(), int(context.frames), warmup, app.caps().glTimersUseful);
    std::printf("%s", describePeers(measured, hdrlabMeteringUs, context.size + ", " + context.op).c_str());
    csv << peerCsvRows(measured, context);
}

std::string comparePresetsWithPeers(const CommonOptions& common, const BenchOptions& options)
{
    // Each preset's app prints its banner when it starts: the table follows them all.
    std::ostringstream csv, table;
    const glm::ivec2 size = options.sizes.front();
    for (const char* preset : {"unreal", "unity-hdrp", "bevy"}) {
        AppOptions appOptions = benchAppOptions(common, options);
        appOptions.toneOperator = "percentile";
        appOptions.settingAssignments.push_back(std::string("percentile.preset=") + preset);
        App runner(appOptions);
        runner.rewindCameraPath();
        runner.renderFrames(1);
        runner.waitForTimings();
        const App::Flicker flicker = runner.flicker();
        const post::PostPipeline::LastRun last = runner.pipeline().lastRun();
        if (!flicker.lastKeyEv || !last.hdr) {
            table << util::format("| {} | {}x{} | - | - | - | no exposure read back |\n", preset, size.x, size.y);
            continue;
        }
        std::unique_ptr<PeerMetering> peer;
        for (auto& candidate : createPeerMeterings(runner.shaders()))
            if (candidate->id() == preset)
                peer = std::move(candidate);
        peer->prepare(last.hdr->size());
        peer->run(*last.hdr, runner.pipeline().paramsBuffer());
        const double hdrlabEv = *flicker.lastKeyEv;
        const double peerEv = peer->exposure().targetEv;
        const double difference = hdrlabEv - peerEv;
        const bool within = std::abs(difference) <= kPresetToleranceEv;
        char row[160];
        std::snprintf(row, sizeof row, "| %s | %dx%d | %.3f | %.3f | %+.3f | %s |\n", preset, size.x, size.y, hdrlabEv,
                      peerEv, difference, within ? "yes" : "no");
        table << row;
        csv << preset << ',' << size.x << 'x' << size.y << ',' << fixedText(hdrlabEv, 4) << ',' << fixedText(peerEv, 4)
            << ',' << fixedText(difference, 4) << ',' << (within ? "yes" : "no") << '\n';
    }
    std::printf(
        "\npreset check: each engine preset against its peer on the same frame (the camera path's first frame, "
        "where hdrlab snaps to its target; the peer's settled EV), within %.1f EV or documented in "
        "docs/TONE_OPERATORS.md:\n\n",
        kPresetToleranceEv);
    std::printf(
        "| preset | size | hdrlab EV | peer EV | difference | within %.1f EV |\n|---|---|---:|---:|---:|---|\n%s",
        kPresetToleranceEv, table.str().c_str());
    return csv.str();
}

}  // namespace app
