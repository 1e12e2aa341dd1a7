// TevTestClient.cpp: the tests' own tev client (TevTestClient.h).
#include "TevTestClient.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>

namespace tev_test {

Packet& Packet::u8(std::uint8_t value)
{
    mBytes.push_back(value);
    return *this;
}

Packet& Packet::i32(std::int32_t value)
{
    std::uint8_t raw[4];
    std::memcpy(raw, &value, 4);  // the tests run on little-endian machines, as the protocol is
    mBytes.insert(mBytes.end(), raw, raw + 4);
    return *this;
}

Packet& Packet::i64(std::int64_t value)
{
    std::uint8_t raw[8];
    std::memcpy(raw, &value, 8);
    mBytes.insert(mBytes.end(), raw, raw + 8);
    return *this;
}

Packet& Packet::f32(float value)
{
    std::uint8_t raw[4];
    std::memcpy(raw, &value, 4);
    mBytes.insert(mBytes.end(), raw, raw + 4);
    return *this;
}

Packet& Packet::str(const std::string& value)
{
    mBytes.insert(mBytes.end(), value.begin(), value.end());
    mBytes.push_back(0);
    return *this;
}

Bytes Packet::finish() const
{
    Bytes bytes = mBytes;
    const std::uint32_t length = std::uint32_t(bytes.size());
    std::memcpy(bytes.data(), &length, 4);
    return bytes;
}

Bytes createImage(const std::string& name,
                  int width,
                  int height,
                  const std::vector<std::string>& channels,
                  bool grabFocus)
{
    Packet p(4);
    p.u8(grabFocus).str(name).i32(width).i32(height).i32(std::int32_t(channels.size()));
    for (const std::string& channel : channels)
        p.str(channel);
    return p.finish();
}

Bytes updateImageV1(const std::string& name,
                    const std::string& channel,
                    int x,
                    int y,
                    int width,
                    int height,
                    std::span<const float> values)
{
    Packet p(3);
    p.u8(0).str(name).str(channel).i32(x).i32(y).i32(width).i32(height);
    for (float v : values)
        p.f32(v);
    return p.finish();
}

Bytes updateImageV2(const std::string& name,
                    const std::vector<std::string>& channels,
                    int x,
                    int y,
                    int width,
                    int height,
                    const std::vector<std::vector<float>>& planes)
{
    Packet p(5);
    p.u8(0).str(name).i32(std::int32_t(channels.size()));
    for (const std::string& channel : channels)
        p.str(channel);
    p.i32(x).i32(y).i32(width).i32(height);
    for (const std::vector<float>& plane : planes)
        for (float v : plane)
            p.f32(v);
    return p.finish();
}

Bytes updateImageV3Interleaved(const std::string& name,
                               const std::vector<std::string>& channels,
                               int x,
                               int y,
                               int width,
                               int height,
                               std::span<const float> interleaved)
{
    Packet p(6);
    p.u8(0).str(name).i32(std::int32_t(channels.size()));
    for (const std::string& channel : channels)
        p.str(channel);
    p.i32(x).i32(y).i32(width).i32(height);
    for (std::size_t c = 0; c < channels.size(); ++c)
        p.i64(std::int64_t(c));
    for (std::size_t c = 0; c < channels.size(); ++c)
        p.i64(std::int64_t(channels.size()));
    for (float v : interleaved)
        p.f32(v);
    return p.finish();
}

Bytes closeImage(const std::string& name)
{
    return Packet(2).str(name).finish();
}

Bytes openImageV2(const std::string& path, const std::string& selector)
{
    return Packet(7).u8(1).str(path).str(selector).finish();
}

Connection::Connection(std::uint16_t port, double retrySeconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(retrySeconds);
    for (;;) {
        mFd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(mFd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
            return;
        ::close(mFd);
        mFd = -1;
        if (std::chrono::steady_clock::now() > deadline)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

Connection::~Connection()
{
    close();
}

void Connection::close()
{
    if (mFd >= 0)
        ::close(mFd);
    mFd = -1;
}

bool Connection::send(std::span<const std::uint8_t> bytes)
{
    std::size_t sent = 0;
    while (mFd >= 0 && sent < bytes.size()) {
        const ssize_t n = ::send(mFd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += std::size_t(n);
    }
    return mFd >= 0;
}

bool Connection::closedByServer(double seconds)
{
    pollfd fd{mFd, POLLIN, 0};
    if (poll(&fd, 1, int(seconds * 1000)) <= 0)
        return false;
    char byte = 0;
    const ssize_t n = recv(mFd, &byte, 1, MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno == ECONNRESET);
}

std::uint16_t freePort()
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

}  // namespace tev_test
