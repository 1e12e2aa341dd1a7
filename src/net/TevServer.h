// TevServer.h: a tev display server: a TCP listener on its own thread that takes packets from any
// number of clients (up to kMaxClients at once) and applies them to a TevImageStore. POSIX sockets,
// non-blocking, one poll() over the listener, the clients and a wake-up pipe; the destructor stops
// and joins the thread and closes every socket.
//
// Safety: it listens on the loopback address unless another is named explicitly (then it warns
// once). A client's bytes are buffered up to one packet (kMaxPacketBytes, grown as the bytes
// arrive, not as declared); a packet that breaks the protocol or a limit drops that client with one
// log line, and nothing else: the other clients, the images and the app go on. A client that goes
// away mid-packet leaves nothing: only whole packets are applied.
#pragma once

#include "net/TevImageStore.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

namespace net {

inline constexpr std::size_t kMaxClients = 16;

struct ListenAddress
{
    std::string host = "127.0.0.1";
    std::uint16_t port = kDefaultTevPort;  ///< 0: any free port (TevServer::port() says which)
};

/// "[HOST:]PORT" ("" the default 127.0.0.1:14158; "[::1]:PORT" for IPv6). Throws
/// std::invalid_argument with one line for anything else.
ListenAddress parseListenAddress(const std::string& text);

class TevServer
{
public:
    /// Binds and listens, then starts the thread. Throws std::runtime_error (one line) when the
    /// address cannot be resolved or bound (e.g. another display server holds the port).
    TevServer(const ListenAddress& address, TevImageStore& store);
    ~TevServer();
    TevServer(const TevServer&) = delete;
    TevServer& operator=(const TevServer&) = delete;

    /// The port listened on (the chosen one for port 0).
    std::uint16_t port() const { return mPort; }
    /// "127.0.0.1:14158"
    std::string endpoint() const;
    bool loopbackOnly() const { return mLoopback; }
    std::size_t clientCount() const { return mClientCount.load(); }
    std::uint64_t droppedClients() const { return mDropped.load(); }
    std::uint64_t packetsApplied() const { return mPackets.load(); }
    std::uint64_t bytesReceived() const { return mBytes.load(); }

private:
    void run();

    TevImageStore& mStore;
    std::string mHost;
    std::uint16_t mPort = 0;
    bool mLoopback = true;
    int mListenFd = -1;
    int mWakeRead = -1, mWakeWrite = -1;
    std::atomic<std::size_t> mClientCount{0};
    std::atomic<std::uint64_t> mDropped{0};
    std::atomic<std::uint64_t> mPackets{0};
    std::atomic<std::uint64_t> mBytes{0};
    std::thread mThread;
};

}  // namespace net
