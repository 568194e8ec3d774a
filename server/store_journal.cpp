// The live-game journal: a games row with status 'live', its moves appended in batches (group
// commit), and finishing, which archives the row in the transaction that reads its journal.

#include <unordered_map>

#include "common/iccs.h"
#include "server/store.h"
#include "server/store_detail.h"

namespace xq::server {

using sql::in_context;

namespace {

constexpr std::string_view kJournalColumns = "game_id, ply, iccs, move_id, red_ms, black_ms, at";

JournalMove journal_row(const sql::Query& q) {
    return JournalMove{q.text(0), static_cast<int>(q.int64(1)), q.text(2), q.int64(3), q.int64(4), q.int64(5),
                       q.int64(6)};
}

std::string ply_context(std::string_view what, const JournalMove& m) {
    return std::string(what) + " game " + m.game_id + " ply " + std::to_string(m.ply);
}

}  // namespace

StoreResult<void> Store::begin_live_game(const LiveGameRecord& g) {
    for (auto valid : {detail::check_id(g.id), detail::check_time_control(g.time_control)})
        if (!valid) return std::unexpected(in_context(std::move(valid.error()), "begin live game " + g.id));
    auto done = db_.run(
        "INSERT INTO games (id, status, red_name, black_name, red_token, black_token, base_seconds, "
        "increment_seconds, move_cap_seconds, start_fen, created_at) "
        "VALUES (?, 'live', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        {g.id, g.red_name, g.black_name, g.red_token, g.black_token, g.time_control.base_seconds,
         g.time_control.increment_seconds, g.time_control.move_cap_seconds, g.start_fen, g.created_at_ms});
    if (!done) return std::unexpected(in_context(std::move(done.error()), "begin live game " + g.id));
    return {};
}

StoreResult<void> Store::append_moves(std::span<const JournalMove> moves) {
    if (moves.empty()) return {};
    // Refuse a malformed batch before taking the write lock.
    for (const JournalMove& m : moves) {
        if (m.ply < 1) return std::unexpected(detail::invalid(ply_context("append", m) + ": plies start at 1"));
        if (m.iccs.size() != 4 || !parse_iccs(m.iccs))
            return std::unexpected(detail::invalid(ply_context("append", m) + ": not an ICCS move '" + m.iccs + "'"));
    }
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), "append moves"));
    for (const JournalMove& m : moves) {
        static const std::string kInsert =
            "INSERT INTO moves (" + std::string(kJournalColumns) + ") VALUES (?, ?, ?, ?, ?, ?, ?)";
        auto done = db_.run(kInsert, {m.game_id, std::int64_t{m.ply}, m.iccs, m.move_id, m.red_ms, m.black_ms, m.at_ms});
        // Leaving the scope rolls the whole batch back.
        if (!done) return std::unexpected(in_context(std::move(done.error()), ply_context("append", m)));
    }
    return tx->commit();
}

StoreResult<std::vector<JournalMove>> Store::journal_of(std::string_view id) {
    static const std::string kSelect =
        "SELECT " + std::string(kJournalColumns) + " FROM moves WHERE game_id = ? ORDER BY ply";
    auto q = db_.query(kSelect, {id});
    if (!q) return std::unexpected(std::move(q.error()));
    std::vector<JournalMove> moves;
    while (true) {
        auto row = q->next();
        if (!row) return std::unexpected(std::move(row.error()));
        if (!*row) return moves;
        moves.push_back(journal_row(*q));
    }
}

