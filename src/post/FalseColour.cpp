#include "post/FalseColour.h"

#include <stdexcept>

namespace post {

std::string_view viewModeName(ViewMode mode)
{
    if (mode == ViewMode::Metering)
        return "metering";
    if (mode == ViewMode::LocalGain)
        return "local-gain";
    if (mode == ViewMode::LocalTiles)
        return "local-tiles";
    if (mode == ViewMode::LocalBase)
        return "local-base";
    if (mode == ViewMode::LocalBlurred)
        return "local-blurred";
    if (mode == ViewMode::LocalDetail)
        return "local-detail";
    if (mode == ViewMode::LocalExposure)
        return "local-exposure";
    return mode == ViewMode::FalseColour ? "false-colour" : "tonemapped";
}

std::optional<ViewMode> parseViewMode(std::string_view text)
{
    if (text == "tonemapped")
        return ViewMode::ToneMapped;
    if (text == "false-colour")
        return ViewMode::FalseColour;
    if (text == "metering")
        return ViewMode::Metering;
    if (text == "local-gain")
        return ViewMode::LocalGain;
    if (text == "local-tiles")
        return ViewMode::LocalTiles;
    for (ViewMode mode : {ViewMode::LocalBase, ViewMode::LocalBlurred, ViewMode::LocalDetail, ViewMode::LocalExposure})
        if (text == viewModeName(mode))
            return mode;
    return std::nullopt;
}

std::vector<FalseColourBand> falseColourBands(float logMin, float logMax)
{
    const int count = hd::hdFalseColourBandCount(logMin, logMax);
    const int first = hd::hdFalseColourFirstEv(logMin);
    const int perBand = hd::hdFalseColourEvPerBand(logMin, logMax);
    std::vector<FalseColourBand> bands;
    for (int band = 0; band < count; ++band)
        bands.push_back({first + band * perBand, first + (band + 1) * perBand, hd::hdFalseColourOfBand(band, count)});
    return bands;
}

void FalseColour::run(PassContext& ctx,
                      const ImageInput& hdr,
                      const gl::Buffer& params,
                      gl::Texture& output,
                      bool legendStrip,
                      bool topDownRows)
{
    if (output.size() != hdr.size || output.format() != GL_RGBA8)
        throw std::invalid_argument("false colour: the output must be GL_RGBA8 of the input's size");
    if (!mProgram)
        mProgram = ctx.shaders.buildCompute("view.false-colour", "post/FalseColour.comp");
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    mProgram.use();
    glProgramUniform2i(mProgram.id(), 0, hdr.size.x, hdr.size.y);
    mProgram.set(1, legendStrip ? hd::hdFalseColourLegendRows(hdr.size.y) : 0);
    mProgram.set(2, topDownRows ? 1 : 0);
    hdr.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    output.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
    glDispatchCompute(GLuint((hdr.size.x + 15) / 16), GLuint((hdr.size.y + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT);
}

}  // namespace post
