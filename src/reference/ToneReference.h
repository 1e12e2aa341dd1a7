// ToneReference.h: the CPU references of the tone operators, one table row per operator (its id, its
// curve, its further checks), producing a curve buffer laid out exactly as the GPU's (hd::kCurve*),
// so --verify (verify/PipelineVerify), tools and tests can compare a GPU curve with its reference
// through ref::evaluateCurve (reference/Image.h, the apply pass's semantics).
#pragma once

#include "shared/HostDevice.h"
#include "tone/ToneCurveInputs.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace ref {

/// An operator's CPU reference: its curve, and its further checks of the GPU's state (empty: none).
struct ToneReference
{
    std::string_view id;  ///< the operator's id (post::ToneOperator::id)
    std::function<std::vector<float>(const CurveInputs&)> curve;
    std::function<std::vector<ToneCheckResult>(const ToneCheckInputs&)> checks;
};

/// Every operator's reference, one row per operator (the table in ToneReference.cpp), and those
/// registered at run time.
const std::vector<ToneReference>& toneReferenceRegistry();
/// Adds a reference at run time (tests, tools; explicit, no static initialisation); replaces a row of
/// the same id. `reference.id` must outlive the registry (a string literal).
void registerToneReference(ToneReference reference);
/// Removes a row registered at run time (tests clean up after themselves); false for an unknown id.
bool unregisterToneReference(std::string_view operatorId);
/// nullptr for an unknown id.
const ToneReference* findToneReference(std::string_view operatorId);

/// The reference curve buffer (hd::kCurveBufferWords floats) of operator `operatorId` ("equalize",
/// "percentile", "ward", "exposure", or one registered); empty for an unknown id.
std::vector<float> referenceCurve(std::string_view operatorId, const CurveInputs& inputs);

/// A zeroed curve buffer with its header filled in.
std::vector<float> makeCurveWords(double logMin,
                                  double logMax,
                                  std::uint32_t sampleCount,
                                  std::uint32_t channels,
                                  bool linearScale = false,
                                  double scale = 0.0);

/// Largest |a - b| of the display values (clamped to [0, 1]) of two curve buffers' channel over
/// `probes` world luminances spread evenly on [log2Lo, log2Hi].
double curveMaxDifference(std::span<const float> a,
                          std::span<const float> b,
                          int channel,
                          double log2Lo,
                          double log2Hi,
                          int probes = 4096);

/// Largest |a - b| of the LUT values of two LUT-mode buffers with the same header (sample by sample).
double lutMaxDifference(std::span<const float> a, std::span<const float> b);

}  // namespace ref
