#pragma once
// The game as the server reports it: the start position, the moves, the last event version seen.
// Fed Snapshots, archived games and the versioned room events in the order they arrive; whatever
// does not follow (an unreadable or illegal move, a missed one, a takeback of more than was
// played) comes back as an error and leaves the mirror as it was, so the caller can catch up.

#include <expected>
#include <string>
#include <string_view>
#include <vector>

#include "common/game.h"
#include "proto/messages.h"

namespace xq::client {

// What an event did to the mirror.
enum class MirrorUpdate {
    Changed,  // the record or the version moved on
    Known,  // a move the record already holds (an acknowledgement sent again); the version moved on
    Stale,  // a version already seen (an event replayed by Resumed): nothing changed
};

class GameMirror {
public:
    // No game yet: the standard start, no moves, version 0.
    GameMirror() = default;

    // The whole game from scratch; a Snapshot also sets the version, an archived game has none.
    // An empty start FEN is the standard start position.
    std::expected<void, std::string> load(const proto::Snapshot& snapshot);
    std::expected<void, std::string> load(const proto::ArchivedGame& archived);
    // One versioned room event. Versions only go up: an event at or below the last one seen is
    // Stale. A gap in versions is not an error (the server spends versions on notices it sends
    // unversioned); missed moves show as a gap in plies instead.
    std::expected<MirrorUpdate, std::string> apply(const proto::RoomEvent& event);
    // Forget the game: back to the state of a new mirror.
    void clear() { *this = GameMirror(); }

    bool has_game() const { return has_game_; }  // GameStarted or a load since the last clear()
    proto::Version version() const { return version_; }
    const Position& start() const { return start_; }
    const std::vector<Move>& moves() const { return moves_; }
    int ply_count() const { return static_cast<int>(moves_.size()); }
    const Position& position() const { return position_; }
    // The rulings (repetition, the no-capture limit) over the same moves. It stops following if
    // it ends the game before the server does: the server's word stands, the record goes on.
    const Game& rules() const { return rules_; }

private:
    std::expected<void, std::string> load(std::string_view start_fen,
                                          const std::vector<std::string>& moves);
    void restart(const Position& start);
    std::expected<void, std::string> play(int ply, Move m);
    std::expected<MirrorUpdate, std::string> apply_move(const proto::MoveMade& e);
    std::expected<void, std::string> take_back(int plies);

    bool has_game_ = false;
    proto::Version version_ = 0;
    Position start_ = Position::start();
    std::vector<Move> moves_;
    Position position_ = Position::start();
    Game rules_;
    bool rules_follow_ = true;
};

}  // namespace xq::client
