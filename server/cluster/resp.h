#pragma once
// RESP2, the protocol of Redis 7 (https://redis.io/docs/reference/protocol-spec/): commands go out
// as arrays of bulk strings (binary-safe), replies come back as simple strings, errors, integers,
// bulk strings and arrays (either may be nil), arrays nested. Pure code, no I/O, so the fuzzer
// runs it as is. The parser is incremental (bytes arrive in any chunks) and bounded: a reply
// that claims more than the limits is refused with an error before anything is allocated for it.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xq::cluster {

// One RESP2 value. `text` holds a simple string, an error's message or a bulk string's bytes;
// `elements` an array's values.
struct Reply {
    enum class Type { SimpleString, Error, Integer, BulkString, Nil, Array, NilArray };

    Type type = Type::Nil;
    std::string text;
    std::int64_t integer = 0;
    std::vector<Reply> elements;

    static Reply simple(std::string s) { return make(Type::SimpleString, std::move(s)); }
    static Reply error(std::string s) { return make(Type::Error, std::move(s)); }
    static Reply bulk(std::string s) { return make(Type::BulkString, std::move(s)); }
    static Reply nil() { return make(Type::Nil, {}); }
    static Reply nil_array() { return make(Type::NilArray, {}); }
    static Reply of_integer(std::int64_t n) {
        Reply r = make(Type::Integer, {});
        r.integer = n;
        return r;
    }
    static Reply array(std::vector<Reply> elements) {
        Reply r = make(Type::Array, {});
        r.elements = std::move(elements);
        return r;
    }

    bool is_error() const { return type == Type::Error; }
    bool is_nil() const { return type == Type::Nil || type == Type::NilArray; }
    bool operator==(const Reply&) const = default;

private:
    static Reply make(Type t, std::string s) {
        Reply r;
        r.type = t;
        r.text = std::move(s);
        return r;
    }
};

// Appends one command (an array of bulk strings) to `out`, so a batch goes out in one write.
void append_command(std::string& out, std::span<const std::string_view> args);
void append_command(std::string& out, std::initializer_list<std::string_view> args);
std::string encode_command(std::initializer_list<std::string_view> args);

// The reply as RESP2 bytes again (the fuzzer's round trip; tests' fake servers).
std::string encode_reply(const Reply& reply);

// What a reply may claim. Redis's own proto-max-bulk-len is 512 MB; ours is far lower because a
// node only ever reads its own small messages back.
struct ParseLimits {
    std::size_t max_bulk_bytes = 16 * 1024 * 1024;  // one bulk string
    std::size_t max_line_bytes = 64 * 1024;         // a simple string, an error, a length line
    std::size_t max_depth = 8;                      // arrays inside arrays
    std::size_t max_elements = 1 << 20;             // values in one top-level reply, all levels
};

enum class ParseErrorCode {
    BadType,         // a value starts with a byte other than + - : $ *
    BadLength,       // a length that is not a number, or negative other than -1 (nil)
    BadInteger,      // an integer reply that is not a 64-bit decimal
    MissingCrlf,     // a bulk string not followed by \r\n
    BulkTooLong,     // over max_bulk_bytes
    LineTooLong,     // no \r\n within max_line_bytes
    TooDeep,         // over max_depth
    TooManyElements  // over max_elements
};

struct ParseError {
    ParseErrorCode code;
    std::string detail;
    bool operator==(const ParseError&) const = default;
};

std::string_view to_string(ParseErrorCode code);

class Parser {
public:
    explicit Parser(ParseLimits limits = {});

    // Takes the next bytes of the stream and returns the replies they complete, in order. After
    // an error the stream cannot be resynchronised: every later feed returns the same error.
    std::expected<std::vector<Reply>, ParseError> feed(std::string_view bytes);

    // Bytes held that do not yet make a value (a partial line or bulk string).
    std::size_t buffered() const { return buffer_.size() - pos_; }
    // True inside a reply (some of it parsed or buffered).
    bool mid_reply() const { return in_bulk_ || !stack_.empty() || buffered() > 0; }
    const ParseLimits& limits() const { return limits_; }

private:
    // An array being filled: the values so far and how many it declared.
    struct Open {
        Reply array;
        std::size_t expected;
    };

    // Parses one value's header, or a bulk string's body, from the buffer; false when more bytes
    // are needed.
    std::expected<bool, ParseError> step(std::vector<Reply>& done);
    // Places a finished value in the open array, or in `done` at the top level.
    void place(Reply value, std::vector<Reply>& done);

    ParseLimits limits_;
    std::string buffer_;
    std::size_t pos_ = 0;             // first unconsumed byte of buffer_
    std::vector<Open> stack_;         // the arrays open around the next value
    std::size_t reply_elements_ = 0;  // values seen in the current top-level reply
    std::size_t pending_bulk_ = 0;    // a bulk string's length while its body is awaited
    bool in_bulk_ = false;
    std::expected<void, ParseError> state_;  // the error that stopped the stream, if any
};

}  // namespace xq::cluster
