// What the lobby and the archive list: ListGames (this node's games, then other nodes' in a
// cluster), ListArchive and GetArchived.
#include "proto/codec.h"
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"

namespace xq::server {
namespace {

using PE = proto::ErrorCode;

constexpr std::uint32_t kArchivePage = 50;
// Old clients page by offset; SQLite reads every row it skips (~15 us each), on the game loop, so
// an offset is served only this far; past it, page with ListArchive.after.
constexpr std::uint32_t kMaxArchiveOffset = 200;
// Per list in a GameList, so that one always fits in a frame (a summary is at most ~140 bytes).
constexpr std::size_t kListedGames = 150;

}  // namespace

void Dispatcher::on_list(Client& c, std::uint64_t rid) {
    proto::GameList list;
    const ParticipantId who = c.peer->id();
    // At most kListedGames of each kind, and only while the reply fits one frame (live games carry
    // their positions): open games first, as those are the ones to join.
    std::size_t bytes = proto::kGameListEnvelopeBytes;
    const auto add = [&bytes](std::vector<proto::GameSummary>& to, proto::GameSummary s) {
        if (to.size() >= kListedGames || (bytes += proto::encoded_size_in_list(s)) > proto::kMaxFrameBytes) return false;
        to.push_back(std::move(s));
        return true;
    };
    // In a cluster, other nodes' games follow ours (router.h).
    const std::vector<proto::GameSummary> remote = router_ ? router_->remote_games() : std::vector<proto::GameSummary>{};
    for (const auto& g : lobby_.open_games(who))
        if (!add(list.open, wire::summary(g))) break;
    for (const auto& s : remote)
        if (s.status == proto::GameStatus::Waiting && !add(list.open, s)) break;
    for (const auto& g : lobby_.live_games(who, now()))
        if (!add(list.live, wire::summary(g))) break;
    for (const auto& s : remote)
        if (s.status == proto::GameStatus::Playing && !add(list.live, s)) break;
    send(c, {rid, std::move(list)});
}

void Dispatcher::on_list_archive(Client& c, std::uint64_t rid, const proto::ListArchive& m) {
    std::optional<ArchiveKey> after;
    if (!m.after.empty() && !(after = wire::parse_archive_key(m.after)))
        return send(c, wire::error(rid, PE::BadRequest, "ListArchive.after is not a key the server gave (ArchiveList.next)"));
    const std::uint32_t offset = after ? 0 : m.offset;
    if (offset > kMaxArchiveOffset)
        return send(c, wire::error(rid, PE::BadRequest,
                                   "an archive offset is served up to " + std::to_string(kMaxArchiveOffset) +
                                       "; page on with ListArchive.after (ArchiveList.next)"));
    flush_archive();  // a game that just ended is listed
    const std::uint32_t limit = m.limit == 0 ? kArchivePage : std::min(m.limit, kArchivePage);
    // A player that names an account lists that account's games, whatever names they were played
    // under; any other name matches either side's name as before (guests, older games).
    const std::optional<std::string> account = m.player.empty() ? std::nullopt : archive_account(m.player);
    auto page = account ? store_.list_archived_of_account(offset, limit, *account, after)
                        : store_.list_archived(offset, limit,
                                               m.player.empty() ? std::nullopt : std::optional<std::string_view>(m.player),
                                               after);
    if (!page) return send(c, wire::error(rid, PE::Internal, "the archive is unavailable"));
    proto::ArchiveList out;
    for (const auto& s : page->games) out.games.push_back(wire::archive_entry(s));
    out.total = static_cast<std::uint32_t>(page->total);
    out.total_capped = page->total_capped;
    if (page->next) out.next = wire::archive_key(*page->next);
    send(c, {rid, std::move(out)});
}

void Dispatcher::on_get_archived(Client& c, std::uint64_t rid, const proto::GetArchived& m) {
    flush_archive();
    const auto id = wire::room_id(m.game_id);
    auto game = id ? store_.fetch_archived(*id) : std::unexpected(StoreError{StoreErrorCode::NotFound, ""});
    // A private game is shown only to a session that sat in it; anyone else hears what a game
    // that does not exist gives, so the id tells nothing.
    if (game && game->is_private && !c.private_seats.contains(*id))
        game = std::unexpected(StoreError{StoreErrorCode::NotFound, ""});
    if (!game) {
        const bool missing = game.error().code == StoreErrorCode::NotFound;
        return send(c, wire::error(rid, missing ? PE::NoSuchGame : PE::Internal,
                                   missing ? "no archived game with that id" : "the archive is unavailable",
                                   m.game_id));
    }
    auto out = wire::archived_game(*game);
    // A game record can exceed one frame; the PGN is the first thing to drop, moves stay.
    if (out.pgn.size() + out.moves.size() * 6 > proto::kMaxFrameBytes - 4096) out.pgn.clear();
    send(c, {rid, std::move(out)});
}

}  // namespace xq::server
