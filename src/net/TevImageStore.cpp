// TevImageStore.cpp: applying tev packets to the stored images, and tev's channel choice.
#include "net/TevImageStore.h"

#include "image/ImageIo.h"
#include "util/Log.h"
#include "util/PrintableText.h"

#include <algorithm>
#include <cctype>

namespace net {
namespace {

std::string layerOf(const std::string& channel)
{
    const std::size_t dot = channel.find_last_of('.');
    return dot == std::string::npos ? std::string() : channel.substr(0, dot);
}

std::string leafOf(const std::string& channel)
{
    const std::size_t dot = channel.find_last_of('.');
    return dot == std::string::npos ? channel : channel.substr(dot + 1);
}

bool sameLetter(const std::string& leaf, char letter)
{
    return leaf.size() == 1 && std::toupper(static_cast<unsigned char>(leaf[0])) == letter;
}

/// A client's name or path as log lines and errors show it: no control bytes, at most 80 bytes.
std::string shown(const std::string& name)
{
    return util::escapeControlCharacters(name, true, 80);
}

std::int64_t floatsOf(std::int64_t width, std::int64_t height, std::size_t channels)
{
    return width * height * std::int64_t(channels);
}

}  // namespace

DisplayChannels chooseDisplayChannels(const std::vector<std::string>& channels, const std::string& selector)
{
    DisplayChannels choice;
    if (channels.empty())
        return choice;
    // The layer: the selector's (a layer name, with or without its dot), else the root's, else the first.
    std::vector<std::string> layers;
    for (const std::string& channel : channels)
        if (std::find(layers.begin(), layers.end(), layerOf(channel)) == layers.end())
            layers.push_back(layerOf(channel));
    std::string wanted = selector;
    if (!wanted.empty() && wanted.back() == '.')
        wanted.pop_back();
    if (!wanted.empty() && std::find(layers.begin(), layers.end(), wanted) != layers.end())
        choice.layer = wanted;
    else if (std::find(layers.begin(), layers.end(), std::string()) != layers.end())
        choice.layer = "";
    else
        choice.layer = layers.front();
    std::vector<int> inLayer;
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (layerOf(channels[i]) == choice.layer)
            inLayer.push_back(int(i));
    // A selector naming one channel of the layer ("R", "albedo.G") shows it as grey.
    if (!selector.empty())
        for (std::size_t i = 0; i < channels.size(); ++i)
            if (channels[i] == selector)
                inLayer = {int(i)};
    if (inLayer.size() == 1) {
        choice.red = choice.green = choice.blue = inLayer.front();
        choice.grey = true;
        return choice;
    }
    for (int index : inLayer) {
        const std::string leaf = leafOf(channels[std::size_t(index)]);
        if (sameLetter(leaf, 'R') && choice.red < 0)
            choice.red = index;
        else if (sameLetter(leaf, 'G') && choice.green < 0)
            choice.green = index;
        else if (sameLetter(leaf, 'B') && choice.blue < 0)
            choice.blue = index;
    }
    if (choice.red < 0 && choice.green < 0 && choice.blue < 0) {
        choice.red = inLayer.size() > 0 ? inLayer[0] : -1;
        choice.green = inLayer.size() > 1 ? inLayer[1] : -1;
        choice.blue = inLayer.size() > 2 ? inLayer[2] : -1;
    }
    return choice;
}

TevImageStore::Image* TevImageStore::find(const std::string& name)
{
    auto it = std::find_if(mImages.begin(), mImages.end(), [&](const Image& image) { return image.name == name; });
    return it == mImages.end() ? nullptr : &*it;
}

const TevImageStore::Image* TevImageStore::find(const std::string& name) const
{
    return const_cast<TevImageStore*>(this)->find(name);
}

void TevImageStore::touch(Image& image)
{
    image.version = mNextVersion++;
}

void TevImageStore::put(Image image, bool grabFocus)
{
    std::unique_lock lock(mMutex);
    std::int64_t held = floatsOf(image.width, image.height, image.channels.size());
    for (const Image& other : mImages)
        if (other.name != image.name)
            held += floatsOf(other.width, other.height, other.channels.size());
    Image* existing = find(image.name);
    if (!existing && mImages.size() >= kMaxImages)
        throw ProtocolError(util::format("image '{}' would be image {}; at most {} are kept (close one first)",
                                         shown(image.name), mImages.size() + 1, kMaxImages));
    if (held > mMaxFloats)
        throw ProtocolError(util::format("image '{}' would make the images hold {} floats; at most {}",
                                         shown(image.name), held, mMaxFloats));
    touch(image);
    if (existing)
        *existing = std::move(image);
    else
        mImages.push_back(std::move(image));
    if (grabFocus || mFocused.empty() || !existing)
        mFocused = existing ? existing->name : mImages.back().name;
    ++mChanges;
    lock.unlock();
    mImageArrived.notify_all();
}

void TevImageStore::loadFile(const std::string& path,
                             const std::string& selector,
                             bool grabFocus,
                             const std::string& client)
{
    // The app's checked readers (limits, one-line errors); outside the lock, a file takes a while.
    image::ImageF loaded;
    try {
        loaded = image::loadHdrImage(path, selector);
    } catch (const image::ImageError& error) {
        util::logError("tev: {}: {}", client, error.what());
        return;
    }
    Image image;
    image.name = path;
    image.path = path;
    image.selector = selector;
    image.width = loaded.width;
    image.height = loaded.height;
    image.channels = {"R", "G", "B", "A"};
    image.planes.assign(4, std::vector<float>(std::size_t(loaded.width) * std::size_t(loaded.height)));
    for (std::size_t i = 0; i < image.planes[0].size(); ++i)
        for (std::size_t c = 0; c < 4; ++c)
            image.planes[c][i] = loaded.pixels[i * 4 + c];
    put(std::move(image), grabFocus);
    util::logInfo("tev: {} opened {} ({} x {})", client, shown(path), loaded.width, loaded.height);
}

void TevImageStore::update(const UpdateImagePacket& tile, const std::string& client)
{
    std::lock_guard lock(mMutex);
    Image* image = find(tile.name);
    if (!image) {
        util::logWarning("tev: {} updated '{}', which no CreateImage made; ignored", client, shown(tile.name));
        return;
    }
    // Tiles are clipped to the image, as tev does; a channel the image lacks is ignored.
    const int x1 = std::min(image->width, tile.x + tile.width), y1 = std::min(image->height, tile.y + tile.height);
    for (std::size_t c = 0; c < tile.channels.size(); ++c) {
        auto named = std::find(image->channels.begin(), image->channels.end(), tile.channels[c]);
        if (named == image->channels.end())
            continue;
        std::vector<float>& plane = image->planes[std::size_t(named - image->channels.begin())];
        for (int y = tile.y; y < y1; ++y)
            for (int x = tile.x; x < x1; ++x)
                plane[std::size_t(y) * std::size_t(image->width) + std::size_t(x)] =
                    tile.planes[c][std::size_t(y - tile.y) * std::size_t(tile.width) + std::size_t(x - tile.x)];
    }
    touch(*image);
    if (tile.grabFocus && mFocused != image->name) {
        mFocused = image->name;
        ++mChanges;
    }
}

void TevImageStore::apply(const Packet& packet, const std::string& client)
{
    if (const auto* open = std::get_if<OpenImagePacket>(&packet)) {
        loadFile(open->path, open->channelSelector, open->grabFocus, client);
    } else if (const auto* reload = std::get_if<ReloadImagePacket>(&packet)) {
        std::string path, selector;
        {
            std::lock_guard lock(mMutex);
            if (const Image* image = find(reload->name)) {
                path = image->path;
                selector = image->selector;
            }
        }
        if (path.empty())
            util::logWarning("tev: {} reloads '{}', which no OpenImage opened; ignored", client, shown(reload->name));
        else
            loadFile(path, selector, reload->grabFocus, client);
    } else if (const auto* close = std::get_if<CloseImagePacket>(&packet)) {
        std::lock_guard lock(mMutex);
        auto it = std::find_if(mImages.begin(), mImages.end(), [&](const Image& i) { return i.name == close->name; });
        if (it != mImages.end()) {
            mImages.erase(it);
            if (mFocused == close->name)
                mFocused = mImages.empty() ? std::string() : mImages.back().name;
            ++mChanges;
        }
    } else if (const auto* create = std::get_if<CreateImagePacket>(&packet)) {
        Image image;
        image.name = create->name;
        image.width = create->width;
        image.height = create->height;
        image.channels = create->channels;
        // Check the limits before the planes are allocated.
        if (floatsOf(image.width, image.height, image.channels.size()) > mMaxFloats)
            throw ProtocolError(util::format("image '{}' of {} x {} x {} channels is larger than {} floats",
                                             shown(image.name), image.width, image.height, image.channels.size(),
                                             mMaxFloats));
        image.planes.assign(image.channels.size(),
                            std::vector<float>(std::size_t(image.width) * std::size_t(image.height), 0.0f));
        put(std::move(image), create->grabFocus);
    } else if (const auto* tile = std::get_if<UpdateImagePacket>(&packet)) {
        update(*tile, client);
    } else if (const auto* graphics = std::get_if<VectorGraphicsPacket>(&packet)) {
        util::logInfo("tev: {} sent vector graphics for '{}'; hdrlab does not draw them (ignored)", client,
                      shown(graphics->name));
    }
}

std::vector<StoredImageInfo> TevImageStore::list() const
{
    std::lock_guard lock(mMutex);
    std::vector<StoredImageInfo> infos;
    for (const Image& image : mImages) {
        const DisplayChannels choice = chooseDisplayChannels(image.channels, image.selector);
        std::string summary;
        for (int index : {choice.red, choice.green, choice.blue}) {
            summary += index < 0 ? std::string("0") : image.channels[std::size_t(index)];
            summary += ' ';
            if (choice.grey)
                break;
        }
        summary += util::format("(of {} channels)", image.channels.size());
        infos.push_back({image.name, image.width, image.height, image.version, summary});
    }
    return infos;
}

bool TevImageStore::copyIfChanged(const std::string& name, std::uint64_t& version, RgbaImage& out) const
{
    std::lock_guard lock(mMutex);
    const Image* image = find(name);
    if (!image || image->version == version)
        return false;
    version = image->version;
    const DisplayChannels choice = chooseDisplayChannels(image->channels, image->selector);
    const std::size_t pixels = std::size_t(image->width) * std::size_t(image->height);
    out.width = image->width;
    out.height = image->height;
    out.pixels.assign(pixels * 4, 1.0f);
    const int sources[3] = {choice.red, choice.grey ? choice.red : choice.green,
                            choice.grey ? choice.red : choice.blue};
    for (int c = 0; c < 3; ++c) {
        const std::vector<float>* plane = sources[c] < 0 ? nullptr : &image->planes[std::size_t(sources[c])];
        for (std::size_t i = 0; i < pixels; ++i)
            out.pixels[i * 4 + std::size_t(c)] = plane ? (*plane)[i] : 0.0f;
    }
    return true;
}

std::string TevImageStore::focusedImage() const
{
    std::lock_guard lock(mMutex);
    return mFocused;
}

std::uint64_t TevImageStore::changeCount() const
{
    std::lock_guard lock(mMutex);
    return mChanges;
}

bool TevImageStore::waitForImage(std::chrono::milliseconds timeout) const
{
    std::unique_lock lock(mMutex);
    return mImageArrived.wait_for(lock, timeout, [&] { return !mImages.empty(); });
}

std::int64_t TevImageStore::floatsHeld() const
{
    std::lock_guard lock(mMutex);
    std::int64_t held = 0;
    for (const Image& image : mImages)
        held += floatsOf(image.width, image.height, image.channels.size());
    return held;
}

}  // namespace net
