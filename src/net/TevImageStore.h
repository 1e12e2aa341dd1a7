// TevImageStore.h: the images tev clients send, kept between the network thread (TevServer, which
// applies each packet) and the GL thread (frames/TevFrameSource, which copies out an image when its
// version changed, once per frame). One mutex guards everything; the GL thread never waits for the
// network, only for the copy of one image.
//
// Images are kept as the client sent them: named float planes, rows top first. Which planes become
// the frame's R, G and B is chosen as tev does (chooseDisplayChannels). OpenImage and ReloadImage
// read files through image::loadHdrImage, the app's checked readers.
// Limits: kMaxImages images, kMaxStoreFloats floats over all of them (1 GiB); a packet that would
// pass one is refused (ProtocolError), and the server drops its client.
#pragma once

#include "net/TevProtocol.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace net {

inline constexpr std::size_t kMaxImages = 16;
inline constexpr std::int64_t kMaxStoreFloats = std::int64_t(1) << 28;

/// Which channels of an image make the frame: indices into its channel names, -1 for "zero".
struct DisplayChannels
{
    int red = -1, green = -1, blue = -1;
    bool grey = false;  ///< one channel shown as grey (red is it)
    std::string layer;  ///< the layer used ("" the root)
};

/// tev's choice: the layer named by `selector` (a layer "albedo", or "albedo." / a channel prefix),
/// else the root layer (names without a '.') when it has channels, else the first layer; in the
/// layer, the channels named R, G, B (any case; a layer's ".R .G .B"); a layer of one channel is
/// grey; a layer without R, G or B takes its first channels in order.
DisplayChannels chooseDisplayChannels(const std::vector<std::string>& channels, const std::string& selector = {});

/// An image as the frame source uploads it: RGBA, rows top first, alpha 1.
struct RgbaImage
{
    int width = 0, height = 0;
    std::vector<float> pixels;
};

struct StoredImageInfo
{
    std::string name;
    int width = 0, height = 0;
    std::uint64_t version = 0;   ///< changes with every packet that touches the image
    std::string channelSummary;  ///< e.g. "R G B (of 7 channels)"
};

class TevImageStore
{
public:
    /// `maxFloats`: the floats all images may hold together (the fuzz target uses less).
    explicit TevImageStore(std::int64_t maxFloats = kMaxStoreFloats) : mMaxFloats(maxFloats) {}

    /// Applies one packet from `client` (named in log lines). Throws ProtocolError for one that
    /// breaks a limit; an update of an image that does not exist is ignored with one log line.
    void apply(const Packet& packet, const std::string& client);

    /// The images in the order they arrived.
    std::vector<StoredImageInfo> list() const;
    /// Copies `name` as RGBA into `out` when its version is not `version` (then set to it). False
    /// when unchanged or gone.
    bool copyIfChanged(const std::string& name, std::uint64_t& version, RgbaImage& out) const;
    /// The image a client last asked to show (grabFocus, or the newest), "" when none.
    std::string focusedImage() const;
    /// Counts every change to the list or the focus, so a reader knows when to look again.
    std::uint64_t changeCount() const;
    /// Waits until an image exists (true) or `timeout` passes (false).
    bool waitForImage(std::chrono::milliseconds timeout) const;
    /// Floats held over all images (the soak watches it).
    std::int64_t floatsHeld() const;

private:
    struct Image
    {
        std::string name;
        int width = 0, height = 0;
        std::vector<std::string> channels;
        std::vector<std::vector<float>> planes;
        std::string selector;
        std::string path;  ///< the file of an OpenImage (ReloadImage reads it again)
        std::uint64_t version = 0;
    };

    Image* find(const std::string& name);
    const Image* find(const std::string& name) const;
    void put(Image image, bool grabFocus);
    void loadFile(const std::string& path, const std::string& selector, bool grabFocus, const std::string& client);
    void update(const UpdateImagePacket& tile, const std::string& client);
    void touch(Image& image);

    mutable std::mutex mMutex;
    mutable std::condition_variable mImageArrived;
    std::vector<Image> mImages;
    std::string mFocused;
    std::uint64_t mNextVersion = 1;
    std::uint64_t mChanges = 0;
    std::int64_t mMaxFloats = kMaxStoreFloats;
};

}  // namespace net
