// TevProtocol.cpp: the packet reader and writer of TevProtocol.h. Every read checks the bytes left
// first; sizes are multiplied in 64 bits after each factor is bounded, so nothing overflows.
#include "net/TevProtocol.h"

#include "util/Log.h"

#include <algorithm>
#include <cstring>

namespace net {
namespace {

class Reader
{
public:
    Reader(std::span<const std::uint8_t> bytes, PacketType type) : mBytes(bytes), mType(type) {}

    std::size_t remaining() const { return mBytes.size() - mAt; }

    bool boolean(const char* what) { return byte(what) != 0; }

    std::int32_t int32(const char* what) { return std::int32_t(little<std::uint32_t>(what)); }
    std::int64_t int64(const char* what) { return std::int64_t(little<std::uint64_t>(what)); }

    std::string string(const char* what)
    {
        const std::uint8_t* start = mBytes.data() + mAt;
        const std::size_t limit = std::min(remaining(), kMaxNameBytes + 1);
        const void* nul = std::memchr(start, 0, limit);
        if (!nul) {
            if (limit == kMaxNameBytes + 1)
                fail(util::format("{} is longer than {} bytes", what, kMaxNameBytes));
            fail(util::format("{} has no terminating NUL before the packet ends", what));
        }
        const std::size_t length = std::size_t(static_cast<const std::uint8_t*>(nul) - start);
        std::string value(reinterpret_cast<const char*>(start), length);
        mAt += length + 1;
        return value;
    }

    /// `count` floats at `offset` floats from here; the caller has bounded count * 4 by remaining().
    float floatAt(std::size_t index) const
    {
        float value = 0.0f;
        std::memcpy(&value, mBytes.data() + mAt + index * sizeof(float), sizeof(float));
        return value;
    }

    [[noreturn]] void fail(const std::string& why) const
    {
        throw ProtocolError(util::format("{} packet: {}", packetTypeName(mType), why));
    }

private:
    std::uint8_t byte(const char* what)
    {
        need(1, what);
        return mBytes[mAt++];
    }

    template <typename T>
    T little(const char* what)
    {
        need(sizeof(T), what);
        T value = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i)
            value |= T(mBytes[mAt + i]) << (8 * i);
        mAt += sizeof(T);
        return value;
    }

    void need(std::size_t bytes, const char* what) const
    {
        if (remaining() < bytes)
            fail(util::format("ends before its {}", what));
    }

    std::span<const std::uint8_t> mBytes;
    PacketType mType;
    std::size_t mAt = 0;
};

int channelCount(Reader& in)
{
    const std::int32_t count = in.int32("channel count");
    if (count < 1 || count > kMaxChannels)
        in.fail(util::format("channel count {} is outside 1..{}", count, kMaxChannels));
    return count;
}

std::vector<std::string> channelNames(Reader& in, int count)
{
    std::vector<std::string> names;
    for (int i = 0; i < count; ++i)
        names.push_back(in.string("channel name"));
    return names;
}

void checkSize(Reader& in, std::int64_t width, std::int64_t height, const char* what)
{
    if (width < 0 || height < 0 || width > kMaxImageSide || height > kMaxImageSide || width * height > kMaxImagePixels)
        in.fail(util::format("{} of {} x {} is outside 0..{} on a side and {} pixels", what, width, height,
                             kMaxImageSide, kMaxImagePixels));
}

OpenImagePacket readOpenImage(Reader& in, bool v2)
{
    OpenImagePacket p;
    p.grabFocus = in.boolean("grab-focus flag");
    p.path = in.string("image path");
    if (v2) {
        p.channelSelector = in.string("channel selector");
        return p;
    }
    // The first version carries "path:selector"; a colon after a Windows drive letter is the path's.
    const std::size_t colon = p.path.find_last_of(':');
    const bool driveLetter = colon == 1 && p.path.size() >= 3 && (p.path[2] == '/' || p.path[2] == '\\');
    if (colon != std::string::npos && !driveLetter) {
        p.channelSelector = p.path.substr(colon + 1);
        p.path.resize(colon);
    }
    return p;
}

CreateImagePacket readCreateImage(Reader& in)
{
    CreateImagePacket p;
    p.grabFocus = in.boolean("grab-focus flag");
    p.name = in.string("image name");
    p.width = in.int32("width");
    p.height = in.int32("height");
    checkSize(in, p.width, p.height, "an image");
    if (p.width == 0 || p.height == 0)
        in.fail("an image of 0 pixels");
    p.channels = channelNames(in, channelCount(in));
    return p;
}

UpdateImagePacket readUpdateImage(Reader& in, PacketType type)
{
    UpdateImagePacket p;
    p.grabFocus = in.boolean("grab-focus flag");
    p.name = in.string("image name");
    const int count = type == PacketType::UpdateImage ? 1 : channelCount(in);
    p.channels = channelNames(in, count);
    p.x = in.int32("x");
    p.y = in.int32("y");
    p.width = in.int32("width");
    p.height = in.int32("height");
    if (p.x < 0 || p.y < 0 || p.x >= kMaxImageSide || p.y >= kMaxImageSide)
        in.fail(util::format("tile origin {},{} is outside 0..{}", p.x, p.y, kMaxImageSide - 1));
    checkSize(in, p.width, p.height, "a tile");
    const std::int64_t pixels = std::int64_t(p.width) * p.height;
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(count), 0);
    std::vector<std::int64_t> strides(static_cast<std::size_t>(count), 1);
    if (type == PacketType::UpdateImageV3) {
        for (std::int64_t& offset : offsets)
            offset = in.int64("channel offset");
        for (std::int64_t& stride : strides)
            stride = in.int64("channel stride");
    } else {
        for (int c = 0; c < count; ++c)
            offsets[std::size_t(c)] = pixels * c;
    }
    // Floats in the packet: offsets and strides are bounded by them before any product is formed.
    const std::int64_t available = std::int64_t(in.remaining() / sizeof(float));
    for (int c = 0; c < count; ++c) {
        const std::int64_t offset = offsets[std::size_t(c)], stride = strides[std::size_t(c)];
        if (offset < 0 || stride < 0 || offset > available || stride > available)
            in.fail(util::format("channel {} has offset {} and stride {} outside the packet's {} floats", c, offset,
                                 stride, available));
        if (pixels > 0 && offset + (pixels - 1) * stride >= available)
            in.fail(util::format("channel {} needs {} floats; the packet holds {}", c,
                                 offset + (pixels - 1) * stride + 1, available));
    }
    p.planes.resize(std::size_t(count));
    for (int c = 0; c < count; ++c) {
        std::vector<float>& plane = p.planes[std::size_t(c)];
        plane.resize(std::size_t(pixels));
        const std::size_t offset = std::size_t(offsets[std::size_t(c)]), stride = std::size_t(strides[std::size_t(c)]);
        for (std::size_t i = 0; i < plane.size(); ++i)
            plane[i] = in.floatAt(offset + i * stride);
    }
    return p;
}

}  // namespace

