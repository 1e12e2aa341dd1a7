// TevFrameSource.h: `--listen`'s frame source: hdrlab as a tev display server. A renderer (pbrt-v4
// --display-server, Mitsuba, SeeSharp, a script) streams images over tev's protocol
// (net/TevProtocol.h); the server thread (net/TevServer.h) keeps them in a net::TevImageStore, and
// this source, on the GL thread, shows one of them like a still image: an RGBA32F texture at the
// image's size, with pan and zoom, the pipeline running on it every frame as its tiles arrive.
//
// Once per frame (update) it asks the store whether the image shown changed and, only then, copies
// it and uploads it (rows flipped to GL's bottom-up order); it never waits for the network. Several
// images are listed for the Frame panel's combo (pictureChoices); a client's grabFocus, or a new
// image, makes it the one shown. Before the first image arrives the frame is a small black one.
#pragma once

#include "frames/FrameSource.h"
#include "frames/ImageViewControls.h"
#include "net/TevImageStore.h"
#include "net/TevServer.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace app {

class TevFrameSource final : public FrameSource
{
public:
    /// Starts the server on `address`. Throws std::runtime_error when it cannot listen.
    TevFrameSource(const net::ListenAddress& address, int maxTextureSize);
    ~TevFrameSource() override;

    /// Headless: waits up to `timeout` for the first image and then until no byte has arrived for
    /// `quiet` (its sender has sent what it had; still within `timeout`), and shows it. False when no
    /// image came.
    bool waitForFirstImage(std::chrono::milliseconds timeout, std::chrono::milliseconds quiet);
    const net::TevServer& server() const { return *mServer; }
    const net::TevImageStore& store() const { return mStore; }

    const char* kind() const override { return "tev"; }
    /// The image shown, or "waiting on HOST:PORT".
    std::string name() const override;
    std::string description() const override;
    glm::ivec2 size() const override { return mTexture.size(); }
    bool followsWindowSize() const override { return false; }
    void resize(glm::ivec2) override {}
    /// Takes what the network brought (the focus, a changed image), then pan/zoom from the window.
    void update(const FrameSourceInput& input) override;
    void render(profiling::Profiler& profiler) override;
    const gl::Texture& hdr() const override { return mTexture; }
    float verticalFovDegrees() const override { return 60.0f; }
    std::optional<post::PictureInfo> pictureInfo() const override { return post::PictureInfo{}; }
    std::string hint(bool isWindow, double pathSeconds) const override;
    std::string controlsHelp() const override;
    BlitRects placement(glm::ivec2 viewportSize) const override;
    std::vector<std::string> pictureChoices() const override;
    int chosenPicture() const override;
    void choosePicture(int index) override;

    /// Images uploaded so far (tests: only changed images are uploaded).
    std::uint64_t uploads() const { return mUploads; }

private:
    /// Copies and uploads the chosen image when its version changed.
    void refresh();

    int mMaxTextureSize = 0;
    net::TevImageStore mStore;
    std::unique_ptr<net::TevServer> mServer;  ///< after the store: stops before the store goes
    std::vector<net::StoredImageInfo> mImages;
    std::uint64_t mSeenChanges = ~std::uint64_t(0);
    std::string mFocusSeen;
    std::string mShown;               ///< the name of the image shown
    std::uint64_t mShownVersion = 0;  ///< its version in the texture
    std::string mProblem;             ///< why the image shown could not be uploaded
    std::uint64_t mUploads = 0;
    net::RgbaImage mStaging;
    gl::Texture mTexture;
    ImageViewControls mControls;
};

}  // namespace app
