#include "server/accounts/passwords.h"

#include <sodium.h>

#include "server/accounts/secret.h"

namespace xq::server {

PasswordCost interactive_cost() {
    return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE};
}

PasswordCost minimal_cost() { return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN}; }

std::optional<std::string> password_problem(std::string_view password) {
    if (password.size() < kMinPasswordBytes)
        return "a password is at least " + std::to_string(kMinPasswordBytes) + " bytes long";
    if (password.size() > kMaxPasswordBytes)
        return "a password is at most " + std::to_string(kMaxPasswordBytes) + " bytes long";
    return std::nullopt;
}

std::optional<std::string> hash_password(std::string_view password, PasswordCost cost) {
    if (!init_sodium()) return std::nullopt;
    char out[crypto_pwhash_STRBYTES];
    // crypto_pwhash_str_alg with ALG_ARGON2ID13: Argon2id whatever libsodium's default is.
    if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.ops, cost.memory,
                              crypto_pwhash_ALG_ARGON2ID13) != 0)
        return std::nullopt;
    return std::string(out);
}

bool verify_password(std::string_view hash, std::string_view password) {
    if (!init_sodium() || hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
    const std::string terminated(hash);  // the C API reads a NUL-terminated string
    return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

}  // namespace xq::server
