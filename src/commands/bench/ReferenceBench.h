// ReferenceBench.h: how `hdrlab bench pipeline` runs and reports its reference chain
// (commands/bench/ReferenceChain.h). After each configuration's timed frames, one round: the GL chain and,
// where CUDA runs, the CUDA chain, `frames` timed runs each on the configuration's last frame and its
// histogram params (range, bins, weights as the pipeline used them), so the reference and the stages
// it is set against run on the same frame, one right after the other, at the same clocks. Each stage
// row's "x ref" is its time over the same stage of the round's reference of the row's API (CUDA's
// for CUDA-event rows where it ran, else GL's): histogram, curve (the pipeline's curve against the
// reference's curve, whose one dispatch also scans), apply and chain; other stages have none. At the
// end, every round's runs of each (size, bins, API) pooled into one table of medians.
#pragma once

#include "commands/bench/ReferenceChain.h"
#include "post/StageTraffic.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace app {

struct ReferenceRound
{
    ReferenceTimes gl;
    ReferenceTimes cuda;

    /// The reference of a row timed by `timeSource`: CUDA's for "cuda-event" where it ran, else
    /// GL's; nullptr when neither ran.
    const ReferenceTimes* forTimeSource(const std::string& timeSource) const;
    /// forTimeSource's median of `stage` for the stages that have a reference, else 0.
    double stageUs(const std::string& stage, const std::string& timeSource) const;
};

/// The stages of the pipeline a reference stage stands beside: histogram, curve, apply, chain.
bool hasReferenceStage(const std::string& stage);

/// The reference's rows, in the order the bench writes them (the copy last: it is not in the chain).
inline const std::vector<std::string> kReferenceStages{"histogram", "curve", "apply", "chain", "copy"};
/// The least traffic of a reference stage (post/StageTraffic.h) for a frame of `shape`: the histogram's
/// and the apply's as the pipeline's; the curve's as a scan's (the bins read, a LUT as long written);
/// the chain their sum; the copy the frame read and written once.
post::Traffic referenceTraffic(const std::string& stage, const post::TrafficShape& shape);

/// One round on `frame` (RGBA16F or RGBA32F) with `params` (the pipeline's params buffer after the
/// frame). CUDA only where `cuda`; its frame is the GL copy read back (a bench's wait, not a frame's).
/// Never throws: a failure becomes the round's unavailableReason.
ReferenceRound measureReferenceRound(GlReferenceChain& chain,
                                     const gl::Texture& frame,
                                     const gl::Buffer& params,
                                     std::uint32_t bins,
                                     int runs,
                                     int warmup,
                                     bool gpuTimers,
                                     bool cuda);

/// The lines printed under a configuration's table: each API's medians, or why it did not run.
std::string describeReferenceRound(const ReferenceRound& round);

/// Every round's runs, pooled per (size, bins, API), for the closing table.
class ReferenceRounds
{
public:
    void add(const std::string& size, std::uint32_t bins, const ReferenceRound& round);
    /// "### reference chain, ..." and one row per (size, bins, API); empty without rounds.
    std::string table() const;

private:
    struct Pooled
    {
        ReferenceTimes times;
        int rounds = 0;
    };
    std::map<std::tuple<std::string, std::uint32_t, std::string>, Pooled> mPooled;
};

}  // namespace app
