// PGN output and the small PgnGame helpers. The writer owns the tags that describe the record's own
// fields (Game, Variant, Format, FEN, SetUp, Result), so a record read in one style can be written
// in the other without stale tags.

#include <algorithm>
#include <array>
#include <cctype>

#include "fen.h"
#include "iccs.h"
#include "pgn.h"

namespace xq {
namespace {

constexpr std::array<std::string_view, 6> kOwnedTags = {"Game", "Variant", "Format",
                                                        "FEN",  "SetUp",   "Result"};
constexpr std::size_t kEngineLineWidth = 80;

bool is_owned(std::string_view name) {
    for (std::string_view owned : kOwnedTags)
        if (name == owned) return true;
    return false;
}

// Red/Black in xqbase files, White/Black in chess tooling: same players, different names.
std::string tag_name_for(std::string_view name, PgnStyle style) {
    if (style == PgnStyle::Xqbase && name == "White") return "Red";
    if (style == PgnStyle::Engine && name == "Red") return "White";
    return std::string(name);
}

std::string tag_line(std::string_view name, std::string_view value) {
    std::string line = "[" + std::string(name) + " \"";
    for (char c : value) {
        if (c == '\n' || c == '\r') c = ' ';
        if (c == '"' || c == '\\') line += '\\';
        line += c;
    }
    return line + "\"]\n";
}

// A comment cannot contain its own terminator; drop any '}' rather than fail the export.
std::string comment_text(std::string_view text) {
    std::string out = "{";
    for (char c : text)
        if (c != '}') out += c;
    return out + "}";
}

// xqbase writes ICCS as "H2-E2" in [Format "ICCS"] files; engines write "h2e2".
std::string move_text(const Position& pos, Move m, PgnStyle style, Notation notation) {
    if (style == PgnStyle::Engine) return to_iccs(m);
    if (notation != Notation::Iccs) return render_move(pos, m, notation);
    std::string iccs = to_iccs(m);
    for (char& c : iccs) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return iccs.substr(0, 2) + "-" + iccs.substr(2);
}

std::string write_tags(const PgnGame& game, PgnStyle style, Notation notation) {
    std::string out;
    bool result_written = false;
    auto write_result = [&] {
        if (!result_written) out += tag_line("Result", game.result);
        result_written = true;
    };
    if (style == PgnStyle::Xqbase) {
        out += tag_line("Game", "Chinese Chess");
        for (const PgnTag& t : game.tags) {
            if (t.name == "Result") write_result();
            if (!is_owned(t.name)) out += tag_line(tag_name_for(t.name, style), t.value);
        }
        write_result();
        if (game.start != Position::start()) out += tag_line("FEN", to_fen(game.start));
        if (notation == Notation::Wxf) out += tag_line("Format", "WXF");
        if (notation == Notation::Iccs) out += tag_line("Format", "ICCS");
        return out;
    }
    // Engine style: the chess Seven Tag Roster first, as PyChess and cutechess-based GUIs write it.
    constexpr std::array<std::string_view, 6> kRoster = {"Event", "Site", "Date", "Round", "White", "Black"};
    for (std::string_view name : kRoster) {
        std::optional<std::string> value = game.tag(name);
        if (!value && name == "White") value = game.tag("Red");
        out += tag_line(name, value ? *value : name == "Date" ? "????.??.??" : "?");
    }
    write_result();
    for (const PgnTag& t : game.tags) {
        const std::string name = tag_name_for(t.name, style);
        bool in_roster = false;
        for (std::string_view r : kRoster) in_roster = in_roster || name == r;
        if (!in_roster && !is_owned(t.name)) out += tag_line(name, t.value);
    }
    out += tag_line("Variant", "xiangqi");
    if (game.start != Position::start()) {
        out += tag_line("SetUp", "1");
        out += tag_line("FEN", to_fen(game.start));
    }
    return out;
}

// Collects the movetext as tokens and lays them out: one move pair per line for xqbase (as the
// archives do), filled lines for the engine style.
std::string write_moves(const PgnGame& game, PgnStyle style, Notation notation) {
    std::vector<std::string> tokens;
    std::vector<bool> breaks_after;  // xqbase: end the line after this token
    auto push = [&](std::string token, bool line_break) {
        tokens.push_back(std::move(token));
        breaks_after.push_back(line_break);
    };
    if (!game.opening_comment.empty()) push(comment_text(game.opening_comment), true);

    Position pos = game.start;
    int number = std::max(1, game.start.fullmove_number());
    bool renumber = true;  // Black's move needs "N..." at the start or after a comment
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const bool red = pos.side_to_move() == Color::Red;
        if (red)
            push(std::to_string(number) + ".", false);
        else if (renumber)
            push(std::to_string(number) + "...", false);
        push(move_text(pos, game.moves[i], style, notation), !red);
        const std::string_view comment = game.comment_after(i);
        if (!comment.empty()) {
            breaks_after.back() = false;
            push(comment_text(comment), !red);
        }
        renumber = !comment.empty();
        pos.play(game.moves[i]);
        if (!red) ++number;
    }
    push(game.result, true);

    std::string out, line;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool fits = line.size() + 1 + tokens[i].size() <= kEngineLineWidth;
        if (!line.empty() && style == PgnStyle::Engine && !fits) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + tokens[i];
        if (style == PgnStyle::Xqbase && breaks_after[i]) {
            out += line + "\n";
            line.clear();
        }
    }
    if (!line.empty()) out += line + "\n";
    return out;
}

}  // namespace

std::optional<std::string> PgnGame::tag(std::string_view name) const {
    for (const PgnTag& t : tags)
        if (t.name == name) return t.value;
    return std::nullopt;
}

void PgnGame::set_tag(std::string_view name, std::string_view value) {
    for (PgnTag& t : tags) {
        if (t.name == name) {
            t.value = value;
            return;
        }
    }
    tags.push_back({std::string(name), std::string(value)});
}

std::string_view PgnGame::comment_after(std::size_t i) const {
    return i < comments.size() ? std::string_view(comments[i]) : std::string_view();
}

Position PgnGame::final_position() const {
    Position pos = start;
    for (Move m : moves) pos.play(m);
    return pos;
}

std::string_view code_name(PgnErrorCode code) {
    switch (code) {
        case PgnErrorCode::Syntax:
            return "pgn_syntax";
        case PgnErrorCode::BadTag:
            return "pgn_bad_tag";
        case PgnErrorCode::BadFen:
            return "pgn_bad_fen";
        case PgnErrorCode::IllegalMove:
            return "pgn_illegal_move";
        case PgnErrorCode::AmbiguousMove:
            return "pgn_ambiguous_move";
        case PgnErrorCode::InvalidMove:
            return "pgn_invalid_move";
    }
    return "pgn_error";
}

bool is_pgn_result(std::string_view text) {
    return text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*";
}

std::string write_pgn(const PgnGame& game, PgnStyle style, Notation notation) {
    return write_tags(game, style, notation) + "\n" + write_moves(game, style, notation);
}

}  // namespace xq
