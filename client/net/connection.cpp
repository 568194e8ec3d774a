#include "client/net/connection.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

#include "client/net/asio.h"
#include "proto/codec.h"
#include "proto/frame.h"
#include "tls/context.h"

namespace xq::client {
namespace {

using namespace std::chrono_literals;
using boost::system::error_code;

constexpr auto kConnectTimeout = 5s;  // resolve, connect and receive Welcome
constexpr std::chrono::milliseconds kFirstBackoff = 250ms;
constexpr std::chrono::milliseconds kMaxBackoff = 4s;
constexpr auto kPingInterval = 20s;  // the server closes sessions idle for 2 minutes
// The link's own requests (Hello, Ping) take ids from here, so their replies never collide with
// the ids send() hands out from 1.
constexpr std::uint64_t kInternalIds = std::uint64_t{1} << 63;
constexpr std::string_view kClientSoftware = "xiangqi-sfml/0.1";

// "Connection refused" -> "connection refused", to read well inside a sentence.
std::string lowercase_first(std::string text) {
    if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = static_cast<char>(text[0] - 'A' + 'a');
    return text;
}

// One TCP connection attempt and, once welcomed, the session on it. Handlers hold it by
// shared_ptr and check `dead` first: a link that was lost ignores whatever completes later.
struct Link {
    explicit Link(asio::io_context& io, int attempt_number)
        : resolver(io), socket(io), deadline(io), ping_timer(io), attempt(attempt_number) {}

    tcp::resolver resolver;
    tcp::socket socket;
    std::unique_ptr<tls::ssl::stream<tcp::socket&>> tls;  // null: plain TCP
    std::shared_ptr<tls::PeerRecord> peer = std::make_shared<tls::PeerRecord>();
    asio::steady_timer deadline;  // until Welcome
    asio::steady_timer ping_timer;
    proto::FrameReader reader;
    std::array<char, 4096> buffer{};
    std::deque<std::string> writes;  // the front one is in flight while `writing`
    int attempt = 0;
    bool writing = false;
    bool welcomed = false;
    bool dead = false;
};

}  // namespace

struct Connection::Impl {
    explicit Impl(std::function<void()> wake) : wake_(std::move(wake)) {}

    // ---- any thread ----

    void open(Endpoint endpoint, std::string player_name, std::uint32_t computer_level, std::string computer_key) {
        {
            std::lock_guard lock(mutex_);
            if (opened_ || state_ == LinkState::Closed) return;
            opened_ = true;
            state_ = LinkState::Connecting;
        }
        endpoint_ = std::move(endpoint);
        player_name_ = std::move(player_name);
        computer_level_ = computer_level;
        computer_key_ = std::move(computer_key);
        asio::post(io_, [this] { connect(); });
        try {
            worker_ = std::thread([this] { run(); });
        } catch (const std::system_error& e) {
            give_up(std::string("cannot start the network thread: ") + e.what());
        }
    }

    std::uint64_t send(proto::ClientBody body) {
        std::lock_guard lock(mutex_);
        if (state_ != LinkState::Online || !online_) return 0;
        const std::uint64_t id = next_id_;
        std::string payload = proto::encode(proto::ClientMessage{id, std::move(body)});
        if (payload.size() > proto::kMaxFrameBytes) return 0;  // the server would drop the link
        ++next_id_;
        // Posted under the lock, so requests reach the socket in the order of their ids.
        asio::post(io_, [this, link = online_, bytes = proto::frame(payload)]() mutable {
            if (!link->dead) write(link, std::move(bytes));
        });
        return id;
    }

    std::vector<NetEvent> poll() {
        std::lock_guard lock(mutex_);
        return std::exchange(events_, {});
    }

    LinkState state() const {
        std::lock_guard lock(mutex_);
        return state_;
    }

    void close() {
        bool report = false;
        {
            std::lock_guard lock(mutex_);
            if (state_ == LinkState::Closed) return;
            report = opened_;
            state_ = LinkState::Closed;
            online_.reset();
            if (report) events_.emplace_back(LinkDown{"closed", false, std::nullopt});
        }
        if (report && wake_) wake_();
        asio::post(io_, [this] { shutdown(); });
    }

