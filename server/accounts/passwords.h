#pragma once
// Passwords, kept only as Argon2id hashes in libsodium's string form ("$argon2id$v=19$m=...,t=...,
// p=1$salt$hash": algorithm, cost and a random salt travel with the hash, so a later change of
// cost still verifies old hashes). Hashing and verifying are slow on purpose (about 70 ms and
// 64 MiB each at the default cost on this project's machines: bench/password_bench), so they run
// on a PasswordPool (password_pool.h), never on the server's loop.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace xq::server {

// Argon2id's cost: passes over memory (opslimit) and memory in bytes (memlimit).
struct PasswordCost {
    unsigned long long ops;
    std::size_t memory;
};
// libsodium's INTERACTIVE: t=2, 64 MiB. The server's cost.
PasswordCost interactive_cost();
// libsodium's MIN: t=1, 8 KiB. For the fuzzer only, whose inputs must run in milliseconds.
PasswordCost minimal_cost();

inline constexpr std::size_t kMinPasswordBytes = 8;
inline constexpr std::size_t kMaxPasswordBytes = 128;

// Why `password` is refused (too short or too long), or nullopt.
std::optional<std::string> password_problem(std::string_view password);

// The hash string; nullopt when libsodium cannot (out of memory).
std::optional<std::string> hash_password(std::string_view password, PasswordCost cost);
// Whether `password` is the one `hash` was made from. A malformed hash never verifies.
bool verify_password(std::string_view hash, std::string_view password);

}  // namespace xq::server
