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
    /// Scan "in-curve" (post/scan/ScanInCurve.h): no scan ran; the operator fills this CDF from
    /// `histogram` where it needs one (in its own curve dispatch, or with scanMethod's stand-alone
    /// scan) and sets *fusedCdfWritten. nullptr: `cdf` holds this frame's CDF already.
    gl::Buffer* fusedCdf = nullptr;
    bool* fusedCdfWritten = nullptr;
};

/// A histogram an operator asks the host for (an engine preset's bins and manual log2 range).
struct HistogramRequest
{
    std::uint32_t bins = 0;
    float logMin = 0.0f;
    float logMax = 0.0f;
};

/// An operator's key value for one frame (ToneOperator::takeKeyValues).
struct KeyValueSample
{
    std::uint64_t frameIndex = 0;  ///< PassContext::frameIndex of the frame it was computed in
    float ev = 0.0f;               ///< in EV (log2); its meaning per operator: keyValueName()
};

class ToneOperator
{
public:
    virtual ~ToneOperator() = default;

    virtual std::string_view id() const = 0;
    virtual std::string_view label() const = 0;
    virtual std::string_view description() const = 0;
    /// False for operators that ignore the histogram (the fixed-exposure reference).
    virtual bool usesHistogram() const { return true; }
    /// Whether computeCurve reads the pipeline's CDF (ToneInputs::cdf); Ward makes its own histogram.
    virtual bool usesPipelineCdf() const { return usesHistogram(); }
    /// Whether the operator scans the histogram itself when handed ToneInputs::fusedCdf (scan
    /// "in-curve"); otherwise the pipeline runs the scan method's stand-alone scan first.
    virtual bool scansInCurve() const { return false; }

    /// Writes the tone curve into `curve` (float[hd::kCurveBufferWords]) on the GPU.
    virtual void computeCurve(PassContext& ctx, const ToneInputs& inputs, gl::Buffer& curve) = 0;
    /// Forgets temporal state (adaptation), e.g. when the scene or method changes.
    virtual void resetState() {}
    /// Copies what the operator asked to read back this frame (its state: the key value for the
    /// Exposure panel, the flicker figure and captures; StateReadback::request). The pipeline calls it
    /// in its view/readback scope after the frame's passes: presentation, timed apart from the curve.
    virtual void flushStateReadback() {}

    /// The least device-memory bytes computeCurve must read and write (post/StageTraffic.h; the floor
    /// of `hdrlab bench pipeline`). Default: the CDF read and a curve of one float per bin written.
    /// Operators that read the frame or build histograms of their own override it.
    virtual Traffic curveMinimumTraffic(const TrafficShape& shape) const
    {
        return {std::uint64_t(shape.bins) * kBinBytes, std::uint64_t(shape.bins) * kBinBytes};
    }

    /// The window half-size (pixels) of the local mean log-luminance map the operator wants in its
    /// apply pass (percentile's local adaptation, built by the CUDA summed-area table), or -1.
    virtual int localAdaptationRadius() const { return -1; }
    /// A foveal image this operator would take from the histogram pass for a frame of this size, so
    /// that it does not read the frame again (nullptr: none wanted). Asked before every histogram pass.
    virtual FovealTarget* fovealTarget(glm::ivec2 /*imageSize*/, float /*fovYDegrees*/) { return nullptr; }

    virtual bool ui() { return false; }
    /// Asked by the pipeline panel after ui(): the histogram the last UI action needs (percentile's
    /// engine presets set bins and range too), returned once; empty when none.
    virtual std::optional<HistogramRequest> takeHistogramRequest() { return std::nullopt; }
    /// Every setting ui() edits, keyed "<id>.<name>" and bound to this object (settings as data:
    /// post/Parameter.h, post/PipelineParameters.h); empty when the operator has none.
    virtual ParameterList parameters() { return {}; }
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
};

struct ToneOperatorEntry
{
    std::string_view id;
    std::function<std::unique_ptr<ToneOperator>()> create;
};

const std::vector<ToneOperatorEntry>& toneOperatorRegistry();
std::unique_ptr<ToneOperator> createToneOperator(std::string_view id);

}  // namespace post
