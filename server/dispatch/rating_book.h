#pragma once
// The ratings as the game loop sees them: each account's Glicko-2 rating per speed, read from the
// store once and kept, and the rating of a finished game. The store stays the authority: a game's
// new ratings are written in the transaction that archives it (JournalFinish), and an account
// whose archive commit failed is forgotten here and read again.

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/speed.h"
#include "server/ratings/glicko2.h"
#include "server/rooms/finished_game.h"
#include "server/store/store.h"

namespace xq::server {

// What rating a game did: the rows for the archive and the changes its players are shown.
struct RatedGame {
    std::optional<RatingUpdate> red;
    std::optional<RatingUpdate> black;
    RatingShifts shifts;
};

// A game changes ratings only when it was created rated, both seats are accounts (two different
// ones) and each side made at least this many moves (so an early resignation or a game lost
// on the first-move clock is not rated).
inline constexpr std::size_t kMovesEachToRate = 2;

class RatingBook {
public:
    explicit RatingBook(Store& store) : store_(store) {}

    // The account's rating at `speed` (the starting 1500/350/0.06 if it never played there).
    ratings::Glicko glicko(std::string_view account, timekeeping::Speed speed);
    // The same as shown to players; none for a guest ("").
    std::optional<SeatRating> shown(std::string_view account, timekeeping::Speed speed);
    // The game's rating changes (none for a casual, short or guest's game); the book takes the
    // new ratings at once, so two games of one player ending in the same turn both count.
    RatedGame rate(const FinishedGame& game);
    // The account's archive commit failed: read it from the store again when next needed.
    void forget(std::string_view account);

private:
    // nullopt when the store cannot be read (nothing kept then).
    std::optional<ratings::Glicko> lookup(std::string_view account, timekeeping::Speed speed);
    struct Key {
        std::string account;
        timekeeping::Speed speed;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::string>{}(k.account) ^ static_cast<std::size_t>(k.speed);
        }
    };
    Store& store_;
    std::unordered_map<Key, ratings::Glicko, KeyHash> cache_;
};

SeatRating seat_rating(const ratings::Glicko& g);

}  // namespace xq::server
