// TevFrameSource.cpp: the tev display server's images as the frame (frames/TevFrameSource.h).
#include "frames/TevFrameSource.h"

#include "profiling/Profiler.h"
#include "util/Log.h"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <thread>

namespace app {
namespace {

constexpr glm::ivec2 kWaitingSize{64, 64};

gl::Texture blackFrame()
{
    gl::Texture texture("tev.waiting", GL_RGBA32F, kWaitingSize);
    const std::vector<float> black(std::size_t(kWaitingSize.x * kWaitingSize.y) * 4, 0.0f);
    texture.upload(GL_RGBA, GL_FLOAT, black.data());
    return texture;
}

}  // namespace

TevFrameSource::TevFrameSource(const net::ListenAddress& address, int maxTextureSize)
    : mMaxTextureSize(maxTextureSize), mTexture(blackFrame())
{
    mServer = std::make_unique<net::TevServer>(address, mStore);
    std::cout << "tev display server listening on " << mServer->endpoint() << std::endl;
}

TevFrameSource::~TevFrameSource() = default;

bool TevFrameSource::waitForFirstImage(std::chrono::milliseconds timeout, std::chrono::milliseconds quiet)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    if (!mStore.waitForImage(timeout))
        return false;
    for (std::uint64_t bytes = mServer->bytesReceived(); std::chrono::steady_clock::now() + quiet < deadline;) {
        std::this_thread::sleep_for(quiet);
        const std::uint64_t now = mServer->bytesReceived();
        if (now == bytes)
            break;
        bytes = now;
    }
    refresh();
    return !mShown.empty();
}

std::string TevFrameSource::name() const
{
    return mShown.empty() ? "waiting on " + mServer->endpoint() : mShown;
}

std::string TevFrameSource::description() const
{
    for (const net::StoredImageInfo& image : mImages)
        if (image.name == mShown)
            return util::format("channels {}; {} image(s) from tev clients on {}", image.channelSummary, mImages.size(),
                                mServer->endpoint());
    return util::format("a tev display server: point a renderer at {} (docs/USAGE.md)", mServer->endpoint());
}

void TevFrameSource::refresh()
{
    const std::uint64_t changes = mStore.changeCount();
    if (changes != mSeenChanges) {
        mSeenChanges = changes;
        mImages = mStore.list();
        const std::string focus = mStore.focusedImage();
        if (focus != mFocusSeen) {  // a client asked for it, or it is new
            mFocusSeen = focus;
            mShown = focus;
            mShownVersion = 0;
        }
        const bool shownExists = std::any_of(mImages.begin(), mImages.end(),
                                             [&](const net::StoredImageInfo& image) { return image.name == mShown; });
        if (!shownExists) {
            mShown = mImages.empty() ? std::string() : mImages.back().name;
            mShownVersion = 0;
        }
        if (mShown.empty() && mTexture.size() != kWaitingSize)
            mTexture = blackFrame();
    }
    if (mShown.empty() || !mStore.copyIfChanged(mShown, mShownVersion, mStaging))
        return;
    const glm::ivec2 size{mStaging.width, mStaging.height};
    if (size.x > mMaxTextureSize || size.y > mMaxTextureSize) {
        mProblem = util::format("'{}' is {} x {}, larger than this GPU's largest texture ({})", mShown, size.x, size.y,
                                mMaxTextureSize);
        return;
    }
    mProblem.clear();
    // GL's rows go bottom-up; flip in place in the staging copy.
    const std::size_t row = std::size_t(size.x) * 4;
    std::vector<float> line(row);
    for (int y = 0; y < size.y / 2; ++y) {
        float* top = mStaging.pixels.data() + std::size_t(y) * row;
        float* bottom = mStaging.pixels.data() + std::size_t(size.y - 1 - y) * row;
        std::memcpy(line.data(), top, row * sizeof(float));
        std::memcpy(top, bottom, row * sizeof(float));
        std::memcpy(bottom, line.data(), row * sizeof(float));
    }
    if (mTexture.size() != size) {
        mTexture = gl::Texture("tev.image", GL_RGBA32F, size);
        mControls.fit();
    }
    mTexture.upload(GL_RGBA, GL_FLOAT, mStaging.pixels.data());
    ++mUploads;
}

void TevFrameSource::update(const FrameSourceInput& input)
{
    refresh();
    mControls.update(input, size());
}

void TevFrameSource::render(profiling::Profiler&)
{
}

std::string TevFrameSource::hint(bool isWindow, double) const
{
    std::string text = util::format("{} x {} px, {} client(s), ", size().x, size().y, mServer->clientCount());
    text += isWindow ? mControls.describe(size()) : std::string("RGBA32F");
    if (!mProblem.empty())
        text += "; " + mProblem;
    return text;
}

std::string TevFrameSource::controlsHelp() const
{
    return std::string(ImageViewControls::kHelp) +
           ". Images arrive from tev clients (pbrt-v4 --display-server, a Python client: docs/USAGE.md); the combo "
           "picks the one shown.";
}

BlitRects TevFrameSource::placement(glm::ivec2 viewportSize) const
{
    return mControls.placement(viewportSize, size());
}

std::vector<std::string> TevFrameSource::pictureChoices() const
{
    std::vector<std::string> names;
    for (const net::StoredImageInfo& image : mImages)
        names.push_back(image.name);
    return names;
}

int TevFrameSource::chosenPicture() const
{
    for (std::size_t i = 0; i < mImages.size(); ++i)
        if (mImages[i].name == mShown)
            return int(i);
    return -1;
}

void TevFrameSource::choosePicture(int index)
{
    if (index < 0 || std::size_t(index) >= mImages.size() || mImages[std::size_t(index)].name == mShown)
        return;
    mShown = mImages[std::size_t(index)].name;
    mShownVersion = 0;
    refresh();
}

}  // namespace app
