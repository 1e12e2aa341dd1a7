// TevTestClient.h: a tev protocol client written for the tests from the protocol's description
// (not from hdrlab's own PacketWriter, so that a mistake shared by the parser and its writer would
// still show): packet builders for every type and a blocking TCP connection to a display server.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tev_test {

using Bytes = std::vector<std::uint8_t>;

/// Field-by-field packet bytes; finish() writes the leading length.
class Packet
{
public:
    explicit Packet(std::uint8_t type) : mBytes{0, 0, 0, 0, type} {}
    Packet& u8(std::uint8_t value);
    Packet& i32(std::int32_t value);
    Packet& i64(std::int64_t value);
    Packet& f32(float value);
    Packet& str(const std::string& value);
    Bytes finish() const;

private:
    Bytes mBytes;
};

Bytes createImage(const std::string& name,
                  int width,
                  int height,
                  const std::vector<std::string>& channels,
                  bool grabFocus = true);
/// UpdateImage (type 3): one channel, `values` width * height, rows top first.
Bytes updateImageV1(const std::string& name,
                    const std::string& channel,
                    int x,
                    int y,
                    int width,
                    int height,
                    std::span<const float> values);
/// UpdateImageV2 (type 5): `planes` one per channel, each width * height.
Bytes updateImageV2(const std::string& name,
                    const std::vector<std::string>& channels,
                    int x,
                    int y,
                    int width,
                    int height,
                    const std::vector<std::vector<float>>& planes);
/// UpdateImageV3 (type 6): interleaved data, channel c at offset c and stride channels.size().
Bytes updateImageV3Interleaved(const std::string& name,
                               const std::vector<std::string>& channels,
                               int x,
                               int y,
                               int width,
                               int height,
                               std::span<const float> interleaved);
Bytes closeImage(const std::string& name);
Bytes openImageV2(const std::string& path, const std::string& selector);

/// A blocking TCP connection to 127.0.0.1:port (retries for up to `retrySeconds` while refused).
class Connection
{
public:
    explicit Connection(std::uint16_t port, double retrySeconds = 10.0);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    bool connected() const { return mFd >= 0; }
    /// Sends every byte; false once the server has closed the connection.
    bool send(std::span<const std::uint8_t> bytes);
    /// True once the server has closed the connection (waits up to `seconds` for it).
    bool closedByServer(double seconds);
    void close();

private:
    int mFd = -1;
};

/// A port that was free a moment ago (bind to 0, read it, close).
std::uint16_t freePort();

}  // namespace tev_test
