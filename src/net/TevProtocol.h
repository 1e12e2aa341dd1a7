// TevProtocol.h: the wire format of tev's display-server protocol (the IPC of the tev image viewer,
// spoken by pbrt-v4's --display-server, Mitsuba, SeeSharp and others), read as a pure function over
// bytes: no socket, no GL, no global state, so that it is unit-tested and fuzzed on its own.
//
// A packet, little-endian: uint32 total length (these 4 bytes included), uint8 type, then fields:
// bool = 1 byte, int32/int64, float32, string = bytes up to a NUL. Per type:
//   0 OpenImage      bool grabFocus, string "path[:channelSelector]"
//   7 OpenImageV2    bool grabFocus, string path, string channelSelector
//   1 ReloadImage    bool grabFocus, string name
//   2 CloseImage     string name
//   4 CreateImage    bool grabFocus, string name, int32 width, height, channelCount, channelCount strings
//   3 UpdateImage    bool grabFocus, string name, string channel, int32 x, y, w, h, w*h floats
//   5 UpdateImageV2  bool grabFocus, string name, int32 channelCount, names, int32 x, y, w, h, then one
//                    plane of w*h floats per channel
//   6 UpdateImageV3  as V2, then int64 offsets[channelCount], int64 strides[channelCount]; channel c of
//                    pixel p is data[offset_c + p * stride_c]
//   8 VectorGraphics bool grabFocus, string name, then drawing commands hdrlab does not draw
// Every length is bounded before anything is allocated (the limits below); anything else is refused
// with a ProtocolError of one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace net {

inline constexpr std::uint16_t kDefaultTevPort = 14158;
/// A packet's declared length, header included: at most 64 MiB (a 2048 x 2048 tile of 4 channels).
inline constexpr std::uint32_t kMaxPacketBytes = 64u << 20;
/// A packet is at least its length and its type.
inline constexpr std::uint32_t kMinPacketBytes = 5;
/// An image name, a channel name, a path or a channel selector: at most 4096 bytes before the NUL.
inline constexpr std::size_t kMaxNameBytes = 4096;
/// Channels of one image (CreateImage) or one update.
inline constexpr int kMaxChannels = 32;
/// An image's side, and its pixel count (8192 x 4096).
inline constexpr int kMaxImageSide = 16384;
inline constexpr std::int64_t kMaxImagePixels = std::int64_t(1) << 25;

/// A packet that breaks the protocol or a limit; what() is one line.
class ProtocolError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

enum class PacketType : std::uint8_t {
    OpenImage = 0,
    ReloadImage = 1,
    CloseImage = 2,
    UpdateImage = 3,
    CreateImage = 4,
    UpdateImageV2 = 5,
    UpdateImageV3 = 6,
    OpenImageV2 = 7,
    VectorGraphics = 8,
};

const char* packetTypeName(PacketType type);

struct OpenImagePacket
{
    bool grabFocus = false;
    std::string path;
    std::string channelSelector;  ///< a layer or channel prefix; empty: tev's default choice
};
struct ReloadImagePacket
{
    bool grabFocus = false;
    std::string name;
};
struct CloseImagePacket
{
    std::string name;
};
struct CreateImagePacket
{
    bool grabFocus = false;
    std::string name;
    int width = 0, height = 0;
    std::vector<std::string> channels;
};
/// A tile of one or more channels, each plane width * height floats, rows top first.
struct UpdateImagePacket
{
    bool grabFocus = false;
    std::string name;
    int x = 0, y = 0, width = 0, height = 0;
    std::vector<std::string> channels;
    std::vector<std::vector<float>> planes;  ///< one per channel
};
struct VectorGraphicsPacket
{
    std::string name;
};

using Packet = std::variant<OpenImagePacket,
                            ReloadImagePacket,
                            CloseImagePacket,
                            CreateImagePacket,
                            UpdateImagePacket,
                            VectorGraphicsPacket>;

/// The total length a stream's next packet declares, once its first 4 bytes are there (nullopt
/// before). Throws ProtocolError for a length below kMinPacketBytes or above kMaxPacketBytes.
std::optional<std::uint32_t> declaredPacketLength(std::span<const std::uint8_t> streamStart);

/// One whole packet (its length field included) to its fields. Throws ProtocolError.
Packet parsePacket(std::span<const std::uint8_t> packet);

/// Writes packets as a client does (tests, the fuzz seeds, examples): the same layout, little-endian.
class PacketWriter
{
public:
    explicit PacketWriter(PacketType type);
    PacketWriter& boolean(bool value);
    PacketWriter& int32(std::int32_t value);
    PacketWriter& int64(std::int64_t value);
    PacketWriter& float32(float value);
    PacketWriter& string(const std::string& value);
    PacketWriter& floats(std::span<const float> values);
    /// The packet with its length field filled in.
    std::vector<std::uint8_t> finish() const;

private:
    std::vector<std::uint8_t> mBytes;
};

}  // namespace net
