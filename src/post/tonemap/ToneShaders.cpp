#include "post/tonemap/ToneShaders.h"

#include "shared/HostDevice.h"

#include <sstream>
#include <string>

namespace post {

namespace {

std::string floatLiteral(double value)
{
    std::ostringstream out;
    out.precision(9);
    out << std::scientific << value;
    return out.str();
}

}  // namespace

gl::ShaderDefines percentileStateDefines()
{
    using namespace percentile_state;
    return {
        {"STATE_EXPOSURE", std::to_string(kExposure)},
        {"STATE_TARGET", std::to_string(kTarget)},
        {"STATE_VALID", std::to_string(kValid)},
        {"STATE_METERED", std::to_string(kMetered)},
        {"STATE_HIGH", std::to_string(kHigh)},
        {"STATE_BAND_LOW", std::to_string(kBandLow)},
        {"STATE_BAND_HIGH", std::to_string(kBandHigh)},
        {"STATE_FRAME_OK", std::to_string(kFrameOk)},
        {"STATE_COMPENSATION", std::to_string(kCompensation)},
        {"STATE_MEAN_LOG2", std::to_string(kMeanLog2)},
        {"STATE_MEAN_VALID", std::to_string(kMeanValid)},
        {"STATE_CUT", std::to_string(kCut)},
        {"STATE_CUT_DISTANCE", std::to_string(kCutDistance)},
        {"STATE_CUT_COUNT", std::to_string(kCutCount)},
        {"STATE_LAST_CUT_FRAME", std::to_string(kLastCutFrame)},
        {"STATE_LAST_CUT_DISTANCE", std::to_string(kLastCutDistance)},
        {"COMPENSATION_POINTS", std::to_string(kMaxCompensationPoints)},
    };
}

gl::ShaderDefines wardDefines()
{
    using namespace ward_state;
    return {
        {"WARD_OUTCOME", std::to_string(kOutcome)},
        {"WARD_PASSES", std::to_string(kPasses)},
        {"WARD_BWMIN", std::to_string(kBwmin)},
        {"WARD_BWMAX", std::to_string(kBwmax)},
        {"WARD_BWAVG", std::to_string(kBwavg)},
        {"WARD_HISTOT", std::to_string(kHistot)},
        {"WARD_FINAL_TOTAL", std::to_string(kFinalTotal)},
        {"WARD_CEILING_FRACTION", std::to_string(kCeilingFraction)},
        {"WARD_SAMPLES", std::to_string(kSamples)},
        {"WARD_RANGE_VALID", std::to_string(kRangeValid)},
        {"WARD_DUPLICATED", std::to_string(kDuplicated)},
        {"WARD_CONVERGED", std::to_string(kConverged)},
        {"WARD_GRID_W", std::to_string(kGridWidth)},
        {"WARD_GRID_H", std::to_string(kGridHeight)},
        {"WARD_LINEAR_SCALE", std::to_string(kLinearScale)},
        {"WARD_MAX_BINS", std::to_string(kWardMaxBins)},
        {"WARD_PCOND_OUTCOME", std::to_string(ward_pcond::kOutcome)},
        {"WARD_PCOND_PASSES", std::to_string(ward_pcond::kPasses)},
        {"WARD_PCOND_BWMIN", std::to_string(ward_pcond::kBwmin)},
        {"WARD_PCOND_BWMAX", std::to_string(ward_pcond::kBwmax)},
        {"WARD_PCOND_BWAVG", std::to_string(ward_pcond::kBwavg)},
        {"WARD_PCOND_HISTOT", std::to_string(ward_pcond::kHistot)},
        {"WARD_PCOND_MHISTOT", std::to_string(ward_pcond::kMhistot)},
        {"WARD_PCOND_LWMIN", std::to_string(ward_pcond::kLwmin)},
        {"WARD_PCOND_LWMAX", std::to_string(ward_pcond::kLwmax)},
        {"WARD_PCOND_DUPLICATED", std::to_string(ward_pcond::kDuplicated)},
        {"WARD_PCOND_VALID", std::to_string(ward_pcond::kValid)},
        {"WARD_PCOND_SCALEF", std::to_string(ward_pcond::kScalef)},
        {"WARD_PCOND_BINS", std::to_string(ward_pcond::kBins)},
        {"WARD_PCOND_PRINTED_COUNT", std::to_string(ward_pcond::kPrintedCount)},
        {"WARD_PCOND_FOVEAL_COUNTED", std::to_string(ward_pcond::kFovealCounted)},
        {"WARD_PCOND_POINTS_COUNTED", std::to_string(ward_pcond::kPointsCounted)},
        {"WARD_PCOND_POINT_WEIGHT", std::to_string(ward_pcond::kPointWeight)},
        {"WARD_PCOND_HISTOGRAM", std::to_string(ward_pcond::kHistogram) + "u"},
        {"WARD_PCOND_MODHIST", std::to_string(ward_pcond::kModhist) + "u"},
        {"WARD_PCOND_CEILING", std::to_string(ward_pcond::kCeiling) + "u"},
        {"WARD_PCOND_CUMF", std::to_string(ward_pcond::kCumf) + "u"},
        {"WARD_PCOND_CENTRES", std::to_string(ward_pcond::kCentres) + "u"},
        {"WARD_PCOND_EXCESS", std::to_string(ward_pcond::kExcess) + "u"},
        {"WARD_PCOND_PRINTED", std::to_string(ward_pcond::kPrinted) + "u"},
        {"WARD_MAX_PASSES", std::to_string(kWardMaxPasses)},
        {"WARD_LMIN", floatLiteral(kWardLmin)},
        {"WARD_LMAX", floatLiteral(kWardLmax)},
        {"WARD_CV_RATIO", floatLiteral(kWardCvRatio)},
        {"WARD_FTINY", floatLiteral(kWardFtiny)},
    };
}

gl::Program buildExposureCurveProgram(const gl::ShaderLibrary& shaders, std::string_view label)
{
    return shaders.buildCompute(label, "tonemap/ExposureCurve.comp", percentileStateDefines());
}

void dispatchExposureCurve(const gl::Program& program,
                           const gl::Buffer& params,
                           gl::Buffer& curve,
                           const gl::Buffer* percentileState,
                           const DisplayCurveSettings& display,
                           std::uint32_t samples,
                           float exposureEv,
                           float logMin,
                           float logMax,
                           float localBlend)
{
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    // The shader declares the state block either way; without one, bind the curve there (never read).
    (percentileState != nullptr ? *percentileState : curve)
        .bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingOperatorState);
    program.set(0, samples);
    program.set(1, unsigned(display.curve));
    program.set(2, display.reinhardWhite);
    program.set(3, percentileState != nullptr ? 1u : 0u);
    program.set(4, exposureEv);
    program.set(5, logMin);
    program.set(6, logMax);
    program.set(7, localBlend);
    program.use();
    glDispatchCompute((samples + 255u) / 256u, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

}  // namespace post
