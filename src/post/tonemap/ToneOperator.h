// ToneOperator.h: the interface of histogram-driven tone operators.
//
// An operator turns the histogram and its CDF into a tone curve: a LUT of display luminance over
// log2 world luminance in the curve buffer (layout in shared/HostDevice.h, hd::kCurve*), plus any
// state it keeps (exposure, adaptation) in its own GPU buffers, all computed on the GPU with no CPU
// readback. The pipeline's one apply pass then maps each pixel's luminance through the curve, keeps
// chromaticity (RGB * Ld/Lw) and encodes sRGB.
#pragma once

#include "post/LuminanceUnits.h"
#include "post/Parameter.h"
#include "post/PostTypes.h"
#include "post/StageTraffic.h"
#include "post/tonemap/ToneCapabilities.h"
#include "tone/DisplayOutput.h"
#include "tone/LocalExposureSettings.h"
#include "tone/ToneSettings.h"

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace post {

class HistogramMethod;
class ScanMethod;

/// What the pipeline hands an operator each frame.
struct ToneInputs
{
    ImageInput image;             ///< the full-resolution scene-linear frame
    ImageInput histogramImage;    ///< the (possibly downsampled) image the histogram was built from
    const gl::Buffer& histogram;  ///< bins + counters of histogramImage (hd::kHistogramBufferWords)
    const gl::Buffer& cdf;        ///< inclusive CDF of the bins (uint[hd::kMaxHistogramBins])
    const gl::Buffer& params;     ///< the histogram's params (range, bins, policy)
    HistogramSpec spec;
    double dtSeconds = 1.0 / 60.0;          ///< frame time for temporal adaptation
    float fovYDegrees = 60.0f;              ///< camera field of view (Ward's foveal sampling)
    HistogramMethod& histogramMethod;       ///< for operators that build their own histogram (Ward)
    ScanMethod* scanMethod = nullptr;       ///< nullptr when the histogram method produces the CDF itself
    const gl::Texture* depth = nullptr;     ///< the scene's depth at the frame's size (metering), or nullptr
    bool topDownRows = false;               ///< texel row 0 of the images is the picture's top
    const PictureInfo* picture = nullptr;   ///< a still image's view and pixel aspect, or nullptr: a live frame
    const LuminanceUnits* units = nullptr;  ///< what one unit of the input is (nullptr: 1 cd/m^2, Rec. 709)
    bool footage = false;                   ///< the frames are footage (a sequence), where cuts between shots occur
    /// Scan "in-curve" (post/scan/ScanInCurve.h): no scan ran; the operator fills this CDF from
    /// `histogram` where it needs one (in its own curve dispatch, or with scanMethod's stand-alone
    /// scan) and sets *fusedCdfWritten. nullptr: `cdf` holds this frame's CDF already.
    gl::Buffer* fusedCdf = nullptr;
    bool* fusedCdfWritten = nullptr;
    /// The histogram pass built this frame's curve and CDF (offerCurveToHistogram): computeCurve does
    /// only its bookkeeping (state readbacks), no dispatch.
    bool curveBuiltInHistogram = false;
};

/// A histogram an operator asks the host for (an engine preset's bins and manual log2 range).
struct HistogramRequest
{
    std::uint32_t bins = 0;
    float logMin = 0.0f;
    float logMax = 0.0f;
    /// The engine's local exposure (Unreal's template values; off for engines that have none); empty: kept.
    std::optional<LocalExposureSettings> localExposure;
};

/// What the pipeline plans a frame around (asked every frame; settings may change them).
struct ToneTraits
{
    bool usesHistogram = true;    ///< false for operators that ignore the histogram (the fixed exposure)
    bool usesPipelineCdf = true;  ///< computeCurve reads ToneInputs::cdf (Ward makes its own histogram)
    /// The operator scans the histogram itself when handed ToneInputs::fusedCdf (scan "in-curve");
    /// otherwise the pipeline runs the scan method's stand-alone scan first.
    bool scansInCurve = false;
    /// The window half-size (pixels) of the local mean log-luminance map the operator wants in its
    /// apply pass (percentile's local adaptation, built by the CUDA summed-area table), or -1.
    int localAdaptationRadius = -1;
    /// Which pixels the operator meters and how much each counts (the metering view draws it);
    /// the default meters every pixel equally.
    MeteringSettings meteringMask{};
    /// The RGB display transform the apply pass runs on the exposed colour (post::displayTransformCode
    /// of the operator's display curve; 0: the curve's luminance path).
    std::uint32_t displayTransform = 0;
    /// How the operator's display values reach cd/m^2 for display.target hdr10 (tone/DisplayOutput.h).
    HdrScaling hdrScaling{};
    /// The apply pass blends the operator's tile curves (localTiles(); clahe, ward-local), so the
    /// histogram pass cannot apply the curve in one pass.
    bool localTiles = false;
    /// The curve is a display curve of the exposed luminance Lw x 2^E with 2^E in the header's kCurveScale
    /// (exposure, percentile): local exposure's middle grey is then 0.18 / 2^E; otherwise the frame's
    /// mean log2 L (shared/LocalExposure.h).
    bool curveCarriesExposure = false;
};

/// A histogram-driven tone operator. The core is its identity, one work verb (computeCurve) and its
/// UI (ui, parameters, takeHistogramRequest); what only some operators have comes through one
/// accessor per capability (post/tonemap/ToneCapabilities.h), nullptr when absent. The non-virtual
/// helpers below forward to the capabilities, so callers need not test for them.
class ToneOperator
{
public:
    virtual ~ToneOperator() = default;

    virtual std::string_view id() const = 0;
    virtual std::string_view label() const = 0;
    virtual std::string_view description() const = 0;
    virtual ToneTraits traits() const { return {}; }

    /// Writes the tone curve into `curve` (float[hd::kCurveBufferWords]) on the GPU.
    virtual void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) = 0;

    virtual bool ui() { return false; }
    /// Every setting ui() edits, keyed "<id>.<name>" and bound to this object (settings as data:
    /// post/Parameter.h, post/PipelineParameters.h); empty when the operator has none.
    virtual ParameterList parameters() { return {}; }
    /// Asked by the pipeline panel after ui(): the histogram the last UI action needs (percentile's
    /// engine presets set bins and range too), returned once; empty when none.
    virtual std::optional<HistogramRequest> takeHistogramRequest() { return std::nullopt; }
    /// The display the picture is formed for (display.target, display.peak), told before each
    /// computeCurve; display-referred operators follow its peak (Ward: Ld_max). Default: ignored.
    virtual void setDisplay(const DisplaySettings& /*display*/) {}

    /// The least device-memory bytes computeCurve must read and write (post/StageTraffic.h; the floor
    /// of `hdrlab bench pipeline`). Default: the CDF read and a curve of one float per bin written.
    /// Operators that read the frame or build histograms of their own override it.
    virtual Traffic curveMinimumTraffic(const TrafficShape& shape) const
    {
        return {std::uint64_t(shape.bins) * kBinBytes, std::uint64_t(shape.bins) * kBinBytes};
    }

    // Capabilities, nullptr when absent.
    /// State kept over frames and read back late (adaptation, key value, markers, status).
    virtual ToneState* state() { return nullptr; }
    const ToneState* state() const { return const_cast<ToneOperator*>(this)->state(); }
    /// A foveal image this operator would take from the histogram pass for a frame of this size, so
    /// that it does not read the frame again (nullptr: none wanted). Asked before every histogram pass.
    virtual FovealTarget* fovealTarget(glm::ivec2 /*imageSize*/, float /*fovYDegrees*/) { return nullptr; }
    /// Its curve for the histogram pass's last workgroup to build (a method that buildsCurve(); the scan
    /// "in-curve" one step further): fills `target` for this frame's `curve` and the CDF
    /// `inputs.fusedCdf` and returns true where it can. Asked before the histogram pass; computeCurve
    /// follows with ToneInputs::curveBuiltInHistogram when the pass built it. Default: never.
    virtual bool offerCurveToHistogram(PassContext& /*ctx*/,
                                       const ToneInputs& /*inputs*/,
                                       gl::Buffer& /*curve*/,
                                       CurveTarget& /*target*/)
    {
        return false;
    }
    /// Its side of --verify: what its CPU reference (reference/ToneReference.h, by id) is given.
    virtual const ToneVerification* verification() const { return nullptr; }
    /// What `hdrlab tonemap` asks of it beyond the pipeline (a fed histogram, its own tables).
    virtual ToneFileHooks* fileHooks() { return nullptr; }
    /// Its tile curves for the apply pass (a local histogram operator, traits().localTiles), after computeCurve.
    virtual const LocalTileCurves* localTiles() const { return nullptr; }

    // Forwarders to the traits and the state capability.
    bool usesHistogram() const { return traits().usesHistogram; }
    bool usesPipelineCdf() const { return traits().usesPipelineCdf; }
    bool scansInCurve() const { return traits().scansInCurve; }
    int localAdaptationRadius() const { return traits().localAdaptationRadius; }
    void resetState();
    void flushStateReadback();
    std::string status() const;
    std::vector<std::pair<std::string, float>> markers() const;
    std::vector<KeyValueSample> takeKeyValues();
    std::string_view keyValueName() const;
};

struct ToneOperatorEntry
{
    std::string_view id;
    std::function<std::unique_ptr<ToneOperator>()> create;
};

/// Every tone operator, in display order (the table in ToneRegistry.cpp), then those registered at run time.
const std::vector<ToneOperatorEntry>& toneOperatorRegistry();
/// Adds an operator at run time (tests, tools; explicit, no static initialisation); replaces an entry
/// of the same id. `entry.id` must outlive the registry (a string literal).
void registerToneOperator(ToneOperatorEntry entry);
/// nullptr when the id is unknown.
std::unique_ptr<ToneOperator> createToneOperator(std::string_view id);
/// Counts registerToneOperator calls: tables built from the registry (the settings keys) rebuild when it moves.
std::uint64_t toneOperatorRegistryVersion();

}  // namespace post