StoreResult<ArchivedGame> Store::finish_live_game(std::string_view id, const GameEnding& ending) {
    const std::string context = "finish game " + std::string(id);
    if (auto ok = detail::check_finished(ending.result); !ok) return std::unexpected(in_context(ok.error(), context));
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Write);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), context));

    ArchivedGame g;
    {
        auto q = db_.query(
            "SELECT id, red_name, black_name, base_seconds, increment_seconds, move_cap_seconds, start_fen, "
            "created_at FROM games WHERE id = ? AND status = 'live'",
            {id});
        if (!q) return std::unexpected(in_context(std::move(q.error()), context));
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), context));
        if (!*row) return std::unexpected(StoreError{StoreErrorCode::NotFound, "no live game " + std::string(id)});
        g.id = q->text(0);
        g.red_name = q->text(1);
        g.black_name = q->text(2);
        g.time_control = {q->int64(3), q->int64(4), q->int64(5)};
        g.start_fen = q->text(6);
        g.started_at_ms = ending.started_at_ms.value_or(q->int64(7));
    }
    auto journal = journal_of(id);
    if (!journal) return std::unexpected(in_context(std::move(journal.error()), context));
    for (const JournalMove& m : *journal) {
        if (!g.moves.empty()) g.moves += ' ';
        g.moves += m.iccs;
    }
    g.result = ending.result;
    g.reason = ending.reason;
    g.explanation = ending.explanation;
    g.pgn = ending.pgn;
    g.ended_at_ms = ending.ended_at_ms;

    // The same row becomes the archive entry; the resume tokens have no use any more.
    auto done = db_.run(
        "UPDATE games SET status = 'archived', red_token = NULL, black_token = NULL, started_at = ?, "
        "ended_at = ?, result = ?, reason = ?, explanation = ?, moves = ?, ply_count = ?, pgn = ? "
        "WHERE id = ? AND status = 'live'",
        {g.started_at_ms, g.ended_at_ms, to_string(g.result), to_string(g.reason), g.explanation, g.moves,
         static_cast<std::int64_t>(journal->size()), g.pgn, id});
    if (!done) return std::unexpected(in_context(std::move(done.error()), context));
    auto committed = tx->commit();
    if (!committed) return std::unexpected(in_context(std::move(committed.error()), context));
    return g;
}

StoreResult<std::vector<LiveGame>> Store::load_live_games() {
    auto tx = sql::Transaction::begin(db_, sql::Transaction::Kind::Read);
    if (!tx) return std::unexpected(in_context(std::move(tx.error()), "load live games"));

    std::vector<LiveGame> games;
    std::unordered_map<std::string, std::size_t> index;
    {
        auto q = db_.query(
            "SELECT id, red_name, black_name, red_token, black_token, base_seconds, increment_seconds, "
            "move_cap_seconds, start_fen, created_at FROM games WHERE status = 'live' ORDER BY created_at, id");
        if (!q) return std::unexpected(in_context(std::move(q.error()), "load live games"));
        while (true) {
            auto row = q->next();
            if (!row) return std::unexpected(in_context(std::move(row.error()), "load live games"));
            if (!*row) break;
            LiveGameRecord r{q->text(0), q->text(1), q->text(2), q->text(3), q->text(4),
                             {q->int64(5), q->int64(6), q->int64(7)}, q->text(8), q->int64(9)};
            index.emplace(r.id, games.size());
            games.push_back(LiveGame{std::move(r), {}});
        }
    }
    auto q = db_.query("SELECT m.game_id, m.ply, m.iccs, m.move_id, m.red_ms, m.black_ms, m.at FROM moves m "
                       "JOIN games g ON g.id = m.game_id WHERE g.status = 'live' ORDER BY m.game_id, m.ply");
    if (!q) return std::unexpected(in_context(std::move(q.error()), "load live games"));
    while (true) {
        auto row = q->next();
        if (!row) return std::unexpected(in_context(std::move(row.error()), "load live games"));
        if (!*row) break;
        JournalMove m = journal_row(*q);
        const auto game = index.find(m.game_id);
        if (game == index.end()) continue;  // the join only yields live games; kept as a guard
        auto& moves = games[game->second].moves;
        // The insert trigger keeps plies contiguous; a gap here means the file was edited or damaged.
        if (m.ply != static_cast<int>(moves.size()) + 1)
            return std::unexpected(StoreError{StoreErrorCode::Corrupt, ply_context("journal of", m) + " is out of sequence"});
        moves.push_back(std::move(m));
    }
    return games;
}

}  // namespace xq::server
