// TevServer.cpp: the listener thread of TevServer.h: accept, receive, cut the stream into packets,
// apply them; drop a client on its first bad packet.
#include "net/TevServer.h"

#include "util/Log.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

namespace net {
namespace {

constexpr std::size_t kReceiveChunk = 256 * 1024;  // per client per poll round: no client starves the others

struct Client
{
    int fd = -1;
    std::string name;                   // "127.0.0.1:54321", for log lines
    std::vector<std::uint8_t> pending;  // bytes of packets not yet whole
};

bool isLoopback(const sockaddr* address)
{
    if (address->sa_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(address);
        return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    }
    if (address->sa_family == AF_INET6) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(address);
        return IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr) != 0;
    }
    return false;
}

std::string describe(const sockaddr_storage& address)
{
    char host[INET6_ADDRSTRLEN] = "?";
    int port = 0;
    if (address.ss_family == AF_INET) {
        const auto* v4 = reinterpret_cast<const sockaddr_in*>(&address);
        inet_ntop(AF_INET, &v4->sin_addr, host, sizeof host);
        port = ntohs(v4->sin_port);
    } else if (address.ss_family == AF_INET6) {
        const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
        inet_ntop(AF_INET6, &v6->sin6_addr, host, sizeof host);
        port = ntohs(v6->sin6_port);
    }
    return util::format("{}:{}", host, port);
}

/// Cuts whole packets off the front of `client.pending` and applies them; throws on a bad one.
void applyWholePackets(Client& client, TevImageStore& store, std::atomic<std::uint64_t>& applied)
{
    std::size_t consumed = 0;
    for (;;) {
        const std::span<const std::uint8_t> rest(client.pending.data() + consumed, client.pending.size() - consumed);
        const std::optional<std::uint32_t> length = declaredPacketLength(rest);
        if (!length || rest.size() < *length)
            break;
        store.apply(parsePacket(rest.first(*length)), client.name);
        ++applied;
        consumed += *length;
    }
    client.pending.erase(client.pending.begin(), client.pending.begin() + std::ptrdiff_t(consumed));
    if (client.pending.empty())
        client.pending.shrink_to_fit();  // an idle client holds nothing
}

}  // namespace

ListenAddress parseListenAddress(const std::string& text)
{
    ListenAddress address;
    if (text.empty())
        return address;
    std::string port = text;
    if (const std::size_t colon = text.find_last_of(':'); colon != std::string::npos) {
        address.host = text.substr(0, colon);
        port = text.substr(colon + 1);
        if (address.host.size() >= 2 && address.host.front() == '[' && address.host.back() == ']')
            address.host = address.host.substr(1, address.host.size() - 2);
        if (address.host.empty() || address.host.size() > 255)
            throw std::invalid_argument("--listen '" + text + "': the host before the ':' is empty or too long");
    }
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(port) > 65535)
        throw std::invalid_argument("--listen '" + text + "': the port must be a number 0..65535 ([HOST:]PORT)");
    address.port = std::uint16_t(std::stoul(port));
    return address;
}

TevServer::TevServer(const ListenAddress& address, TevImageStore& store) : mStore(store), mHost(address.host)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string port = std::to_string(address.port);
    if (int error = getaddrinfo(address.host.c_str(), port.c_str(), &hints, &found); error != 0)
        throw std::runtime_error(
            util::format("--listen {}:{}: cannot resolve the host: {}", address.host, port, gai_strerror(error)));
    std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> owned(found, freeaddrinfo);
    std::string why = "no address";
    for (addrinfo* candidate = found; candidate; candidate = candidate->ai_next) {
        const int fd = socket(candidate->ai_family, candidate->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        const int yes = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (bind(fd, candidate->ai_addr, candidate->ai_addrlen) == 0 && listen(fd, 16) == 0) {
            mListenFd = fd;
            mLoopback = isLoopback(candidate->ai_addr);
            break;
        }
        why = std::strerror(errno);
        close(fd);
    }
    if (mListenFd < 0)
        throw std::runtime_error(util::format("--listen {}:{}: cannot listen: {}", address.host, port, why));
    sockaddr_storage bound{};
    socklen_t boundLength = sizeof bound;
    getsockname(mListenFd, reinterpret_cast<sockaddr*>(&bound), &boundLength);
    mPort = std::uint16_t(bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                                      : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port));
    int wake[2];
    if (pipe2(wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        close(mListenFd);
        throw std::runtime_error(util::format("--listen: cannot create a pipe: {}", std::strerror(errno)));
    }
    mWakeRead = wake[0];
    mWakeWrite = wake[1];
    if (!mLoopback)
        util::logWarning(
            "tev: listening on {}, which other machines may reach: anyone who can connect can send "
            "images and name files to open",
            endpoint());
    mThread = std::thread([this] { run(); });
}

