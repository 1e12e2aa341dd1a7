#include "frames/StillImageSource.h"

#include "image/ImageIo.h"
#include "util/Log.h"

#include <cstring>
#include <stdexcept>

namespace app {
namespace {

std::string displayName(const std::filesystem::path& path, const std::string& exrPart)
{
    std::string name = path.filename().string();
    return exrPart.empty() ? name : name + " [" + exrPart + "]";
}

}  // namespace

void checkImageFitsTexture(const image::ImageF& image, int maxTextureSize, const std::string& name)
{
    if (image.empty())
        throw std::runtime_error(
            util::format("cannot show '{}': the image is empty ({} x {} pixels)", name, image.width, image.height));
    if (image.width > maxTextureSize || image.height > maxTextureSize)
        throw std::runtime_error(
            util::format("cannot show '{}': {} x {} pixels is larger than this GPU's largest "
                         "texture ({} on a side)",
                         name, image.width, image.height, maxTextureSize));
}

gl::Texture uploadStillImage(const image::ImageF& image, int maxTextureSize, const std::string& name)
{
    checkImageFitsTexture(image, maxTextureSize, name);
    std::vector<float> bottomUp(image.pixels.size());
    const std::size_t row = std::size_t(image.width) * image::ImageF::kChannels;
    for (int y = 0; y < image.height; ++y)
        std::memcpy(bottomUp.data() + std::size_t(image.height - 1 - y) * row, image.at(0, y), row * sizeof(float));
    gl::Texture texture("view.image", GL_RGBA32F, {image.width, image.height});
    texture.upload(GL_RGBA, GL_FLOAT, bottomUp.data());
    return texture;
}

StillImageSource::StillImageSource(const std::filesystem::path& path, const std::string& exrPart, int maxTextureSize)
    : mMaxTextureSize(maxTextureSize), mPath(path), mName(displayName(path, exrPart))
{
    const image::ImageF image = image::loadHdrImage(path, exrPart);
    mTexture = uploadStillImage(image, maxTextureSize, path.string());
    mRadiance = image.radiance;
}

StillImageSource::ReplaceResult StillImageSource::replaceWith(const std::filesystem::path& path)
{
    ReplaceResult result;
    try {
        const image::ImageF image = image::loadHdrImage(path);
        gl::Texture texture = uploadStillImage(image, mMaxTextureSize, path.string());
        mTexture = std::move(texture);
        mRadiance = image.radiance;
        mPath = path;
        mName = displayName(path, {});
        mControls.fit();
        result.replaced = true;
        result.message = util::format("showing {} ({} x {})", path.string(), mTexture.size().x, mTexture.size().y);
    } catch (const std::exception& error) {
        result.message = std::string(error.what()) + "; still showing " + mName;
    }
    return result;
}

void StillImageSource::update(const FrameSourceInput& input)
{
    mControls.update(input, size());
}

std::string StillImageSource::hint(bool isWindow, double) const
{
    const std::string size = util::format("{} x {} px, ", this->size().x, this->size().y);
    return size + (isWindow ? mControls.describe(this->size()) : std::string("RGBA32F"));
}

std::string StillImageSource::controlsHelp() const
{
    return std::string(ImageViewControls::kHelp) +
           ", Tab hides the panels, F1 lists the keys. Drop an image file on the window to open it (the pipeline runs "
           "on the whole "
           "image, RGBA32F, at its own size).";
}

BlitRects StillImageSource::placement(glm::ivec2 viewportSize) const
{
    return mControls.placement(viewportSize, size());
}

}  // namespace app
