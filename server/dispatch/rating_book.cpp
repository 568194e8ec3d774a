#include "server/dispatch/rating_book.h"

#include <cmath>

namespace xq::server {

SeatRating seat_rating(const ratings::Glicko& g) {
    return {static_cast<int>(std::lround(g.rating)), static_cast<int>(std::lround(g.deviation)),
            ratings::is_provisional(g)};
}

std::optional<ratings::Glicko> RatingBook::lookup(std::string_view account, timekeeping::Speed speed) {
    Key key{std::string(account), speed};
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
    auto found = store_.find_rating(account, timekeeping::to_string(speed));
    if (!found) return std::nullopt;  // not kept: read again next time
    const ratings::Glicko g = *found ? (*found)->glicko : ratings::Glicko{};
    cache_.emplace(std::move(key), g);
    return g;
}

ratings::Glicko RatingBook::glicko(std::string_view account, timekeeping::Speed speed) {
    return lookup(account, speed).value_or(ratings::Glicko{});
}

std::optional<SeatRating> RatingBook::shown(std::string_view account, timekeeping::Speed speed) {
    if (account.empty()) return std::nullopt;
    return seat_rating(glicko(account, speed));
}

RatedGame RatingBook::rate(const FinishedGame& game) {
    if (!game.rated || game.red_account.empty() || game.black_account.empty() ||
        game.red_account == game.black_account || game.moves.size() < 2 * kMovesEachToRate)
        return {};
    const timekeeping::Speed speed = timekeeping::speed_of(game.time_control);
    const auto red_before = lookup(game.red_account, speed);
    const auto black_before = lookup(game.black_account, speed);
    if (!red_before || !black_before) return {};  // the store cannot be read: better unrated than rated from a wrong start
    const ratings::Glicko red = *red_before, black = *black_before;
    const double red_score = game.result == Result::RedWins ? 1.0 : game.result == Result::BlackWins ? 0.0 : 0.5;
    const ratings::GlickoPair after = ratings::rate_game(red, black, red_score);
    cache_.insert_or_assign(Key{game.red_account, speed}, after.red);
    cache_.insert_or_assign(Key{game.black_account, speed}, after.black);
    const std::string name(timekeeping::to_string(speed));
    RatedGame out{RatingUpdate{name, red, after.red}, RatingUpdate{name, black, after.black}, {}};
    const auto shift = [](const ratings::Glicko& before, const ratings::Glicko& now) {
        return RatingShift{static_cast<int>(std::lround(before.rating)), static_cast<int>(std::lround(now.rating)),
                           ratings::is_provisional(now)};
    };
    out.shifts = {shift(red, after.red), shift(black, after.black)};
    return out;
}

void RatingBook::forget(std::string_view account) {
    std::erase_if(cache_, [&](const auto& kv) { return kv.first.account == account; });
}

}  // namespace xq::server
