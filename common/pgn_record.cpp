#include "pgn_record.h"

#include <cstdio>

namespace xq {
namespace {

// Seconds, with a decimal fraction only when needed ("0.5").
std::string seconds_text(std::chrono::milliseconds d) {
    const auto ms = d.count();
    std::string text = std::to_string(ms / 1000);
    if (const auto frac = ms % 1000; frac != 0) {
        std::string digits = std::to_string(1000 + frac).substr(1);
        while (digits.back() == '0') digits.pop_back();
        text += "." + digits;
    }
    return text;
}

}  // namespace

std::string pgn_date(std::chrono::sys_days day) {
    const std::chrono::year_month_day ymd{day};
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d.%02u.%02u", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
    return buf;
}

std::string_view pgn_result(Result r) {
    switch (r) {
        case Result::RedWins:
            return "1-0";
        case Result::BlackWins:
            return "0-1";
        case Result::Draw:
            return "1/2-1/2";
        case Result::Ongoing:
            break;
    }
    return "*";
}

std::string pgn_time_control(std::chrono::milliseconds base, std::chrono::milliseconds increment,
                             std::optional<std::chrono::milliseconds> move_cap) {
    std::string text = seconds_text(base) + "+" + seconds_text(increment);
    if (move_cap) text += "/" + seconds_text(*move_cap);
    return text;
}

PgnGame game_record(const Position& start, std::span<const Move> moves, const GameRecordTags& tags) {
    PgnGame pgn;
    pgn.set_tag("Event", tags.event);
    if (!tags.site.empty()) pgn.set_tag("Site", tags.site);
    pgn.set_tag("Date", pgn_date(tags.date));
    pgn.set_tag("Red", tags.red);
    pgn.set_tag("Black", tags.black);
    if (!tags.red_account.empty()) pgn.set_tag("RedAccount", tags.red_account);
    if (!tags.black_account.empty()) pgn.set_tag("BlackAccount", tags.black_account);
    if (!tags.time_control.empty()) pgn.set_tag("TimeControl", tags.time_control);
    if (!tags.termination.empty()) pgn.set_tag("Termination", tags.termination);
    pgn.start = start;
    pgn.moves.assign(moves.begin(), moves.end());
    pgn.result = pgn_result(tags.result);
    if (!tags.explanation.empty()) {
        pgn.comments.assign(pgn.moves.size(), "");
        if (pgn.moves.empty())
            pgn.opening_comment = tags.explanation;
        else
            pgn.comments.back() = tags.explanation;
    }
    return pgn;
}

}  // namespace xq
