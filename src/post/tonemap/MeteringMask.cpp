#include "post/tonemap/MeteringMask.h"

#include "gl/Debug.h"
#include "image/ImageIo.h"
#include "profiling/Profiler.h"

#include <cmath>
#include <optional>
#include <stdexcept>

namespace post {

MeteringWeights loadMeteringWeights(const std::filesystem::path& path)
{
    MeteringWeights weights;
    const image::FileKind kind = image::detectFileKind(path);
    if (kind == image::FileKind::OpenExr || kind == image::FileKind::RadianceHdr) {
        const image::ImageF picture = image::loadHdrImage(path);
        weights.width = picture.width;
        weights.height = picture.height;
        weights.values.resize(std::size_t(picture.width) * std::size_t(picture.height));
        for (std::size_t i = 0; i < weights.values.size(); ++i)
            weights.values[i] = picture.pixels[i * image::ImageF::kChannels];
    } else {
        // 8-bit masks hold weights, not colours: value / 255, no sRGB decoding.
        const image::Image8 picture = image::loadImage8(path);
        weights.width = picture.width;
        weights.height = picture.height;
        weights.values.resize(std::size_t(picture.width) * std::size_t(picture.height));
        for (std::size_t i = 0; i < weights.values.size(); ++i)
            weights.values[i] = float(picture.pixels[i * std::size_t(picture.channels)]) / 255.0f;
    }
    if (weights.width <= 0 || weights.height <= 0)
        throw image::ImageError("cannot use '" + path.string() + "' as a metering mask: it has no pixels");
    return weights;
}

std::string checkMeteringTexture(std::string_view path)
{
    if (path.empty())
        return {};
    try {
        loadMeteringWeights(std::filesystem::path(path));
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

MeteringMask::MeteringMask() = default;
MeteringMask::~MeteringMask() = default;

void MeteringMask::loadTexture(const std::string& path)
{
    if (path == mLoadedPath)
        return;
    mLoadedPath = path;
    mMaskTexture = gl::Texture();
    mTextureError.clear();
    if (path.empty()) {
        mTextureError = "no mask texture set (percentile.mask_texture)";
        return;
    }
    try {
        const MeteringWeights weights = loadMeteringWeights(path);
        mMaskTexture = gl::Texture("tonemap.percentile.metering.mask", GL_R32F, {weights.width, weights.height});
        mMaskTexture.upload(GL_RED, GL_FLOAT, weights.values.data());
    } catch (const std::exception& e) {
        mTextureError = e.what();
    }
}

std::uint32_t MeteringMask::effectiveMode(const MeteringSettings& settings) const
{
    // A texture that is missing or damaged meters the whole frame; problem() says why.
    if (settings.mask == MeteringMaskType::Texture && !mMaskTexture)
        return hd::kMeteringAverage;
    return std::uint32_t(settings.mask);
}

bool MeteringMask::active(const MeteringSettings& settings, const MeteringFrame& frame)
{
    mSkyUnavailable.clear();
    if (!frame.depth)
        mSkyUnavailable = "no scene depth (a still image has none)";
    else if (frame.depth->size() != frame.frame.size)
        mSkyUnavailable = "the depth buffer's size differs from the frame's";
    if (settings.mask == MeteringMaskType::Texture)
        loadTexture(settings.texturePath);
    return settings.mask != MeteringMaskType::Average || (settings.excludeSky && mSkyUnavailable.empty());
}

std::string MeteringMask::problem(const MeteringSettings& settings) const
{
    std::string text;
    if (settings.mask == MeteringMaskType::Texture && !mMaskTexture)  // a texture error belongs to that mask alone
        text = (mTextureError.empty() ? std::string("no mask texture") : mTextureError) + "; metering the whole frame";
    if (settings.excludeSky && !mSkyUnavailable.empty())
        text += (text.empty() ? "" : "; ") + ("sky exclusion off: " + mSkyUnavailable);
    return text;
}

void MeteringMask::setUniforms(gl::Program& program,
                               const MeteringSettings& settings,
                               const MeteringFrame& frame,
                               glm::ivec2 imageSize)
{
    const bool sky = settings.excludeSky && frame.depth && frame.depth->size() == frame.frame.size;
    program.set(0, effectiveMode(settings));
    program.set(1, sky ? 1u : 0u);
    program.set(2, frame.topDownRows ? 1u : 0u);
    glProgramUniform2f(program.id(), 3, settings.centreX, settings.centreY);
    glProgramUniform2f(program.id(), 4, settings.radiusX, settings.radiusY);
    program.set(5, 1.0f / settings.softness);
    program.set(6, std::exp2(settings.gateMinEv));
    program.set(7, std::exp2(settings.gateMaxEv));
    glProgramUniform2i(program.id(), 8, imageSize.x, imageSize.y);
    glProgramUniform2i(program.id(), 9, frame.frame.size.x, frame.frame.size.y);
    if (!mPlaceholder) {
        mPlaceholder = gl::Texture("tonemap.percentile.metering.placeholder", GL_R32F, {1, 1});
        const float one = 1.0f;
        mPlaceholder.upload(GL_RED, GL_FLOAT, &one);
    }
    const bool texture = effectiveMode(settings) == hd::kMeteringTexture;
    (texture ? mMaskTexture : mPlaceholder).bindUnit(hd::kTextureUnitAux);
    glBindSampler(hd::kTextureUnitAux, 0);
    if (sky)
        frame.depth->bindUnit(hd::kTextureUnitDepth);
    else
        mPlaceholder.bindUnit(hd::kTextureUnitDepth);
    glBindSampler(hd::kTextureUnitDepth, 0);
}

const gl::Buffer& MeteringMask::run(PassContext& ctx, const MeteringSettings& settings, const MeteringFrame& frame)
{
    auto scope = ctx.profiler.scope("tonemap/percentile/metering");  // timed, and a debug group
    if (!mHistogram) {
        mHistogram = ctx.shaders.buildCompute("tonemap.percentile.metering", "tonemap/MeteringHistogram.comp");
        mScan = ctx.shaders.buildCompute("tonemap.percentile.metering-cdf", "tonemap/MeteringCdf.comp");
        mWeighted = gl::Buffer("tonemap.percentile.metering.bins", 2 * hd::kMaxHistogramBins * sizeof(std::uint32_t));
        mCdf = gl::Buffer("tonemap.percentile.metering.cdf", hd::kMaxHistogramBins * sizeof(std::uint32_t));
        mTotal = gl::Buffer("tonemap.percentile.metering.total", 2 * sizeof(std::uint32_t));
    }
    if (settings.mask == MeteringMaskType::Texture)
        loadTexture(settings.texturePath);
    const glm::ivec2 size = frame.histogramImage.size;
    std::optional<profiling::Profiler::Scope> step{ctx.profiler.scope("tonemap/percentile/metering/weights")};
    mWeighted.clearUint(0u);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    setUniforms(mHistogram, settings, frame, size);
    frame.histogramImage.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    frame.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);
    mWeighted.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch0);
    mHistogram.use();
    constexpr std::uint32_t kTileRows = hd::kHistogramGroupY * hd::kMeteringRowsPerInvocation;
    glDispatchCompute(GLuint((size.x + int(hd::kHistogramGroupX) - 1) / int(hd::kHistogramGroupX)),
                      GLuint((size.y + int(kTileRows) - 1) / int(kTileRows)), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    step.reset();
    step.emplace(ctx.profiler.scope("tonemap/percentile/metering/cdf"));
    mCdf.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingCdf);
    mTotal.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingScratch1);
    mScan.use();
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return mCdf;
}

