#pragma once
// Secrets the server hands out and later checks: session tokens, seat (resume) tokens, join
// codes. Each is random, given to its owner once, and kept by the server only as a hash, so a
// copy of the database or a memory dump holds nothing a thief could present. Every comparison of
// a secret goes through equal_in_constant_time, the one such helper of the server.

#include <cstddef>
#include <string>
#include <string_view>

namespace xq::server {

// Initialises libsodium once (thread-safe; later calls return at once). False if it cannot be.
bool init_sodium();

// `bytes` random bytes from the system's generator (randombytes_buf), as lower-case hex.
std::string random_hex(std::size_t bytes);
// A session token: 256 random bits, 64 hex characters.
inline std::string new_session_token() { return random_hex(32); }

// The form in which a secret is stored: BLAKE2b-256 (crypto_generichash) in hex, 64 characters.
// A token of 128 or more random bits needs no salt or slow hash: it cannot be guessed, only stolen.
std::string secret_hash(std::string_view secret);

// Compares every byte whatever the first mismatch, so the time taken tells nothing of where a
// guess first differs (only the length, which is fixed for the server's own secrets). Empty
// strings never match: an unset secret is not a secret.
bool equal_in_constant_time(std::string_view a, std::string_view b);

// Whether `secret` hashes to `hash` (both compared in constant time).
inline bool matches_hash(std::string_view secret, std::string_view hash) {
    return !secret.empty() && equal_in_constant_time(secret_hash(secret), hash);
}

}  // namespace xq::server
