#pragma once
// Account names and the key that makes them unique.
//
// The rule (no ICU): a name is 3 to 20 characters, each an ASCII letter or digit, '_' or '-', or
// a CJK unified ideograph (U+4E00-U+9FFF, U+3400-U+4DBF); it starts with a letter, a digit or an
// ideograph, and does not begin with "guest" in any case (guests' generated names do). Everything
// else is refused: other scripts (Cyrillic 'а' poses as Latin 'a'), fullwidth forms ('Ａ'),
// compatibility ideographs (U+F900-U+FAFF, which NFKC maps onto unified ones), combining marks,
// spaces, control characters, invalid or overlong UTF-8. Within this repertoire NFKC changes
// nothing and case folding touches only ASCII letters, so NFKC + casefold is ASCII lower-casing:
// the canonical key is the name with A-Z lowered, and two names with one key are one account.

#include <expected>
#include <string>
#include <string_view>

namespace xq::server {

inline constexpr std::size_t kMinNameChars = 3;
inline constexpr std::size_t kMaxNameChars = 20;

// The canonical key of a valid name, or why it is refused (a sentence for the player).
std::expected<std::string, std::string> account_key(std::string_view name);

// The key a display name would have if it were an account name: the ASCII-lowered name when it
// passes the rule, else "" (a name outside the rule can never equal an account's).
std::string key_if_valid(std::string_view name);

// The server's computer opponents play under accounts of their own, one per level, keyed
// "bot level N": a space is outside the name rule, so no one can register or log in to one.
std::string computer_account_key(unsigned level);
bool is_computer_account(std::string_view key);

}  // namespace xq::server
