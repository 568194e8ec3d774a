// The wire protocol's codec: every message survives encode -> decode unchanged, in both
// directions, and replies echo the request id.

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "proto/codec.h"
#include "proto/frame.h"
#include "proto/node_messages.h"

namespace xq::proto {
namespace {

constexpr const char* kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

TimeControl blitz() { return TimeControl{5, 3, std::nullopt}; }
TimeControl capped() { return TimeControl{10, 5, 60}; }
Clock running(Side side) { return Clock{298'500, 300'000, side, std::nullopt}; }
Clock stopped() { return Clock{120'000, 0, std::nullopt, std::nullopt}; }
Clock with_cap() { return Clock{600'000, 595'000, Side::Black, 42'000}; }
Clock awaiting_first_move() { return Clock{300'000, 300'000, std::nullopt, std::nullopt, 21'500}; }

Outcome perpetual() {
    return Outcome{GameResult::BlackWins,
                   "perpetual_check",
                   "Red loses: it checked on every move of a 3-fold repetition, moves 21-24.",
                   47,
                   {41, 43, 45, 47}};
}

GameSummary open_game() {
    return GameSummary{7, GameStatus::Waiting, "alice", ColorChoice::Random, "", "", blitz(), 0, 0, false};
}
GameSummary live_game() {
    GameSummary g{8, GameStatus::Playing, "bob", ColorChoice::Black, "carol", "bob", capped(), 31, 4, true};
    // What the lobby page draws the game's small board and clocks from.
    g.fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    g.last_move = "h2e2";
    g.clock = running(Side::Black);
    return g;
}
ArchiveEntry archived() { return ArchiveEntry{12, "alice", "bob", blitz(), perpetual(), 1'760'000'000'123}; }
// A rated game between two accounts, with both sides' rating changes.
ArchiveEntry rated_archived() {
    ArchiveEntry e = archived();
    e.rated = true;
    e.red_account = "alice";
    e.black_account = "Bob";
    e.red_change = RatingChange{1500, 1488, true};
    e.black_change = RatingChange{1620, 1631, false};
    return e;
}
GameSummary rated_live_game() {
    GameSummary g = live_game();
    g.rated = true;
    g.host_rating = PlayerRating{1812, 64, false};
    g.red_rating = PlayerRating{1500, 350, true};
    g.black_rating = PlayerRating{1812, 64, false};
    g.spectator_delay = 3;
    return g;
}

// Every versioned event, as both a pushed message and an entry of Resumed.
std::vector<RoomEvent> all_events() {
    return {
        GameStarted{7, 1, "alice", "bob", blitz(), kStart, awaiting_first_move()},
        MoveMade{7, 2, 1, "h2e2", awaiting_first_move(), 0},
        MoveMade{7, 3, 2, "h9g7", running(Side::Red), 99},
        OfferMade{7, 4, Offer{OfferKind::Draw, Side::Red}},
        OfferAnswered{7, 5, OfferKind::Takeback, Side::Black, true},
        TakebackApplied{7, 6, 2, 0, with_cap()},
        ChatLine{7, 7, ChatChannel::Players, "alice", Side::Red, "good luck 祝你好运"},
        ChatLine{7, 0, ChatChannel::Spectators, "dave", std::nullopt, "nice"},
        GameEnded{7, 8, perpetual(), stopped()},
        GameAborted{7, 9, std::nullopt, "Nobody moved within 30 seconds."},
        GameAborted{7, 9, Side::Black, ""},
        GameStarted{7, 1, "alice", "bob", blitz(), kStart, awaiting_first_move(), true, PlayerRating{1500, 350, true},
                    PlayerRating{1690, 80, false}, 2},
        MoveMade{7, 3, 2, "h9g7", running(Side::Red), 99, 180},
        GameEnded{7, 8, perpetual(), stopped(), RatingChange{1500, 1488, true}, RatingChange{1690, 1702, false}},
        RematchStarted{7, 10, 31},
    };
}

std::vector<ClientBody> all_client_bodies() {
    return {
        Hello{"xiangqi-sfml/0.1", "alice", 1},
        Hello{"", "", 0},
        Hello{"xiangqi-bot/0.1", "bot level 5", 1, 5, "5f0c9e2a"},  // a computer opponent: its level and key
        Ping{0xfeedface'cafebeefULL},
        ListGames{},
        CreateGame{blitz(), ColorChoice::Random, false},
        CreateGame{capped(), ColorChoice::Black, true},
        CreateGame{blitz(), ColorChoice::Red, false},
        CreateGame{blitz(), ColorChoice::Black, false, 8},  // against the server's level-8 computer
        JoinGame{7, "K3Y9"},
        QuickMatch{capped()},
        Leave{0},
        Leave{7},
        WatchGame{8, "code"},
        MakeMove{7, "h2e2", 1234, 0},
        Resign{7},
        MakeOffer{7, OfferKind::Draw},
        MakeOffer{7, OfferKind::Takeback},
        AnswerOffer{7, OfferKind::Draw, true},
        AnswerOffer{7, OfferKind::Takeback, false},
        Abort{7},
        SendChat{7, ChatChannel::Players, "hi"},
        SendChat{7, ChatChannel::Spectators, "what a move"},
        Resume{7, "3f1c0d9ab2e54c77", 41},
        Claim{7, ClaimKind::Win},
        Claim{7, ClaimKind::Draw},
        ListArchive{20, 10, "bob"},
        ListArchive{0, 10, "", "1700000000000.0123456789ab"},  // the page after this key
        GetArchived{12},
        Mute{7, ChatChannel::Players, true},
        Mute{7, ChatChannel::Spectators, false},
        Register{"Ann_1", "correct horse"},
        Login{"ann_1", "correct horse", ""},
        Login{"", "", std::string(64, 'a')},
        Logout{},
        ChangePassword{"old password", "new password"},
        CreateGame{blitz(), ColorChoice::Random, false, 0, true, 5},  // rated, spectators 5 moves behind
        QuickMatch{blitz(), true},
        GetProfile{"Ann_1"},
        GetLeaderboard{Speed::Bullet},
        GetLeaderboard{Speed::Classical},
        Pong{0x1234},
    };
}

std::vector<ServerBody> all_server_bodies() {
    std::vector<ServerBody> bodies = {
        Welcome{"Club", 1, "s-0001"},
        Welcome{"Club", 1, "s-0002", AccountsMode::Required, "ann (guest)"},
        Welcome{"LAN", 1, "s-0003", AccountsMode::Off, "ann"},
        Error{ErrorCode::TryLater, "too many failed logins", 0, "", "", 4000},
        LoggedIn{"Ann_1", false, std::string(64, 'f'), 1'800'000'000'000, {Seated{7, Side::Black, "", "tok"}}},
        LoggedIn{"ann (guest)", true, "", 0, {}},
        ResumeToken{7, "0123abcd"},
        Pong{17},
        Error{ErrorCode::BannedByRepetition, "a2a3 is banned", 7, "perpetual_chase",
              "Red may not play a2a3: it would chase the horse a third time."},
        Error{ErrorCode::UnsupportedVersion, "server speaks 1, client 2", 0, "", ""},
        Error{ErrorCode::NoComputer, "no computer of level 3 is free on this server", 0, "", ""},
        Error{ErrorCode::AlreadyGreeted, "this session has already said Hello", 0, "", ""},
        GameList{{open_game()}, {live_game(), live_game()}},
        GameList{},
        Seated{7, Side::Red, "", "tok-red"},
        Seated{9, std::nullopt, "K3Y9", "tok"},
        Seeking{blitz()},
        Left{0},
        Snapshot{8,
                 12,
                 GameStatus::Finished,
                 capped(),
                 true,
                 kStart,
                 {"h2e2", "h9g7", "h0g2"},
                 stopped(),
                 PlayerInfo{"carol", true, std::nullopt},
                 PlayerInfo{"bob", false, 25'000},
                 perpetual(),
                 {Offer{OfferKind::Draw, Side::Black}, Offer{OfferKind::Takeback, Side::Red}},
                 3,
                 Side::Black,
                 {ChatLine{8, 0, ChatChannel::Spectators, "dave", std::nullopt, "gg"}}},
        Snapshot{},
        [] {
            Snapshot s;
            s.game_id = 9;
            s.rated = true;
            s.spectator_delay = 4;
            s.rematch_game_id = 31;
            return s;
        }(),
        Resumed{7, Side::Red, all_events(), running(Side::Red), PlayerInfo{"alice", true, {}},
                PlayerInfo{"bob", true, {}}, 2},
        SpectatorCount{7, 5},
        PlayerConnection{7, Side::Black, PlayerInfo{"bob", false, 60'000}},
        PlayerConnection{7, Side::Red, PlayerInfo{"alice", true, std::nullopt}},
        ArchiveList{{archived(), archived()}, 213},
        ArchiveList{{archived()}, 200, "1700000000000.0123456789ab", true},
        ArchivedGame{archived(), kStart, {"h2e2", "h9g7"}, "[Event \"Casual\"]\n\n1. C2.5 H8+7 0-1\n"},
        ArchiveList{{rated_archived()}, 1},
        GameList{{}, {rated_live_game()}},
        Seeking{blitz(), true},
        Ping{99},
        PlayerConnection{7, Side::Red, PlayerInfo{"alice", true, std::nullopt, PlayerRating{1450, 120, true}, 212, false}},
        PlayerConnection{7, Side::Black, PlayerInfo{"bot level 3", true, std::nullopt, PlayerRating{1300, 60, false}, 1, true}},
        Profile{"Ann_1",
                false,
                1'700'000'000'000,
                {SpeedRecord{Speed::Blitz, PlayerRating{1523, 95, false}, 14,
                             {RatingPoint{1'700'000'100'000, 1512, 180, 40}, RatingPoint{1'700'000'200'000, 1523, 95, 41}}},
                 SpeedRecord{Speed::Rapid, PlayerRating{1500, 350, true}, 0, {}}},
                9,
                2,
                3},
        Leaderboard{Speed::Blitz, {LeaderboardRow{1, "Ann_1", PlayerRating{1523, 95, false}, 14, false},
                                   LeaderboardRow{2, "bot level 8", PlayerRating{1490, 50, false}, 300, true}}, 10},
        Error{ErrorCode::NoRematch, "your opponent left", 7, "", ""},
    };
    for (const auto& event : all_events()) {
        std::visit([&](const auto& e) { bodies.emplace_back(e); }, event);
    }
    return bodies;
}

TEST(ProtoRoundTrip, EveryClientMessage) {
    std::set<std::size_t> kinds;
    std::uint64_t id = 1;
    for (const auto& body : all_client_bodies()) {
        const ClientMessage sent{id++, body};
        const auto got = decode_client(encode(sent));
        ASSERT_TRUE(got) << "kind " << body.index() << ": " << got.error().message;
        EXPECT_EQ(*got, sent) << "kind " << body.index();
        kinds.insert(body.index());
    }
    EXPECT_EQ(kinds.size(), std::variant_size_v<ClientBody>) << "a request kind is not covered";
}

TEST(ProtoRoundTrip, EveryServerMessage) {
    std::set<std::size_t> kinds;
    std::set<std::size_t> event_kinds;
    for (const auto& event : all_events()) event_kinds.insert(event.index());
    for (const auto& body : all_server_bodies()) {
        for (const std::uint64_t id : {std::uint64_t{0}, std::uint64_t{1} << 63}) {
            const ServerMessage sent{id, body};
            const auto got = decode_server(encode(sent));
            ASSERT_TRUE(got) << "kind " << body.index() << ": " << got.error().message;
            EXPECT_EQ(*got, sent) << "kind " << body.index();
        }
        kinds.insert(body.index());
    }
    EXPECT_EQ(kinds.size(), std::variant_size_v<ServerBody>) << "a server kind is not covered";
    EXPECT_EQ(event_kinds.size(), std::variant_size_v<RoomEvent>) << "an event kind is not covered";
}

TEST(ProtoRoundTrip, DefaultsSurviveToo) {
    // Proto3 leaves zero values off the wire: the plain defaults must come back as they were.
    for (const auto& sent : {ClientMessage{0, Hello{}}, ClientMessage{0, ListGames{}},
                             ClientMessage{0, MakeMove{}}, ClientMessage{0, CreateGame{}}}) {
        const auto got = decode_client(encode(sent));
        ASSERT_TRUE(got) << got.error().message;
        EXPECT_EQ(*got, sent);
    }
}

TEST(ProtoRoundTrip, ErrorCodesKeepTheirNumbersAndNames) {
    std::set<std::string_view> names;
    for (int c = 0; c < kErrorCodeCount; ++c) {
        const auto code = static_cast<ErrorCode>(c);
        const ServerMessage sent{5, Error{code, "m", 0, "", ""}};
        const auto got = decode_server(encode(sent));
        ASSERT_TRUE(got);
        EXPECT_EQ(*got, sent);
        names.insert(code_name(code));
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(kErrorCodeCount));
    EXPECT_EQ(code_name(ErrorCode::UnsupportedVersion), "unsupported_version");
    EXPECT_EQ(code_name(ErrorCode::BannedByRepetition), "banned_by_repetition");
    EXPECT_EQ(code_name(ErrorCode::Internal), "internal");
}

TEST(ProtoRoundTrip, ReplyEchoesTheRequestId) {
    // What a server does: decode the request, answer with its id. Pushed events carry 0.
    const std::string request = encode_frame(ClientMessage{4242, Ping{9}});
    FrameReader server_in;
    const auto payloads = server_in.feed(request);
    ASSERT_TRUE(payloads);
    ASSERT_EQ(payloads->size(), 1u);
    const auto ping = decode_client(payloads->front());
    ASSERT_TRUE(ping);
    const ServerMessage reply{ping->request_id, Pong{std::get<Ping>(ping->body).nonce}};
    const auto got = decode_server(encode(reply));
    ASSERT_TRUE(got);
    EXPECT_EQ(got->request_id, 4242u);
    EXPECT_EQ(std::get<Pong>(got->body).nonce, 9u);
}

// The server fills a GameList only while it fits one frame (live games carry their positions), by
// the summaries' encoded sizes and a bound on the envelope around them.
TEST(ProtoRoundTrip, GameListSizesAddUp) {
    GameSummary longest = rated_live_game();
    longest.red = longest.black = longest.host = std::string(32, 'x');
    const std::uint64_t rid = ~0ULL;
    const std::size_t empty = encode(ServerMessage{rid, GameList{}}).size();
    EXPECT_LE(empty + 3, kGameListEnvelopeBytes);  // + a length of up to 3 bytes once filled
    const GameList list{{open_game()}, {live_game(), longest}};
    EXPECT_EQ(encode(ServerMessage{rid, list}).size(),
              empty + encoded_size_in_list(open_game()) + encoded_size_in_list(live_game()) +
                  encoded_size_in_list(longest) + 1);  // the list's own length grows to 2 bytes
}

}  // namespace
}  // namespace xq::proto

namespace xq::proto {
namespace {

// What the quick match across nodes adds to cluster.proto: the matcher's word to a player's node,
// and the seek a node puts in Redis (a NaN rating is refused: it would equal nothing).
TEST(NodeMessages, APairingAndASeekRoundTrip) {
    const NodeMessage paired{42, NodePaired{"node-a:0123456789abcdef:7"}};
    EXPECT_EQ(decode_node(encode(paired)), paired);
    const NodeSeek seek{{"ann", "ann", "127.0.0.1", false, 0}, TimeControl{5, 3, 20}, true, 1612.5};
    EXPECT_EQ(decode_seek(encode(seek)), seek);
    const NodeSeek casual{{"guest", "", "10.0.0.0/24", true, 3}, TimeControl{15, 10, std::nullopt}, false, 0};
    EXPECT_EQ(decode_seek(encode(casual)), casual);
    NodeSeek bad = seek;
    bad.rating = std::nan("");
    EXPECT_EQ(decode_seek(encode(bad)).error().code, DecodeErrorCode::InvalidValue);
    EXPECT_EQ(decode_seek("\xff\xff").error().code, DecodeErrorCode::Unparsable);
}

}  // namespace
}  // namespace xq::proto
