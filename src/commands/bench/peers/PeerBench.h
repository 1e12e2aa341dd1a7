// PeerBench.h: the peer rows of `hdrlab bench pipeline --peers` (issue 38): every engine peer
// (PeerMetering.h) timed on the frame the configuration just rendered, with the params the pipeline
// used for it, and printed beside hdrlab's metering (histogram + scan + curve of that configuration);
// the CSV rows (path peer-<id>, stage metering and metering/<pass>, exposure_ev = where the engine's
// adaptation settles on that frame); and the preset check: each of hdrlab's engine presets
// (percentile.preset) against its peer's exposure on the same frame.
#pragma once

#include "commands/CommonOptions.h"
#include "commands/bench/BenchCommand.h"
#include "commands/bench/peers/PeerMetering.h"

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace app {

class App;

/// One peer measured on one frame.
struct PeerMeasurement
{
    std::string id, engine, simplifies;
    PeerTimes times;
    PeerExposure exposure;  ///< after one snapped run: targetEv is where adaptation settles
};

class PeerBench
{
public:
    explicit PeerBench(const gl::ShaderLibrary& shaders);

    /// Times every peer on `frame` (`runs` timed runs after `warmup`), and its settled exposure.
    std::vector<PeerMeasurement> measure(const gl::Texture& frame,
                                         const gl::Buffer& params,
                                         int runs,
                                         int warmup,
                                         bool gpuTimers);

private:
    std::vector<std::unique_ptr<PeerMetering>> mPeers;
};

/// The table printed after a configuration's: hdrlab's metering, then each peer's passes and EV.
std::string describePeers(const std::vector<PeerMeasurement>& peers, double hdrlabMeteringUs, const std::string& what);

/// The CSV fields before a row's stage ("size,bins,operator,path,histogram_method,scan_method,").
struct PeerCsvContext
{
    std::string size, bins, op, frameFormat;
    unsigned frames = 0;
};
/// The peers' CSV rows in `bench pipeline`'s columns (BenchPipelineCommand.cpp csv(), exposure_ev last).
std::string peerCsvRows(const std::vector<PeerMeasurement>& peers, const PeerCsvContext& context);

/// The peers' round of one `bench pipeline` configuration: every peer on `app`'s last frame with its
/// pipeline's params (`runs` timed runs after `warmup`), the table printed beside hdrlab's metering
/// (`hdrlabMeteringUs`: its histogram + scan + curve rows) and the CSV rows appended to `csv`.
void runPeerRound(App& app,
                  PeerBench& peers,
                  const PeerCsvContext& context,
                  double hdrlabMeteringUs,
                  int warmup,
                  std::ostream& csv);

/// The preset check: for each engine preset with a peer (unreal, unity-hdrp, bevy), a headless app
/// with `--set percentile.preset=<id>` renders the camera path's first frame at the first --size
/// (hdrlab snaps to a first frame's target, so its exposure is settled), and the peer meters that
/// frame with the pipeline's params. Prints a table (preset EV, peer EV, difference, within 0.1 EV)
/// and returns the rows as CSV text (preset,size,preset_ev,peer_ev,difference_ev,within).
std::string comparePresetsWithPeers(const CommonOptions& common, const BenchOptions& options);

}  // namespace app
