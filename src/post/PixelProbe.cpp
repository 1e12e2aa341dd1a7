#include "post/PixelProbe.h"

#include "util/Log.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace post {

namespace {
constexpr std::size_t kRecordBufferWords = std::size_t(hd::kMaxProbes) * hd::kProbeRecordWords;

float asFloat(std::uint32_t word)
{
    return std::bit_cast<float>(word);
}
}  // namespace

std::vector<ProbeSample> decodeProbeRecords(std::span<const std::uint32_t> words, std::size_t count, bool topDownRows)
{
    count = std::min({count, std::size_t(hd::kMaxProbes), words.size() / hd::kProbeRecordWords});
    std::vector<ProbeSample> samples(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t* r = words.data() + i * hd::kProbeRecordWords;
        ProbeSample& s = samples[i];
        s.texel = {int(r[hd::kProbeX]), int(r[hd::kProbeY])};
        s.frameSize = {int(r[hd::kProbeWidth]), int(r[hd::kProbeHeight])};
        s.inside = (r[hd::kProbeFlags] & hd::kProbeInside) != 0;
        s.logValid = (r[hd::kProbeFlags] & hd::kProbeLogValid) != 0;
        s.topDownRows = topDownRows;
        s.rgb = {asFloat(r[hd::kProbeRed]), asFloat(r[hd::kProbeGreen]), asFloat(r[hd::kProbeBlue])};
        s.luminance = asFloat(r[hd::kProbeLuminance]);
        s.log2Luminance = asFloat(r[hd::kProbeLog2]);
        s.bin = int(r[hd::kProbeBin]);
        s.binCount = r[hd::kProbeBinCount];
        s.logMin = asFloat(r[hd::kProbeLogMin]);
        s.logMax = asFloat(r[hd::kProbeLogMax]);
        s.displayLuminance = asFloat(r[hd::kProbeDisplay]);
        const std::uint32_t shown = r[hd::kProbeShown];  // packUnorm4x8: red in the low byte
        s.shown = {std::uint8_t(shown), std::uint8_t(shown >> 8), std::uint8_t(shown >> 16), std::uint8_t(shown >> 24)};
        s.band = int(r[hd::kProbeBand]);
        s.falseColour = r[hd::kProbeFalseColour];
        s.tiles = (r[hd::kProbeFlags] & hd::kProbeTiles) != 0;
        for (std::size_t t = 0; t < 4; ++t)
            s.tileValues[t] = asFloat(r[hd::kProbeTileValue + t]);
        s.tileLocal = asFloat(r[hd::kProbeTileLocal]);
        s.tileGlobal = asFloat(r[hd::kProbeTileGlobal]);
    }
    return samples;
}

std::string describeBin(int bin, std::uint32_t binCount)
{
    switch (bin) {
        case hd::kBinNaN:
            return "no bin (NaN)";
        case hd::kBinInf:
            return "no bin (Inf)";
        case hd::kBinNonPositive:
            return "no bin (L <= 0)";
        case hd::kBinBelow:
            return "no bin (below the range)";
        case hd::kBinAbove:
            return "no bin (above the range)";
        default:
            return util::format("bin {} of {}", bin, binCount);
    }
}

std::string describeProbeSample(const ProbeSample& s, std::string_view unitsNote)
{
    const glm::ivec2 at = s.topLeft();
    if (!s.inside)
        return util::format("{},{}: outside the {}x{} frame", at.x, at.y, s.frameSize.x, s.frameSize.y);
    char ev[64] = "EV none";
    if (s.logValid)
        std::snprintf(ev, sizeof ev, "EV %.3f (EV100 %.3f)", s.log2Luminance, s.log2Luminance + hd::kEv100Offset);
    std::string band;
    if (s.band == hd::kFalseColourBandInvalid)
        band = "invalid (magenta)";
    else if (s.band == hd::kFalseColourBandUnder)
        band = "under the range (black)";
    else if (s.band == hd::kFalseColourBandOver)
        band = "over the range (white)";
    else
        band = std::to_string(s.band);
    char values[160];
    std::snprintf(values, sizeof values, "rgb %.6g %.6g %.6g, L %.6g cd/m^2", s.rgb.x, s.rgb.y, s.rgb.z, s.luminance);
    const std::string units = unitsNote.empty() ? std::string() : " (" + std::string(unitsNote) + ")";
    char display[48];
    std::snprintf(display, sizeof display, "display %.4f", s.displayLuminance);
    return util::format("{},{}: {}{}, {}, {} over log2 L [{}, {}], {} (shown sRGB {} {} {}), false-colour band {}",
                        at.x, at.y, values, units, ev, describeBin(s.bin, s.binCount), s.logMin, s.logMax, display,
                        int(s.shown[0]), int(s.shown[1]), int(s.shown[2]), band);
}

PixelProbe::PixelProbe()
    : mRecords("view.probe.records", kRecordBufferWords * sizeof(std::uint32_t)),
      mReadback("view.probe.readback", kRecordBufferWords)
{
    mRecords.clearUint(0u);
}

void PixelProbe::run(PassContext& ctx,
                     const ImageInput& hdr,
                     const gl::Texture& shown,
                     const gl::Buffer& params,
                     const gl::Buffer& curve,
                     std::span<const glm::ivec2> texels,
                     bool topDownRows,
                     const gl::Buffer* tileCurves)
{
    if (texels.empty())
        return;
    if (shown.size() != hdr.size)
        throw std::invalid_argument("pixel probe: the shown image must have the input's size");
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("view.probe", "post/PixelProbe.comp");
    const int count = int(std::min<std::size_t>(texels.size(), hd::kMaxProbes));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    mProgram.use();
    glProgramUniform2i(mProgram.id(), 0, hdr.size.x, hdr.size.y);
    mProgram.set(1, count);
    glProgramUniform2iv(mProgram.id(), 2, count, &texels[0].x);
    mProgram.set(10, tileCurves ? 1 : 0);
    if (tileCurves)
        tileCurves->bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingLocalAdaptation);
    hdr.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    shown.bindUnit(hd::kTextureUnitAux);
    glBindSampler(hd::kTextureUnitAux, 0);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    curve.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCurve);
    mRecords.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    mReadback.enqueue(mRecords, std::size_t(count) * hd::kProbeRecordWords, ctx.frameIndex,
                      {std::uint32_t(count), topDownRows ? 1u : 0u, 0, 0});
}

std::optional<ProbeSnapshot> PixelProbe::poll()
{
    auto result = mReadback.poll();
    if (!result)
        return std::nullopt;
    ProbeSnapshot snapshot;
    snapshot.frame = result->frame;
    snapshot.samples = decodeProbeRecords(result->words, result->tag[0], result->tag[1] != 0);
    return snapshot;
}

}  // namespace post