TevServer::~TevServer()
{
    const char stop = 1;
    [[maybe_unused]] ssize_t written = write(mWakeWrite, &stop, 1);
    if (mThread.joinable())
        mThread.join();
    close(mWakeRead);
    close(mWakeWrite);
    close(mListenFd);
}

std::string TevServer::endpoint() const
{
    return mHost.find(':') != std::string::npos ? util::format("[{}]:{}", mHost, mPort)
                                                : util::format("{}:{}", mHost, mPort);
}

void TevServer::run()
{
    std::vector<Client> clients;
    std::vector<std::uint8_t> chunk(kReceiveChunk);
    auto drop = [&](std::size_t index, const std::string& why) {
        if (!why.empty()) {
            util::logWarning("tev: client {} dropped: {}", clients[index].name, why);
            ++mDropped;
        }
        close(clients[index].fd);
        clients.erase(clients.begin() + std::ptrdiff_t(index));
        mClientCount = clients.size();
    };
    for (;;) {
        std::vector<pollfd> fds{{mWakeRead, POLLIN, 0}, {mListenFd, POLLIN, 0}};
        for (const Client& client : clients)
            fds.push_back({client.fd, POLLIN, 0});
        if (poll(fds.data(), nfds_t(fds.size()), -1) < 0) {
            if (errno == EINTR)
                continue;
            util::logError("tev: poll failed ({}); the display server stops", std::strerror(errno));
            break;
        }
        if (fds[0].revents)
            break;  // the destructor
        // Clients first, from the back, so that dropping one keeps the indices of the rest.
        for (std::size_t i = clients.size(); i-- > 0;) {
            if (!fds[i + 2].revents)
                continue;
            const ssize_t received = recv(clients[i].fd, chunk.data(), chunk.size(), 0);
            if (received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                if (!clients[i].pending.empty())
                    util::logInfo("tev: client {} left mid-packet; its {} bytes are dropped", clients[i].name,
                                  clients[i].pending.size());
                drop(i, {});
                continue;
            }
            if (received < 0)
                continue;
            mBytes += std::uint64_t(received);
            Client& client = clients[i];
            client.pending.insert(client.pending.end(), chunk.begin(), chunk.begin() + received);
            try {
                applyWholePackets(client, mStore, mPackets);
            } catch (const std::exception& error) {
                drop(i, error.what());
            }
        }
        if (fds[1].revents & POLLIN) {
            sockaddr_storage peer{};
            socklen_t peerLength = sizeof peer;
            const int fd =
                accept4(mListenFd, reinterpret_cast<sockaddr*>(&peer), &peerLength, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd >= 0 && clients.size() >= kMaxClients) {
                util::logWarning("tev: refused {}: {} clients are connected already", describe(peer), kMaxClients);
                close(fd);
            } else if (fd >= 0) {
                clients.push_back({fd, describe(peer), {}});
                mClientCount = clients.size();
                util::logInfo("tev: client {} connected", clients.back().name);
            }
        }
    }
    for (const Client& client : clients)
        close(client.fd);
    mClientCount = 0;
}

}  // namespace net
