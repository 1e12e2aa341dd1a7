// MethodTestSupport.h: helpers of the methods' tests on top of support/HistogramTestSupport: a
// runner that reuses an uploaded texture, the per-method setup (cpu-readback made synchronous) and
// the cost budget of the methods whose work grows with pixels x bins.
#pragma once

#include "support/HistogramTestSupport.h"

#include <memory>
#include <string>

namespace methods_test {

/// Creates a registry method ready for single-build tests (cpu-readback waits for its own readback).
std::unique_ptr<post::HistogramMethod> createForTest(const std::string& id);

/// Builds once on `texture` (histogram and cumulative buffers pre-filled with garbage).
testing_support::GpuHistogram runOnTexture(post::HistogramMethod& method,
                                           const gl::Texture& texture,
                                           glm::ivec2 size,
                                           float logMin,
                                           float logMax,
                                           const post::HistogramSpec& spec);

/// Methods doing one full-screen pass (or one gather fetch) per bin: O(pixels x bins) on llvmpipe.
bool isPerBinPassMethod(const std::string& id);
/// Pixel x bin products above this are skipped for those methods (llvmpipe takes seconds per
/// 10^8 fragment-bin evaluations; tests/post covers 1024x768 x 4096 once, `hdrlab compare` the rest).
inline constexpr double kPerBinPassBudget = 2.0e7;
bool withinTestBudget(const std::string& id, int width, int height, std::uint32_t bins);

/// "green-occlusion" -> "green_occlusion" (gtest parameter names).
std::string testNameOf(const std::string& id);

}  // namespace methods_test
