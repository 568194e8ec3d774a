#pragma once
// The client's link to one server. All socket work runs on a worker thread with its own
// io_context; the UI thread only calls send() and drains poll() once per frame, so it never
// blocks. Failures never throw: they arrive as LinkDown events, and a lost link is remade.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "client/net/endpoint.h"
#include "client/net/trust.h"
#include "proto/messages.h"

namespace xq::client {

// Welcome received: after the first connect (attempt 0) and after every reconnect (attempt >= 1:
// how many connection attempts came before this one since open()).
struct LinkUp {
    std::string server_name;
    int attempt = 0;
    proto::AccountsMode accounts = proto::AccountsMode::Optional;  // from Welcome
    std::string display_name = {};  // how the others see this session (a guest's is marked)
};

// The server's certificate could not be trusted without the person: never seen before (changed =
// false: ask, and on yes remember it and connect again), or different from the one remembered
// (changed = true: refused). Fingerprints are lower-case hex SHA-256.
struct TrustProblem {
    std::string server;     // "host:port", the known_hosts key
    std::string presented;  // what the server showed
    std::string known;      // what was remembered or expected (changed)
    bool changed = false;
};

// The link was lost or could not be made. retrying=false when it will not try again: close(), or
// the server refused us for good (UNSUPPORTED_VERSION), or we refused the server (`trust`).
struct LinkDown {
    std::string reason;
    bool retrying = true;
    std::optional<TrustProblem> trust;
};

// Every server message except Welcome and Pong (and replies to the link's own Hello and Ping).
struct Incoming {
    proto::ServerMessage message;
};

using NetEvent = std::variant<LinkUp, LinkDown, Incoming>;

enum class LinkState { Idle, Connecting, Online, Reconnecting, Closed };

class Connection {
public:
    // wake (optional) is called on the worker thread whenever an event is queued (and on the
    // caller's thread by close()), so a UI can wake its loop.
    explicit Connection(std::function<void()> wake = {});
    ~Connection();  // close() and join the worker
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Starts the worker: resolves, connects (5 s to connect, shake hands and be welcomed), checks the
    // server's certificate (Security), sends Hello and, on
    // Welcome, queues LinkUp. Once per Connection; later calls are ignored. `computer_level`: the
    // Hello of a computer opponent (xiangqi-bot), 1-8, with the key its server gave it; 0 for a person.
    void open(Endpoint endpoint, std::string player_name, std::uint32_t computer_level = 0,
              std::string computer_key = {});

    // How the link is secured (TLS and how the server is trusted, or plain TCP); call before open().
    // The default: TLS, a server not known by the trust store or known_hosts stops with a TrustProblem.
    void set_security(Security security);

    // Thread-safe. Sends the request with a fresh request id (1, 2, 3, ...) and returns that id;
    // when not Online returns 0 and sends nothing. Requests go out in the order of their ids.
    std::uint64_t send(proto::ClientBody body);

    // Every event since the last poll, in order (thread-safe).
    std::vector<NetEvent> poll();

    LinkState state() const;

    // Idempotent: stops the link for good and queues LinkDown{"closed", false} (unless the link
    // had already ended for good); no event follows it.
    void close();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace xq::client
