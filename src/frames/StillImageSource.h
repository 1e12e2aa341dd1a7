// StillImageSource.h: `hdrlab view`'s frame source: one HDR image file (OpenEXR, Radiance .hdr,
// PNG/JPEG... through image::loadHdrImage), uploaded once to an RGBA32F texture that the pipeline
// reads every frame at the image's own size, shown in the viewport with pan and zoom (PanZoom.h).
//
// RGBA32F, not the scene's RGBA16F: the file's values reach the histogram unchanged (half floats
// would clip above 65504, flush values below 6e-5 and round the rest, so the histogram would no
// longer be the image's), at 16 bytes a pixel. Limits: images up to the GPU's maximum texture size
// on each side; a zero-sized image or a larger one is refused with one line naming the file.
// A file dropped on the window replaces the image; a bad one leaves the current image in place.
#pragma once

#include "frames/FrameSource.h"
#include "frames/ImageViewControls.h"
#include "image/Image.h"
#include "post/PictureInfo.h"

#include <filesystem>
#include <optional>
#include <string>

namespace app {

/// The image as an RGBA32F texture, rows flipped to GL's bottom-up order. Throws std::runtime_error
/// naming `name` for an empty image or one larger than `maxTextureSize` on a side.
gl::Texture uploadStillImage(const image::ImageF& image, int maxTextureSize, const std::string& name);
/// The checks of uploadStillImage alone (an empty image, one larger than `maxTextureSize` on a side).
void checkImageFitsTexture(const image::ImageF& image, int maxTextureSize, const std::string& name);

class StillImageSource final : public FrameSource
{
public:
    /// Loads `path` (`exrPart`: the OpenEXR part, view or layer; "" the first with colour) and
    /// uploads it. Throws std::runtime_error (image::ImageError) with one line naming the file.
    StillImageSource(const std::filesystem::path& path, const std::string& exrPart, int maxTextureSize);

    struct ReplaceResult
    {
        bool replaced = false;
        std::string message;  ///< one line: what is shown now, or why the file was refused
    };
    /// Loads `path` in place of the current image (a dropped file); on any failure the current
    /// image stays and the message says why. Never throws for a bad file.
    ReplaceResult replaceWith(const std::filesystem::path& path);

    const char* kind() const override { return "Image"; }
    /// The file name (without its folders) and the part, e.g. "memorial.exr" or "multi.exr [right]".
    std::string name() const override { return mName; }
    const std::filesystem::path& path() const { return mPath; }
    /// The image's Radiance header (what its units are; post::PostPipeline::setInputRadiance), nullopt
    /// for other formats.
    std::optional<image::RadianceHeader> radiance() const override { return mRadiance; }
    glm::ivec2 size() const override { return mTexture.size(); }
    bool followsWindowSize() const override { return false; }
    void resize(glm::ivec2) override {}
    /// Window: drag pans, the wheel zooms about the cursor, +/- zoom, 1 shows 1:1, F or 0 fits.
    void update(const FrameSourceInput& input) override;
    void render(profiling::Profiler&) override {}
    const gl::Texture& hdr() const override { return mTexture; }
    float verticalFovDegrees() const override { return 60.0f; }
    /// A still picture: its file's view (none, for most files) and pixel aspect.
    std::optional<post::PictureInfo> pictureInfo() const override { return post::pictureInfoOf(mRadiance); }
    /// "320 x 200 px, fit 50 %" (window) or "320 x 200 px, RGBA32F" (headless).
    std::string hint(bool isWindow, double pathSeconds) const override;
    std::string controlsHelp() const override;
    BlitRects placement(glm::ivec2 viewportSize) const override;

    const PanZoom& view() const { return mControls.view(); }
    void fit() { mControls.fit(); }

private:
    int mMaxTextureSize = 0;
    std::filesystem::path mPath;
    std::string mName;
    std::optional<image::RadianceHeader> mRadiance;
    gl::Texture mTexture;
    ImageViewControls mControls;
};

}  // namespace app