const char* packetTypeName(PacketType type)
{
    switch (type) {
        case PacketType::OpenImage:
            return "OpenImage";
        case PacketType::ReloadImage:
            return "ReloadImage";
        case PacketType::CloseImage:
            return "CloseImage";
        case PacketType::UpdateImage:
            return "UpdateImage";
        case PacketType::CreateImage:
            return "CreateImage";
        case PacketType::UpdateImageV2:
            return "UpdateImageV2";
        case PacketType::UpdateImageV3:
            return "UpdateImageV3";
        case PacketType::OpenImageV2:
            return "OpenImageV2";
        case PacketType::VectorGraphics:
            return "VectorGraphics";
    }
    return "unknown";
}

std::optional<std::uint32_t> declaredPacketLength(std::span<const std::uint8_t> streamStart)
{
    if (streamStart.size() < 4)
        return std::nullopt;
    const std::uint32_t length = std::uint32_t(streamStart[0]) | std::uint32_t(streamStart[1]) << 8 |
                                 std::uint32_t(streamStart[2]) << 16 | std::uint32_t(streamStart[3]) << 24;
    if (length < kMinPacketBytes || length > kMaxPacketBytes)
        throw ProtocolError(
            util::format("a packet declares {} bytes, outside {}..{}", length, kMinPacketBytes, kMaxPacketBytes));
    return length;
}

Packet parsePacket(std::span<const std::uint8_t> packet)
{
    const std::optional<std::uint32_t> length = declaredPacketLength(packet);
    if (!length || *length != packet.size())
        throw ProtocolError(util::format("a packet of {} bytes declares {}", packet.size(),
                                         length ? std::to_string(*length) : std::string("no length")));
    const std::uint8_t typeByte = packet[4];
    if (typeByte > std::uint8_t(PacketType::VectorGraphics))
        throw ProtocolError(util::format("unknown packet type {}", int(typeByte)));
    const PacketType type = PacketType(typeByte);
    Reader in(packet.subspan(5), type);
    switch (type) {
        case PacketType::OpenImage:
        case PacketType::OpenImageV2:
            return readOpenImage(in, type == PacketType::OpenImageV2);
        case PacketType::ReloadImage: {
            ReloadImagePacket p;
            p.grabFocus = in.boolean("grab-focus flag");
            p.name = in.string("image name");
            return p;
        }
        case PacketType::CloseImage:
            return CloseImagePacket{in.string("image name")};
        case PacketType::CreateImage:
            return readCreateImage(in);
        case PacketType::UpdateImage:
        case PacketType::UpdateImageV2:
        case PacketType::UpdateImageV3:
            return readUpdateImage(in, type);
        case PacketType::VectorGraphics: {
            in.boolean("grab-focus flag");
            return VectorGraphicsPacket{in.string("image name")};
        }
    }
    throw ProtocolError("unreachable packet type");
}

PacketWriter::PacketWriter(PacketType type) : mBytes{0, 0, 0, 0, std::uint8_t(type)}
{
}

PacketWriter& PacketWriter::boolean(bool value)
{
    mBytes.push_back(value ? 1 : 0);
    return *this;
}

PacketWriter& PacketWriter::int32(std::int32_t value)
{
    for (int i = 0; i < 4; ++i)
        mBytes.push_back(std::uint8_t(std::uint32_t(value) >> (8 * i)));
    return *this;
}

PacketWriter& PacketWriter::int64(std::int64_t value)
{
    for (int i = 0; i < 8; ++i)
        mBytes.push_back(std::uint8_t(std::uint64_t(value) >> (8 * i)));
    return *this;
}

PacketWriter& PacketWriter::float32(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return int32(std::int32_t(bits));
}

PacketWriter& PacketWriter::string(const std::string& value)
{
    mBytes.insert(mBytes.end(), value.begin(), value.end());
    mBytes.push_back(0);
    return *this;
}

PacketWriter& PacketWriter::floats(std::span<const float> values)
{
    for (float value : values)
        float32(value);
    return *this;
}

std::vector<std::uint8_t> PacketWriter::finish() const
{
    std::vector<std::uint8_t> bytes = mBytes;
    const std::uint32_t length = std::uint32_t(bytes.size());
    for (int i = 0; i < 4; ++i)
        bytes[std::size_t(i)] = std::uint8_t(length >> (8 * i));
    return bytes;
}

}  // namespace net
