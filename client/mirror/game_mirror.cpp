#include "client/mirror/game_mirror.h"

#include "common/fen.h"
#include "common/iccs.h"
#include "common/movegen.h"

namespace xq::client {

namespace {

// An empty start_fen (proto3's default) is the standard start.
std::expected<Position, std::string> read_start(std::string_view fen) {
    auto start = parse_fen(fen.empty() ? std::string_view(kStartFen) : fen);
    if (!start)
        return std::unexpected("the server's start position is not a FEN: " +
                               start.error().message);
    return *start;
}

std::string move_text(int ply, Move m) {
    return "the server's move " + std::to_string(ply) + " (" + to_iccs(m) + ")";
}

}  // namespace

std::expected<void, std::string> GameMirror::load(const proto::Snapshot& snapshot) {
    auto loaded = load(snapshot.start_fen, snapshot.moves);
    if (loaded) version_ = snapshot.version;
    return loaded;
}

std::expected<void, std::string> GameMirror::load(const proto::ArchivedGame& archived) {
    return load(archived.start_fen, archived.moves);
}

std::expected<void, std::string> GameMirror::load(std::string_view start_fen,
                                                  const std::vector<std::string>& moves) {
    const auto start = read_start(start_fen);
    if (!start) return std::unexpected(start.error());
    GameMirror next;  // built aside, so a record that does not replay changes nothing
    next.restart(*start);
    for (const std::string& text : moves) {
        const auto m = parse_iccs(text);
        if (!m) return std::unexpected("the server's move " + text + " is not a move");
        if (auto played = next.play(next.ply_count() + 1, *m); !played) return played;
    }
    next.version_ = version_;
    *this = std::move(next);
    return {};
}

std::expected<MirrorUpdate, std::string> GameMirror::apply(const proto::RoomEvent& event) {
    const proto::Version version = std::visit([](const auto& e) { return e.version; }, event);
    if (version != 0 && version <= version_) return MirrorUpdate::Stale;
    std::expected<MirrorUpdate, std::string> update = MirrorUpdate::Changed;
    if (const auto* started = std::get_if<proto::GameStarted>(&event)) {
        const auto start = read_start(started->start_fen);
        if (!start) return std::unexpected(start.error());
        restart(*start);
    } else if (const auto* made = std::get_if<proto::MoveMade>(&event)) {
        update = apply_move(*made);
    } else if (const auto* takeback = std::get_if<proto::TakebackApplied>(&event)) {
        if (auto undone = take_back(static_cast<int>(takeback->plies_removed)); !undone)
            return std::unexpected(undone.error());
    }
    if (update && version != 0) version_ = version;
    return update;
}

void GameMirror::restart(const Position& start) {
    has_game_ = true;
    start_ = start;
    moves_.clear();
    position_ = start;
    rules_ = Game(start);
    rules_follow_ = true;
}

std::expected<void, std::string> GameMirror::play(int ply, Move m) {
    if (!is_legal(position_, m)) return std::unexpected(move_text(ply, m) + " is not legal here");
    if (rules_follow_ && !rules_.play(m)) rules_follow_ = false;
    moves_.push_back(m);
    position_.play(m);
    return {};
}

std::expected<MirrorUpdate, std::string> GameMirror::apply_move(const proto::MoveMade& e) {
    const auto m = parse_iccs(e.move);
    if (!m) return std::unexpected("the server's move " + e.move + " is not a move");
    const int ply = static_cast<int>(e.ply);
    if (ply >= 1 && ply <= ply_count()) {
        const Move ours = moves_[static_cast<std::size_t>(ply - 1)];
        if (ours == *m) return MirrorUpdate::Known;
        return std::unexpected(move_text(ply, *m) + " contradicts ours (" + to_iccs(ours) + ")");
    }
    if (ply != ply_count() + 1)
        return std::unexpected("missed moves: got move " + std::to_string(ply) + " after move " +
                               std::to_string(ply_count()));
    if (auto played = play(ply, *m); !played) return std::unexpected(played.error());
    return MirrorUpdate::Changed;
}

std::expected<void, std::string> GameMirror::take_back(int plies) {
    if (plies < 1 || plies > ply_count())
        return std::unexpected("cannot take back " + std::to_string(plies) + " of " +
                               std::to_string(ply_count()) + " moves");
    const std::vector<Move> kept(moves_.begin(), moves_.end() - plies);
    restart(Position(start_));
    for (const Move m : kept) (void)play(ply_count() + 1, m);  // legal: they were played before
    return {};
}

}  // namespace xq::client
