#include "server/dispatch/turn_journal.h"

#include <chrono>

#include "common/fen.h"
#include "common/iccs.h"
#include "server/log/log.h"

namespace xq::server {
namespace {

std::int64_t seconds(Millis m) { return std::chrono::duration_cast<std::chrono::seconds>(m).count(); }

TimeControlRecord record_of(const TimeControl& tc) {
    return {seconds(tc.base), seconds(tc.increment), tc.move_cap ? seconds(*tc.move_cap) : 0};
}

}  // namespace

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

bool TurnJournal::note(const Room& room, const Events& events, const Lobby& lobby, ParticipantId asker,
                   std::uint64_t request_id) {
    const std::size_t before = records_.size();
    for (const Event& e : events) {
        if (std::holds_alternative<GameStarted>(e.body)) {
            const Seat& red = room.seat(Color::Red);
            const Seat& black = room.seat(Color::Black);
            LiveGameRecord game{room.id(), red.name, black.name, red.token, black.token,
                                record_of(room.time_control()), to_fen(room.game().start()), wall_ms(),
                                red.account, black.account, room.rated(), room.spectator_delay()};
            records_.push_back(JournalStart{std::move(game), lobby.join_code(room.id()).value_or(""), e.version});
        } else if (const auto* move = std::get_if<MoveMade>(&e.body)) {
            JournalMove m{room.id(), move->ply, to_iccs(move->move), static_cast<std::int64_t>(move->move_id),
                          move->clocks.red.count(), move->clocks.black.count(), wall_ms()};
            records_.push_back(JournalAppend{std::move(m), e.version});
        } else if (const auto* takeback = std::get_if<TakebackApplied>(&e.body)) {
            records_.push_back(JournalTakeback{room.id(), takeback->ply_count, e.version});
        } else if (std::holds_alternative<GameAborted>(e.body)) {
            records_.push_back(JournalAbort{room.id()});
        }
    }
    const bool noted = records_.size() > before;
    if (noted && asker != 0) askers_.push_back({room.id(), asker, request_id});
    return noted;
}

void TurnJournal::note_finished(ArchivedGame game) { endings_.push_back(JournalFinish{std::move(game)}); }

TurnJournal::Outcome TurnJournal::commit(Store& store) {
    Outcome out;
    records_.insert(records_.end(), std::make_move_iterator(endings_.begin()), std::make_move_iterator(endings_.end()));
    endings_.clear();
    out.records = records_.size();
    auto done = store.commit_journal(records_);
    if (!done) {
        for (const JournalRecord& r : records_) out.failed.emplace(journal_game_id(r));
    } else {
        for (const JournalFailure& f : *done) {
            out.failed.emplace(journal_game_id(records_[f.index]));
            if (f.error.code == StoreErrorCode::Fenced) out.fenced.emplace(journal_game_id(records_[f.index]));
        }
    }
    for (Asker& a : askers_)
        if (out.failed.contains(a.room)) out.askers.push_back(std::move(a));
    records_.clear();
    askers_.clear();
    return out;
}

void TurnJournal::maintain(Store& store) {
    // A failed step only leaves the log longer; the next turn tries again.
    if (auto compacted = store.maintain(); !compacted)
        log(LogLevel::Warn, "store: housekeeping failed (will retry): ", compacted.error().message);
}

}  // namespace xq::server
