// PGN input: groups the lexer's tokens into games and plays every move on a Position, so the
// first bad move stops its game with the line, the ply and the text, keeping the moves before it.
// Move numbers are read but not trusted: the side to move decides whose move a word is, which
// covers Black-first records with or without "...", numbering from the FEN and renumbered files.

#include <array>
#include <cctype>

#include "fen.h"
#include "movegen.h"
#include "pgn.h"
#include "pgn_lexer.h"

namespace xq {
namespace {

using pgn_detail::Token;
using pgn_detail::TokenKind;

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Fairy-Stockfish under plain UCI writes 1-based ranks ("h3e3", "h3h10").
std::optional<Move> parse_one_based(std::string_view w) {
    std::array<int, 4> parts{};
    std::size_t i = 0;
    for (std::size_t k = 0; k < 2; ++k) {
        if (i >= w.size() || w[i] < 'a' || w[i] > 'i') return std::nullopt;
        parts[2 * k] = w[i++] - 'a';
        if (i >= w.size() || w[i] < '1' || w[i] > '9') return std::nullopt;
        const bool ten = w.substr(i, 2) == "10";
        parts[2 * k + 1] = ten ? 9 : w[i] - '1';
        i += ten ? 2 : 1;
    }
    if (i != w.size()) return std::nullopt;
    return Move(make_square(parts[0], parts[1]), make_square(parts[2], parts[3]));
}

std::string lower(std::string_view s) {
    std::string out;
    for (char c : pgn_detail::trim(s)) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<Notation> notation_from_format(std::string_view format) {
    if (lower(format) == "wxf") return Notation::Wxf;
    if (lower(format) == "iccs") return Notation::Iccs;
    return std::nullopt;  // Chinese (the default) or unknown: every word is detected on its own
}

PgnErrorCode code_for(MoveTextErrorCode code) {
    switch (code) {
        case MoveTextErrorCode::IllegalMove:
            return PgnErrorCode::IllegalMove;
        case MoveTextErrorCode::AmbiguousMove:
            return PgnErrorCode::AmbiguousMove;
        case MoveTextErrorCode::InvalidSyntax:
            break;
    }
    return PgnErrorCode::InvalidMove;
}

PgnError error_at(PgnErrorCode code, int line, std::string text, std::string what) {
    return {code, "line " + std::to_string(line) + ": " + what, line, 0, std::move(text)};
}

class Reader {
public:
    explicit Reader(std::string_view text) : lexer_(text) {}
    std::vector<PgnReadResult> read_all();

private:
    const Token& peek();
    Token take();
    bool read_game(PgnReadResult& r);
    std::optional<PgnError> read_tags(PgnGame& game);
    std::optional<PgnError> play_word(PgnGame& game, Position& pos, std::string_view word, int line);
    std::expected<Move, MoveTextError> parse_word(const Position& pos, std::string_view word);
    void skip_to_next_game();

    pgn_detail::Lexer lexer_;
    std::optional<Token> lookahead_;
    std::optional<Notation> notation_;  // from [Format]; otherwise each word is detected
    bool one_based_allowed_ = false;    // engine-style games ([Variant]) may use 1-based ranks
    int coordinate_base_ = -1;          // 0 (ICCS) or 1 (Fairy-Stockfish UCI) once a game shows it
};

const Token& Reader::peek() {
    if (!lookahead_) lookahead_ = lexer_.next();
    return *lookahead_;
}

Token Reader::take() {
    Token t = peek();
    lookahead_.reset();
    return t;
}

std::vector<PgnReadResult> Reader::read_all() {
    std::vector<PgnReadResult> games;
    while (peek().kind != TokenKind::End) {
        PgnReadResult r;
        if (!read_game(r)) continue;
        r.game.comments.resize(r.game.moves.size());
        games.push_back(std::move(r));
    }
    return games;
}

// After an error: the rest of this game's tags and moves, up to the next tag section or result.
void Reader::skip_to_next_game() {
    while (peek().kind == TokenKind::Tag || peek().kind == TokenKind::BadTag) take();
    while (peek().kind != TokenKind::End && peek().kind != TokenKind::Tag && peek().kind != TokenKind::BadTag)
        if (const Token t = take(); t.kind == TokenKind::Word && is_pgn_result(t.text)) return;
}

std::optional<PgnError> Reader::read_tags(PgnGame& game) {
    while (peek().kind == TokenKind::Tag || peek().kind == TokenKind::BadTag) {
        const Token t = take();
        if (t.kind == TokenKind::BadTag)
            return error_at(PgnErrorCode::BadTag, t.line, t.text,
                            "malformed tag line (expected [Name \"value\"]): " + t.text);
        game.tags.push_back({t.name, t.value});
        if (t.name == "FEN" && !pgn_detail::trim(t.value).empty()) {
            auto pos = parse_fen(t.value);
            if (!pos)
                return error_at(PgnErrorCode::BadFen, t.line, t.value, "bad FEN tag: " + pos.error().message);
            game.start = *pos;
        }
        if (t.name == "Result" && is_pgn_result(pgn_detail::trim(t.value)))
            game.result = std::string(pgn_detail::trim(t.value));
        if (t.name == "Format") notation_ = notation_from_format(t.value);
        if (t.name == "Variant") {
            if (lower(t.value) != "xiangqi")
                return error_at(PgnErrorCode::BadTag, t.line, t.text,
                                "variant '" + t.value + "' is not xiangqi");
            one_based_allowed_ = true;
        }
    }
    return std::nullopt;
}

// Reads one game into r. Returns false when there was nothing but stray comments.
bool Reader::read_game(PgnReadResult& r) {
    notation_.reset();
    one_based_allowed_ = false;
    coordinate_base_ = -1;
    PgnGame& game = r.game;
    if ((r.error = read_tags(game))) {
        skip_to_next_game();
        return true;
    }
    bool found = !game.tags.empty();
    Position pos = game.start;
    int depth = 0, open_line = 0;  // variations are skipped; open_line reports an unclosed one
    auto fail = [&](PgnError e) {
        r.error = std::move(e);
        skip_to_next_game();
        return true;
    };
    for (;;) {
        const TokenKind kind = peek().kind;
        if (kind == TokenKind::End || kind == TokenKind::Tag || kind == TokenKind::BadTag) {
            if (depth > 0)
                return fail(
                    error_at(PgnErrorCode::Syntax, open_line, "(", "variation opened here is never closed"));
            return found;
        }
        const Token t = take();
        switch (t.kind) {
            case TokenKind::Unclosed:
                return fail(
                    error_at(PgnErrorCode::Syntax, t.line, "{", "comment opened here is never closed"));
            case TokenKind::Open:
                if (depth++ == 0) open_line = t.line;
                break;
            case TokenKind::Close:
                if (depth == 0)
                    return fail(error_at(PgnErrorCode::Syntax, t.line, ")", "')' without a matching '('"));
                --depth;
                break;
            case TokenKind::Comment: {
                if (depth > 0 || t.text.empty()) break;
                std::string& target = game.moves.empty() ? game.opening_comment : game.comments.back();
                target += (target.empty() ? "" : " ") + t.text;
                break;
            }
            case TokenKind::Word:
                if (depth > 0) break;
                found = true;
                if (is_pgn_result(t.text)) {
                    game.result = t.text;
                    return true;
                }
                if (auto e = play_word(game, pos, t.text, t.line)) return fail(std::move(*e));
                break;
            default:
                break;
        }
    }
}

// Plays one movetext word: a move, possibly behind its number ("1.h2e2"); numbers, "...",
// NAGs ($1) and annotation marks (!, ?) are passed over.
std::optional<PgnError> Reader::play_word(PgnGame& game, Position& pos, std::string_view word, int line) {
    word = pgn_detail::strip_move_number(word);
    while (!word.empty() && (word.back() == '!' || word.back() == '?')) word.remove_suffix(1);
    if (word.empty() || pgn_detail::only_dots(word) || word.front() == '$') return std::nullopt;

    auto move = parse_word(pos, word);
    if (!move && move.error().code == MoveTextErrorCode::InvalidSyntax) {
        if (auto pair = pgn_detail::split_move_pair(word); pair && parse_word(pos, pair->first)) {
            if (auto e = play_word(game, pos, pair->first, line)) return e;
            return play_word(game, pos, pair->second, line);
        }
    }
    if (!move) {
        const int ply = static_cast<int>(game.moves.size()) + 1;
        const std::string side = pos.side_to_move() == Color::Red ? "Red" : "Black";
        std::string what = "ply " + std::to_string(ply) + " (move " +
                           std::to_string(std::max(1, pos.fullmove_number())) + ", " + side + "): ";
        if (move.error().message.find(word) == std::string::npos) what += "'" + std::string(word) + "': ";
        PgnError e =
            error_at(code_for(move.error().code), line, std::string(word), what + move.error().message);
        e.ply = ply;
        return e;
    }
    game.moves.push_back(*move);
    game.comments.resize(game.moves.size());
    pos.play(*move);
    return std::nullopt;
}

// Reads a move word in the game's notation. Lower-case coordinates are ICCS unless the game is
// engine-style and its first coordinate move only makes sense with Fairy-Stockfish's 1-based ranks.
std::expected<Move, MoveTextError> Reader::parse_word(const Position& pos, std::string_view word) {
    if (notation_) return parse_move(pos, word, *notation_);
    const bool may_be_one_based = one_based_allowed_ && coordinate_base_ != 0;
    const std::optional<Move> one_based = may_be_one_based ? parse_one_based(word) : std::nullopt;
    if (!one_based) return parse_move(pos, word);
    if (coordinate_base_ == 1) {
        if (is_legal(pos, *one_based)) return *one_based;
        return std::unexpected(
            MoveTextError{MoveTextErrorCode::IllegalMove,
                          "no legal move fits (read with 1-based ranks) in " + to_fen(pos)});
    }
    auto zero_based = parse_move(pos, word);
    if (!zero_based && is_legal(pos, *one_based)) {
        coordinate_base_ = 1;
        return *one_based;
    }
    coordinate_base_ = 0;
    return zero_based;
}

}  // namespace

std::vector<PgnReadResult> read_pgn(std::string_view utf8) {
    if (utf8.starts_with(kBom)) utf8.remove_prefix(kBom.size());
    return Reader(utf8).read_all();
}

}  // namespace xq