    void join() {
        if (worker_.joinable()) worker_.join();
    }

    // ---- the worker thread ----

    void run() {
        try {
            io_.run();
        } catch (const std::exception& e) {
            // Handlers do not throw; should one (out of memory), the link ends instead of the program.
            give_up(std::string("network thread failed: ") + e.what());
        } catch (...) {
            give_up("network thread failed");
        }
    }

    void give_up(std::string reason) {
        {
            std::lock_guard lock(mutex_);
            if (state_ == LinkState::Closed) return;
            state_ = LinkState::Closed;
            online_.reset();
            events_.emplace_back(LinkDown{std::move(reason), false, std::nullopt});
        }
        if (wake_) wake_();
    }

    bool closed() const {
        std::lock_guard lock(mutex_);
        return state_ == LinkState::Closed;
    }

    void connect() {
        if (closed()) return;
        auto link = std::make_shared<Link>(io_, attempts_++);
        link_ = link;
        {
            std::lock_guard lock(mutex_);
            if (state_ == LinkState::Closed) return;
            state_ = link->attempt == 0 ? LinkState::Connecting : LinkState::Reconnecting;
        }
        link->deadline.expires_after(kConnectTimeout);
        link->deadline.async_wait([this, link](const error_code& ec) {
            if (ec || link->dead || link->welcomed) return;
            lose(link, "no answer from " + to_string(endpoint_) + " within 5 s");
        });
        link->resolver.async_resolve(
            endpoint_.host, std::to_string(endpoint_.port),
            [this, link](const error_code& ec, const tcp::resolver::results_type& results) {
                if (link->dead) return;
                if (ec) return lose(link, "cannot find " + endpoint_.host + ": " + lowercase_first(ec.message()));
                asio::async_connect(link->socket, results, [this, link](const error_code& connect_ec, const tcp::endpoint&) {
                    if (link->dead) return;
                    if (connect_ec)
                        return lose(link, lowercase_first(connect_ec.message()) + " (" + to_string(endpoint_) + ")");
                    error_code ignored;
                    link->socket.set_option(tcp::no_delay(true), ignored);
                    if (security_.plain) return greet(link);
                    handshake(link);
                });
            });
    }

    void handshake(const std::shared_ptr<Link>& link) {
        if (!tls_context_) tls_context_ = tls::client_context();
        link->tls = std::make_unique<tls::ssl::stream<tcp::socket&>>(link->socket, *tls_context_);
        tls::verify_server(*link->tls, endpoint_.host, link->peer);
        link->tls->async_handshake(tls::ssl::stream_base::client, [this, link](const error_code& ec) {
            if (link->dead) return;
            if (ec)
                return lose(link, "TLS handshake with " + to_string(endpoint_) + " failed: " + lowercase_first(ec.message()) +
                                      " (a server started with --plain needs --plain here too)");
            if (trusted(link)) greet(link);
        });
    }

    // Nothing of ours is sent before the server's certificate is judged (trust.h).
    bool trusted(const std::shared_ptr<Link>& link) {
        const std::string server = to_string(endpoint_);
        const std::string& presented = link->peer->fingerprint;
        auto known_hosts = KnownHosts::load(security_.known_hosts);
        const auto decision = judge(link->peer->chain_ok, presented, known_hosts.find(server), security_);
        switch (decision.verdict) {
            case TrustVerdict::TrustedByCa:
            case TrustVerdict::TrustedPinned: return true;
            case TrustVerdict::TrustedNew:
                if (decision.remember) known_hosts.remember(server, presented);  // unwritable: asked again next time
                return true;
            case TrustVerdict::Unknown:
                end(link,
                    "the certificate of " + server + " is not known (" + tls::verify_error_text(link->peer->error) +
                        "); its fingerprint is " + tls::display_fingerprint(presented),
                    false, TrustProblem{server, presented, {}, false});
                return false;
            case TrustVerdict::Changed:
                end(link, changed_message(server, decision.known, presented), false,
                    TrustProblem{server, presented, decision.known, true});
                return false;
        }
        return false;
    }

