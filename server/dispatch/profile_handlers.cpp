// Rated play beyond the game itself: the rule that rated games need accounts, the computer
// opponents' accounts, profiles (ratings per speed with their history, results) and the
// leaderboard. The ratings themselves are kept by the RatingBook and written by the archive.

#include <array>
#include <chrono>
#include <cmath>

#include "common/speed.h"
#include "server/accounts/names.h"
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"
#include "server/log/log.h"

namespace xq::server {

using PE = proto::ErrorCode;

namespace {

// A leaderboard lists this many, each with at least DispatchConfig::leaderboard_min_games rated
// games at the speed and a rating that is not provisional.
constexpr std::int64_t kLeaderboardSize = 100;
// A profile's plot: the newest points at each speed.
constexpr std::int64_t kHistoryPoints = 500;

constexpr std::array kSpeeds = {timekeeping::Speed::Bullet, timekeeping::Speed::Blitz, timekeeping::Speed::Rapid,
                                timekeeping::Speed::Classical};

timekeeping::Speed speed_of(proto::Speed s) { return kSpeeds[static_cast<std::size_t>(s)]; }

proto::PlayerRating player_rating(const ratings::Glicko& g) {
    const SeatRating r = seat_rating(g);
    return {r.rating, r.deviation, r.provisional};
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

bool Dispatcher::refuse_rated_guest(Client& c, std::uint64_t rid, bool rated) {
    if (!rated || !c.account.empty()) return false;
    send(c, wire::error(rid, PE::AccountRequired, "rated games are for accounts: register or log in, or play casual"));
    return true;
}

void Dispatcher::use_computer_account(Client& c) {
    if (config_.accounts == proto::AccountsMode::Off) return;
    const std::string key = computer_account_key(c.computer_level);
    auto found = store_.find_account(key);
    if (!found) return log(LogLevel::Error, "accounts: cannot read computer account ", key);
    // No password hash: no password verifies against it, and the key is outside the name rule.
    if (!*found)
        if (auto made = store_.create_account({key, key, "", now_ms(), true}); !made)
            return log(LogLevel::Error, "accounts: cannot create computer account ", key, ": ", made.error().message);
    c.account = key;
}

std::optional<std::string> Dispatcher::archive_account(std::string_view name) {
    std::string key = is_computer_account(name) ? std::string(name) : key_if_valid(name);
    if (key.empty()) return std::nullopt;
    auto found = store_.find_account(key);
    if (!found || !*found) return std::nullopt;
    return key;
}

void Dispatcher::on_get_profile(Client& c, std::uint64_t rid, const proto::GetProfile& m) {
    const std::optional<std::string> key = archive_account(m.name);
    auto account = key ? store_.find_account(*key) : StoreResult<std::optional<AccountRecord>>{std::nullopt};
    if (!account) return send(c, wire::error(rid, PE::Internal, "profiles are unavailable"));
    if (!*account) return send(c, wire::error(rid, PE::NoSuchAccount, "no account is named '" + m.name + "'"));
    flush_archive();  // a game that just ended counts
    const AccountRecord& a = **account;
    proto::Profile out;
    out.name = a.name;
    out.computer = a.computer;
    out.created_at_ms = a.created_at_ms;
    auto rated = store_.ratings_of(a.key);
    auto results = store_.results_of(a.key);
    if (!rated || !results) return send(c, wire::error(rid, PE::Internal, "profiles are unavailable"));
    for (std::size_t i = 0; i < kSpeeds.size(); ++i) {
        const std::string_view speed = timekeeping::to_string(kSpeeds[i]);
        proto::SpeedRecord record{static_cast<proto::Speed>(i), player_rating(ratings::Glicko{}), 0, {}};
        for (const RatingRecord& r : *rated)
            if (r.speed == speed) {
                record.rating = player_rating(r.glicko);
                record.games = static_cast<std::uint32_t>(r.games);
            }
        if (record.games > 0) {
            auto history = store_.rating_history(a.key, speed, kHistoryPoints);
            if (!history) return send(c, wire::error(rid, PE::Internal, "profiles are unavailable"));
            for (const RatingPointRecord& p : *history)
                record.history.push_back({p.at_ms, static_cast<std::int32_t>(std::lround(p.rating)),
                                          static_cast<std::int32_t>(std::lround(p.deviation)), wire::game_id(p.game_id)});
        }
        out.speeds.push_back(std::move(record));
    }
    out.wins = static_cast<std::uint32_t>(results->wins);
    out.draws = static_cast<std::uint32_t>(results->draws);
    out.losses = static_cast<std::uint32_t>(results->losses);
    send(c, {rid, std::move(out)});
}

void Dispatcher::on_get_leaderboard(Client& c, std::uint64_t rid, const proto::GetLeaderboard& m) {
    if (static_cast<std::size_t>(m.speed) >= kSpeeds.size())
        return send(c, wire::error(rid, PE::BadRequest, "no such speed"));
    flush_archive();
    const auto min_games = static_cast<std::int64_t>(config_.leaderboard_min_games);
    auto rows = store_.leaderboard(timekeeping::to_string(speed_of(m.speed)), min_games,
                                   ratings::kProvisionalDeviation, kLeaderboardSize);
    if (!rows) return send(c, wire::error(rid, PE::Internal, "the leaderboard is unavailable"));
    proto::Leaderboard out{m.speed, {}, config_.leaderboard_min_games};
    for (const LeaderRecord& r : *rows)
        out.rows.push_back({static_cast<std::uint32_t>(out.rows.size() + 1), r.name, player_rating(r.glicko),
                            static_cast<std::uint32_t>(r.games), r.computer});
    send(c, {rid, std::move(out)});
}

}  // namespace xq::server
