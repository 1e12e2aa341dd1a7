// ToneCapabilities.h: what only some tone operators have, one small interface per capability,
// returned by one accessor of ToneOperator each (nullptr when absent): state kept over frames
// (ToneState), the operator's side of --verify (ToneVerification) and what `hdrlab tonemap` asks of
// it beyond the pipeline (ToneFileHooks). An operator implements the interfaces it has and returns
// itself from the accessor.
#pragma once

#include "post/LuminanceUnits.h"
#include "post/PostTypes.h"
#include "tone/CompensationCurve.h"
#include "tone/ToneCurveInputs.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace post {

struct HistogramFile;

/// An operator's key value for one frame (ToneState::takeKeyValues).
struct KeyValueSample
{
    std::uint64_t frameIndex = 0;  ///< PassContext::frameIndex of the frame it was computed in
    float ev = 0.0f;               ///< in EV (log2); its meaning per operator: keyValueName()
    /// Cuts the operator found since its last reset, as of this frame (an operator that detects cuts:
    /// percentile), the frame index of the last one and how far its histogram moved there (EV).
    std::uint64_t cutCount = 0;
    std::uint64_t lastCutFrame = 0;
    float lastCutDistanceEv = 0.0f;
    bool cutSnaps = false;  ///< the operator snaps its adaptation at a cut
};

/// An exposure compensation curve and where the newest frame read back sits on it (the Exposure panel).
struct CompensationCurveView
{
    CompensationCurve curve;
    std::optional<float> meteredEv;  ///< the newest metered log2 L read back; empty: none yet
    float compensationEv = 0.0f;     ///< the curve's value there
};

/// A local histogram operator's tile curves (clahe, ward-local; shared/LocalTiles.h): the apply pass
/// blends a pixel's four tile curves and that toward the global curve (the pipeline's curve buffer).
struct LocalTileCurves
{
    const gl::Buffer* curves = nullptr;      ///< float, the hd::kTile* layout (header + one block per tile)
    glm::ivec2 tiles{1};                     ///< the grid used on the last frame (post::effectiveTiles)
    glm::ivec2 tileSize{1};                  ///< ceil(frame / tiles), pixels
    std::uint32_t bins = 0;                  ///< the tile histograms' bins (clahe; 0: none)
    const gl::Buffer* histograms = nullptr;  ///< uint[tiles x bins] (clahe), or nullptr
};

/// State an operator keeps over frames (adaptation) and reads back a few frames late.
class ToneState
{
public:
    virtual ~ToneState() = default;
    /// Forgets temporal state (adaptation), e.g. when the scene or method changes.
    virtual void resetState() {}
    /// Copies what the operator asked to read back this frame (its state: the key value for the
    /// Exposure panel, the flicker figure and captures; StateReadback::request). The pipeline calls it
    /// in its view/readback scope after the frame's passes: presentation, timed apart from the curve.
    virtual void flushStateReadback() {}
    /// One line of live status for the panel, empty when none.
    virtual std::string status() const { return {}; }
    /// Named positions on the log2 luminance axis for the histogram view (percentiles, Ward's range),
    /// from an asynchronous readback a few frames late; empty when none.
    virtual std::vector<std::pair<std::string, float>> markers() const { return {}; }
    /// The key value of every frame whose state readback completed since the last call, oldest first
    /// (frames late; polls without waiting; a frame whose readback was skipped is missing). In EV:
    /// percentile and exposure give the exposure applied (log2 of the scale, Lw * 2^E), Ward the log2
    /// of the log-average luminance of its foveal samples and equalize the log2 of the histogram's
    /// median luminance (both in scene units, the histogram's axis). Empty when the operator has none.
    virtual std::vector<KeyValueSample> takeKeyValues() { return {}; }
    /// What takeKeyValues() measures, for labels ("exposure", "log-average", "median"); empty: none.
    virtual std::string_view keyValueName() const { return {}; }
    /// The exposure compensation curve it applies to its metered value; nullopt: it has none.
    virtual std::optional<CompensationCurveView> compensationCurve() const { return std::nullopt; }
    /// On footage, the move (EV) beyond which it declares a cut; the automatic histogram range jumps
    /// to a frame's own range on a move this large (AutoRange), so the cut is measured unclamped. 0: none.
    virtual float cutThresholdEv() const { return 0.0f; }
};

/// The pipeline's last frame as --verify read it back (verify/PipelineVerify), for an operator's
/// side of the check. Images are RGBA float in GL's rows (row 0 the bottom unless topDownRows).
struct ToneVerifyFrame
{
    const std::vector<float>& frame;  ///< the full frame
    glm::ivec2 frameSize;
    const std::vector<float>& histogramImage;  ///< the (possibly downsampled) image binned
    glm::ivec2 histogramSize;
    bool topDownRows = false;
    const std::optional<PictureInfo>& picture;  ///< a still picture's view, or nullopt: a live frame
    const LuminanceUnits& units;                ///< the frame's units (its pre-exposure folded in)
    const gl::Texture* depth = nullptr;         ///< the scene's depth, or nullptr
    bool methodExactBinning = true;             ///< the histogram method bins exactly (HistogramTraits)
};

/// The operator's side of --verify: reads back its GPU state (stalls; verify only) and fills what its
/// CPU reference (reference/ToneReference.h, the row of its id) is given.
class ToneVerification
{
public:
    virtual ~ToneVerification() = default;
    /// Fills `check.curve.settings` (and whatever else its reference reads) for the last frame;
    /// `check` holds the pipeline's histogram, range, frame and curve already. False: no reference
    /// applies to this frame (e.g. a histogram fed from a file).
    virtual bool describeForReference(const ToneVerifyFrame& frame, ref::ToneCheckInputs& check) const = 0;
};

/// What `hdrlab tonemap` asks of an operator beyond the pipeline (commands/tonemap).
class ToneFileHooks
{
public:
    virtual ~ToneFileHooks() = default;
    /// --histogram-in: the table read (post/HistogramCsv.h); the operator takes what its curve is made of.
    virtual void feedHistogramFile(const HistogramFile& /*file*/) {}
    /// --curve-out: the operator's own table, or nullopt for the pipeline's curve buffer.
    virtual std::optional<std::string> curveCsv() const { return std::nullopt; }
    /// --histogram-out: a section appended after the pipeline's histogram (empty: none).
    virtual std::string histogramCsvSection() const { return {}; }
    /// A note after the run (what of the settings it could not apply); empty: none.
    virtual std::string runNote() const { return {}; }
};

}  // namespace post