    void greet(const std::shared_ptr<Link>& link) {
        const proto::Hello hello{std::string(kClientSoftware), player_name_, proto::kProtocolVersion, computer_level_,
                                 computer_key_};
        write(link, proto::encode_frame(proto::ClientMessage{next_internal_id_++, hello}));
        read(link);
    }

    void read(const std::shared_ptr<Link>& link) {
        auto done = [this, link](const error_code& ec, std::size_t n) {
            if (link->dead) return;
            if (ec == asio::error::eof || ec == tls::ssl::error::stream_truncated)
                return lose(link, "the server closed the connection");
            if (ec) return lose(link, "connection lost: " + lowercase_first(ec.message()));
            auto payloads = link->reader.feed(std::string_view(link->buffer.data(), n));
            if (!payloads) return lose(link, "the server sent a bad frame: " + payloads.error().message);
            for (const std::string& payload : *payloads)
                if (!handle(link, payload)) return;
            read(link);
        };
        if (link->tls) link->tls->async_read_some(asio::buffer(link->buffer), std::move(done));
        else link->socket.async_read_some(asio::buffer(link->buffer), std::move(done));
    }

    // False when the message ended the link.
    bool handle(const std::shared_ptr<Link>& link, const std::string& payload) {
        auto message = proto::decode_server(payload);
        if (!message) {
            switch (message.error().code) {
                case proto::DecodeErrorCode::EmptyOneof:
                case proto::DecodeErrorCode::UnknownKind:
                case proto::DecodeErrorCode::InvalidValue:
                    return true;  // a newer server's addition: the framing is intact, skip it
                default:
                    lose(link, "the server sent an undecodable message: " + message.error().message);
                    return false;
            }
        }
        if (!link->welcomed) return handle_greeting(link, std::move(*message));
        if (const auto* ping = std::get_if<proto::Ping>(&message->body)) {
            // The server times its round trips with this: answer here, on the network thread.
            write(link, proto::encode_frame(proto::ClientMessage{next_internal_id_++, proto::Pong{ping->nonce}}));
            return true;
        }
        if (std::holds_alternative<proto::Welcome>(message->body) || std::holds_alternative<proto::Pong>(message->body) ||
            message->request_id >= kInternalIds)
            return true;
        push(Incoming{std::move(*message)});
        return true;
    }

    bool handle_greeting(const std::shared_ptr<Link>& link, proto::ServerMessage message) {
        if (const auto* welcome = std::get_if<proto::Welcome>(&message.body)) {
            link->welcomed = true;
            link->deadline.cancel();
            backoff_ = kFirstBackoff;
            {
                std::lock_guard lock(mutex_);
                if (state_ == LinkState::Closed) return false;
                state_ = LinkState::Online;
                online_ = link;
                events_.emplace_back(LinkUp{welcome->server, link->attempt, welcome->accounts, welcome->display_name});
            }
            if (wake_) wake_();
            schedule_ping(link);
            return true;
        }
        if (const auto* error = std::get_if<proto::Error>(&message.body)) {
            // A server that does not speak our version will not change its mind on a retry.
            const bool final = error->code == proto::ErrorCode::UnsupportedVersion;
            end(link, final ? error->message : "the server refused us: " + error->message, !final);
            return false;
        }
        return true;  // nothing else is expected before Welcome; ignore it
    }

    void write(const std::shared_ptr<Link>& link, std::string bytes) {
        link->writes.push_back(std::move(bytes));
        if (!link->writing) write_next(link);
    }

    void write_next(const std::shared_ptr<Link>& link) {
        link->writing = true;
        auto done = [this, link](const error_code& ec, std::size_t) {
            if (link->dead) return;
            if (ec) return lose(link, "connection lost: " + lowercase_first(ec.message()));
            link->writes.pop_front();
            link->writing = false;
            if (!link->writes.empty()) write_next(link);
        };
        if (link->tls) asio::async_write(*link->tls, asio::buffer(link->writes.front()), std::move(done));
        else asio::async_write(link->socket, asio::buffer(link->writes.front()), std::move(done));
    }

