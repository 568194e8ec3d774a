#include "server/cluster/resp.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace xq::cluster {
namespace {

constexpr std::string_view kCrlf = "\r\n";

void append_length(std::string& out, char type, std::size_t n) {
    out += type;
    out += std::to_string(n);
    out += kCrlf;
}

// A length line's number: a decimal >= 0, or -1 (nil). Anything else is refused; so is a number
// too large for any limit, before it can overflow.
std::expected<long long, ParseError> parse_length(std::string_view line) {
    if (line == "-1") return -1;
    if (line.empty() || line.size() > 18 || !std::all_of(line.begin(), line.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::unexpected(ParseError{ParseErrorCode::BadLength, "bad length '" + std::string(line.substr(0, 32)) + "'"});
    long long n = 0;
    std::from_chars(line.data(), line.data() + line.size(), n);
    return n;
}

}  // namespace

void append_command(std::string& out, std::span<const std::string_view> args) {
    append_length(out, '*', args.size());
    for (const auto arg : args) {
        append_length(out, '$', arg.size());
        out += arg;
        out += kCrlf;
    }
}

void append_command(std::string& out, std::initializer_list<std::string_view> args) {
    append_command(out, std::span<const std::string_view>(args.begin(), args.size()));
}

std::string encode_command(std::initializer_list<std::string_view> args) {
    std::string out;
    append_command(out, args);
    return out;
}

std::string encode_reply(const Reply& reply) {
    std::string out;
    switch (reply.type) {
        case Reply::Type::SimpleString: out = "+" + reply.text + "\r\n"; break;
        case Reply::Type::Error: out = "-" + reply.text + "\r\n"; break;
        case Reply::Type::Integer: out = ":" + std::to_string(reply.integer) + "\r\n"; break;
        case Reply::Type::BulkString:
            append_length(out, '$', reply.text.size());
            out += reply.text;
            out += kCrlf;
            break;
        case Reply::Type::Nil: out = "$-1\r\n"; break;
        case Reply::Type::NilArray: out = "*-1\r\n"; break;
        case Reply::Type::Array:
            append_length(out, '*', reply.elements.size());
            for (const auto& e : reply.elements) out += encode_reply(e);
            break;
    }
    return out;
}

std::string_view to_string(ParseErrorCode code) {
    switch (code) {
        case ParseErrorCode::BadType: return "bad_type";
        case ParseErrorCode::BadLength: return "bad_length";
        case ParseErrorCode::BadInteger: return "bad_integer";
        case ParseErrorCode::MissingCrlf: return "missing_crlf";
        case ParseErrorCode::BulkTooLong: return "bulk_too_long";
        case ParseErrorCode::LineTooLong: return "line_too_long";
        case ParseErrorCode::TooDeep: return "too_deep";
        case ParseErrorCode::TooManyElements: return "too_many_elements";
    }
    return "parse_error";
}

Parser::Parser(ParseLimits limits) : limits_(limits) {}

std::expected<std::vector<Reply>, ParseError> Parser::feed(std::string_view bytes) {
    if (!state_) return std::unexpected(state_.error());
    buffer_.append(bytes);
    std::vector<Reply> done;
    for (;;) {
        auto more = step(done);
        if (!more) {
            state_ = std::unexpected(more.error());
            buffer_.clear();
            pos_ = 0;
            stack_.clear();
            return std::unexpected(more.error());
        }
        if (!*more) break;
    }
    // Drop what was consumed; a partial value stays at the front.
    buffer_.erase(0, pos_);
    pos_ = 0;
    return done;
}

std::expected<bool, ParseError> Parser::step(std::vector<Reply>& done) {
    const std::string_view rest = std::string_view(buffer_).substr(pos_);
    if (in_bulk_) {
        if (rest.size() < pending_bulk_ + kCrlf.size()) return false;
        if (rest.substr(pending_bulk_, kCrlf.size()) != kCrlf)
            return std::unexpected(ParseError{ParseErrorCode::MissingCrlf, "bulk string of " + std::to_string(pending_bulk_) +
                                                                               " bytes not followed by CRLF"});
        Reply value = Reply::bulk(std::string(rest.substr(0, pending_bulk_)));
        pos_ += pending_bulk_ + kCrlf.size();
        in_bulk_ = false;
        place(std::move(value), done);
        return true;
    }
    if (rest.empty()) return false;
    // A wrong first byte is refused at once: garbage need not wait for a line end.
    if (std::string_view("+-:$*").find(rest[0]) == std::string_view::npos)
        return std::unexpected(ParseError{ParseErrorCode::BadType, "a value starting with byte " + std::to_string(static_cast<unsigned char>(rest[0]))});
    const std::size_t end = rest.find(kCrlf);
    if (end == std::string_view::npos) {
        // +1 for the type byte, +1 for a lone \r that may be the first half of the terminator.
        if (rest.size() > limits_.max_line_bytes + 2)
            return std::unexpected(ParseError{ParseErrorCode::LineTooLong, "no CRLF within " + std::to_string(limits_.max_line_bytes) + " bytes"});
        return false;
    }
    if (end > limits_.max_line_bytes + 1)
        return std::unexpected(ParseError{ParseErrorCode::LineTooLong, "a line of " + std::to_string(end) + " bytes"});
    const char type = rest[0];
    const std::string_view line = rest.substr(1, end - 1);
    pos_ += end + kCrlf.size();
    // Every value counts once, at its header, nested ones included.
    if (++reply_elements_ > limits_.max_elements)
        return std::unexpected(ParseError{ParseErrorCode::TooManyElements, "more than " + std::to_string(limits_.max_elements) + " values in one reply"});
    switch (type) {
        case '+': place(Reply::simple(std::string(line)), done); return true;
        case '-': place(Reply::error(std::string(line)), done); return true;
        case ':': {
            std::int64_t n = 0;
            const auto [ptr, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
            if (line.empty() || ec != std::errc() || ptr != line.data() + line.size())
                return std::unexpected(ParseError{ParseErrorCode::BadInteger, "bad integer '" + std::string(line.substr(0, 32)) + "'"});
            place(Reply::of_integer(n), done);
            return true;
        }
        case '$': {
            const auto n = parse_length(line);
            if (!n) return std::unexpected(n.error());
            if (*n < 0) {
                place(Reply::nil(), done);
                return true;
            }
            if (static_cast<std::size_t>(*n) > limits_.max_bulk_bytes)
                return std::unexpected(ParseError{ParseErrorCode::BulkTooLong, "a bulk string of " + std::to_string(*n) + " bytes (limit " +
                                                                                   std::to_string(limits_.max_bulk_bytes) + ")"});
            in_bulk_ = true;
            pending_bulk_ = static_cast<std::size_t>(*n);
            return true;
        }
        case '*': {
            const auto n = parse_length(line);
            if (!n) return std::unexpected(n.error());
            if (*n < 0) {
                place(Reply::nil_array(), done);
                return true;
            }
            const auto count = static_cast<std::size_t>(*n);
            // Counted before a single element is read, so a hostile count allocates nothing.
            if (count > limits_.max_elements - reply_elements_)
                return std::unexpected(ParseError{ParseErrorCode::TooManyElements, "an array of " + std::to_string(count) + " elements (limit " +
                                                                                       std::to_string(limits_.max_elements) + " a reply)"});
            if (count == 0) {
                place(Reply::array({}), done);
                return true;
            }
            if (stack_.size() >= limits_.max_depth)
                return std::unexpected(ParseError{ParseErrorCode::TooDeep, "arrays nested deeper than " + std::to_string(limits_.max_depth)});
            Open open{Reply::array({}), count};
            open.array.elements.reserve(std::min<std::size_t>(count, 64));
            stack_.push_back(std::move(open));
            return true;
        }
    }
    return std::unexpected(ParseError{ParseErrorCode::BadType, "unreachable"});
}

void Parser::place(Reply value, std::vector<Reply>& done) {
    for (;;) {
        if (stack_.empty()) {
            done.push_back(std::move(value));
            reply_elements_ = 0;
            return;
        }
        auto& top = stack_.back();
        top.array.elements.push_back(std::move(value));
        if (top.array.elements.size() < top.expected) return;
        value = std::move(top.array);
        stack_.pop_back();
    }
}

}  // namespace xq::cluster
