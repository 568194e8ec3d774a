#pragma once
// Finds xiangqi servers on the LAN: asks on the discovery UDP port (proto/discovery.h) and
// collects the replies on its own thread, so the UI only calls refresh() and reads servers().

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "client/net/endpoint.h"
#include "proto/discovery.h"

namespace xq::client {

struct FoundServer {
    std::string name;
    std::string address;  // the reply's sender
    std::uint16_t port = 0;
    std::uint32_t open_games = 0, live_games = 0;
    std::string fingerprint;  // its TLS certificate's (hex SHA-256); "": a --plain server
    Endpoint endpoint() const { return Endpoint{address, port}; }
    friend bool operator==(const FoundServer&, const FoundServer&) = default;
};

class DiscoveryBrowser {
public:
    // Asks on UDP `discovery_port` of each target (broadcast 255.255.255.255 and loopback by default).
    explicit DiscoveryBrowser(std::uint16_t discovery_port = proto::kDiscoveryPort,
                              std::vector<std::string> targets = {"255.255.255.255", "127.0.0.1"});
    ~DiscoveryBrowser();
    DiscoveryBrowser(const DiscoveryBrowser&) = delete;
    DiscoveryBrowser& operator=(const DiscoveryBrowser&) = delete;

    // Non-blocking: sends the request to every target and listens for replies for ~1.5 s. While a
    // search runs, another refresh() does nothing. Servers that do not answer a search are dropped
    // from the list when it ends.
    void refresh();

    // The replies so far (one per address:port, the latest wins), sorted by name then address.
    std::vector<FoundServer> servers() const;
    bool searching() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace xq::client