    void schedule_ping(const std::shared_ptr<Link>& link) {
        link->ping_timer.expires_after(kPingInterval);
        link->ping_timer.async_wait([this, link](const error_code& ec) {
            if (ec || link->dead) return;
            write(link, proto::encode_frame(proto::ClientMessage{next_internal_id_++, proto::Ping{next_nonce_++}}));
            schedule_ping(link);
        });
    }

    void lose(const std::shared_ptr<Link>& link, std::string reason) { end(link, std::move(reason), true); }

    // Ends `link`, reports it, and (retrying) tries again after the backoff.
    void end(const std::shared_ptr<Link>& link, std::string reason, bool retrying,
             std::optional<TrustProblem> trust = std::nullopt) {
        if (link->dead) return;
        stop(*link);
        if (link_ == link) link_.reset();
        {
            std::lock_guard lock(mutex_);
            if (state_ == LinkState::Closed) return;  // close() has reported already
            if (online_ == link) online_.reset();
            state_ = retrying ? LinkState::Reconnecting : LinkState::Closed;
            events_.emplace_back(LinkDown{std::move(reason), retrying, std::move(trust)});
        }
        if (wake_) wake_();
        if (!retrying) {
            work_.reset();
            return;
        }
        retry_timer_.expires_after(backoff_);
        backoff_ = std::min(backoff_ * 2, kMaxBackoff);
        retry_timer_.async_wait([this](const error_code& ec) {
            if (!ec) connect();
        });
    }

    static void stop(Link& link) {
        link.dead = true;
        error_code ignored;
        link.resolver.cancel();
        link.socket.close(ignored);
        link.deadline.cancel();
        link.ping_timer.cancel();
    }

    // After close(): cancel everything so io_.run() returns once the cancelled handlers have run.
    void shutdown() {
        if (link_) stop(*link_);
        link_.reset();
        retry_timer_.cancel();
        work_.reset();
    }

    std::function<void()> wake_;
    asio::io_context io_{1};
    asio::executor_work_guard<asio::io_context::executor_type> work_{io_.get_executor()};
    asio::steady_timer retry_timer_{io_};
    std::thread worker_;

    // Set before the worker starts, then only the worker touches these.
    Endpoint endpoint_;
    std::string player_name_;
    std::uint32_t computer_level_ = 0;
    std::string computer_key_;
    Security security_;
    std::shared_ptr<tls::ssl::context> tls_context_;  // made on the first TLS attempt
    std::shared_ptr<Link> link_;  // the current attempt or session
    int attempts_ = 0;            // connection attempts since open()
    std::chrono::milliseconds backoff_ = kFirstBackoff;
    std::uint64_t next_internal_id_ = kInternalIds;
    std::uint64_t next_nonce_ = 1;

    // Shared with the caller's threads.
    mutable std::mutex mutex_;
    std::vector<NetEvent> events_;
    LinkState state_ = LinkState::Idle;
    std::shared_ptr<Link> online_;  // the welcomed link send() writes to
    std::uint64_t next_id_ = 1;
    bool opened_ = false;

    void push(NetEvent event) {
        {
            std::lock_guard lock(mutex_);
            if (state_ == LinkState::Closed) return;
            events_.push_back(std::move(event));
        }
        if (wake_) wake_();
    }
};

Connection::Connection(std::function<void()> wake) : impl_(std::make_unique<Impl>(std::move(wake))) {}

Connection::~Connection() {
    impl_->close();
    impl_->join();
}

void Connection::open(Endpoint endpoint, std::string player_name, std::uint32_t computer_level,
                      std::string computer_key) {
    impl_->open(std::move(endpoint), std::move(player_name), computer_level, std::move(computer_key));
}

void Connection::set_security(Security security) { impl_->security_ = std::move(security); }

std::uint64_t Connection::send(proto::ClientBody body) { return impl_->send(std::move(body)); }

std::vector<NetEvent> Connection::poll() { return impl_->poll(); }

LinkState Connection::state() const { return impl_->state(); }

void Connection::close() { impl_->close(); }

}  // namespace xq::client
