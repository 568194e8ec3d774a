// The relay run: the same bots against bench/relay, which pairs connections in arrival order and
// forwards frames without reading them. A player sends its move as the very MakeMove frame it
// would send the server; the partner decodes it, plays it, and answers with its own move. Latency
// is one trip through the middle box, as for the server (move sent until its acknowledgement).

#include <optional>

#include "common/iccs.h"
#include "common/movegen.h"
#include "common/position.h"
#include "loadgen.h"
#include "proto/codec.h"
#include "proto/frame.h"

namespace xq::loadgen {
namespace {

struct Pair {
    std::uint64_t id = 0;
    Conn* conn[2] = {nullptr, nullptr};
    Position pos[2] = {Position::start(), Position::start()};
    std::optional<asio::steady_timer> timer[2];
    std::uint32_t ply = 0;
    std::uint64_t rid = 0;
    Clock::time_point sent_at;
    bool dead = false;
};

class RelayDriver final : public Driver {
public:
    explicit RelayDriver(Run& run) : run_(run) {
        for (int i = 0; i < run_.options.games; ++i) {
            auto pair = std::make_unique<Pair>();
            pair->id = static_cast<std::uint64_t>(i + 1);
            for (auto& t : pair->timer) t.emplace(run_.io);
            pairs_.push_back(std::move(pair));
        }
    }

    // One connection at a time: the relay pairs them in the order it accepts them.
    asio::awaitable<std::string> setup() override {
        for (auto& pair : pairs_)
            for (std::size_t side = 0; side < 2; ++side) {
                Pair* p = pair.get();
                p->conn[side] = &conns_.emplace_back(run_.io);
                auto error = co_await p->conn[side]->connect(
                    run_.options.server, [this, p, side](std::string_view bytes) { on_payload(*p, side, bytes); },
                    [this, p](const std::string& why) {
                        run_.stats.error("connection dropped: " + why);
                        p->dead = true;
                    });
                if (!error.empty()) co_return "connect: " + error;
            }
        co_return std::string();
    }

    void start() override {
        for (auto& pair : pairs_) {
            ++run_.stats.games_started;
            schedule(*pair, 0);
        }
    }
    std::size_t started() const override { return pairs_.size(); }
    void stop() override {
        for (auto& pair : pairs_)
            for (auto& t : pair->timer) t->cancel();
    }
    std::string unsettled() const override {
        return run_.outstanding == 0 ? "" : std::to_string(run_.outstanding) + " moves unanswered";
    }
    void finish() override {
        for (auto& conn : conns_) conn.close();
    }

private:
    void schedule(Pair& p, std::size_t side) {
        if (run_.stopping || p.dead) return;
        const int interval = run_.options.move_interval_ms;
        if (interval == 0) return asio::post(run_.io, [this, &p, side] { play(p, side); });
        int delay = interval;
        if (p.ply == 0) delay = std::uniform_int_distribution<int>(0, interval - 1)(run_.random);
        p.timer[side]->expires_after(std::chrono::milliseconds(delay));
        p.timer[side]->async_wait([this, &p, side](const boost::system::error_code& ec) {
            if (!ec) play(p, side);
        });
    }

    void play(Pair& p, std::size_t side) {
        if (run_.stopping || p.dead) return;
        const MoveList moves = legal_moves(p.pos[side]);
        const Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(run_.random)];
        p.pos[side].play(m);
        p.sent_at = Clock::now();
        ++run_.outstanding;
        p.conn[side]->send(proto::encode_frame(proto::ClientMessage{++p.rid, proto::MakeMove{p.id, to_iccs(m), p.rid, p.ply}}));
    }

    void on_payload(Pair& p, std::size_t side, std::string_view bytes) {
        auto message = proto::decode_client(bytes);
        const auto* move = message ? std::get_if<proto::MakeMove>(&message->body) : nullptr;
        if (!move) return run_.stats.error("the relay delivered something other than a move");
        const auto m = parse_iccs(move->move);
        if (!m || move->ply != p.ply) return run_.stats.error("the relay delivered a move out of order");
        run_.sample(p.sent_at);
        --run_.outstanding;
        p.pos[side].play(*m);
        if (!(p.pos[side] == p.pos[1 - side])) ++run_.stats.mismatches;
        ++p.ply;
        // The game ends at the ply cap or when the side to move has no move; a new one starts.
        if (p.ply >= static_cast<std::uint32_t>(run_.options.max_plies) || !has_legal_move(p.pos[side])) {
            ++run_.stats.games_completed;
            if (run_.stopping) return;
            ++run_.stats.games_started;
            p.pos[0] = p.pos[1] = Position::start();
            p.ply = 0;
            return schedule(p, 0);
        }
        schedule(p, side);
    }

    Run& run_;
    std::deque<Conn> conns_;
    std::vector<std::unique_ptr<Pair>> pairs_;
};

}  // namespace

std::unique_ptr<Driver> make_relay_driver(Run& run) { return std::make_unique<RelayDriver>(run); }

}  // namespace xq::loadgen