void MeteringMask::overlay(PassContext& ctx,
                           const MeteringSettings& settings,
                           const MeteringFrame& frame,
                           const gl::Texture& toned,
                           gl::Texture& output)
{
    if (output.size() != frame.frame.size || toned.size() != frame.frame.size || output.format() != GL_RGBA8)
        throw std::invalid_argument("metering view: the output must be GL_RGBA8 of the frame's size");
    if (!mOverlay)
        mOverlay = ctx.shaders.buildCompute("view.metering", "tonemap/MeteringOverlay.comp");
    if (settings.mask == MeteringMaskType::Texture)
        loadTexture(settings.texturePath);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    setUniforms(mOverlay, settings, frame, frame.frame.size);
    frame.frame.texture.bindUnit(hd::kTextureUnitInput);
    glBindSampler(hd::kTextureUnitInput, 0);
    toned.bindUnit(3);
    glBindSampler(3, 0);
    frame.params.bindBase(GL_SHADER_STORAGE_BUFFER, hd::kBindingHistogramParams);  // the luminance weights
    output.bindImage(hd::kImageUnitOutput, GL_WRITE_ONLY);
    mOverlay.use();
    glDispatchCompute(GLuint((frame.frame.size.x + 15) / 16), GLuint((frame.frame.size.y + 15) / 16), 1);
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT);
}

}  // namespace post
