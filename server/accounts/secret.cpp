#include "server/accounts/secret.h"

#include <sodium.h>

#include <array>

namespace xq::server {

bool init_sodium() {
    static const bool ready = sodium_init() >= 0;  // C++ makes this initialisation thread-safe
    return ready;
}

namespace {

std::string to_hex(const unsigned char* data, std::size_t size) {
    std::string out(size * 2 + 1, '\0');
    sodium_bin2hex(out.data(), out.size(), data, size);
    out.pop_back();
    return out;
}

}  // namespace

std::string random_hex(std::size_t bytes) {
    init_sodium();
    std::string raw(bytes, '\0');
    randombytes_buf(raw.data(), raw.size());
    std::string out = to_hex(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
    sodium_memzero(raw.data(), raw.size());
    return out;
}

std::string secret_hash(std::string_view secret) {
    init_sodium();
    std::array<unsigned char, crypto_generichash_BYTES> digest{};  // 32 bytes
    crypto_generichash(digest.data(), digest.size(), reinterpret_cast<const unsigned char*>(secret.data()),
                       secret.size(), nullptr, 0);
    return to_hex(digest.data(), digest.size());
}

bool equal_in_constant_time(std::string_view a, std::string_view b) {
    if (a.size() != b.size() || a.empty()) return false;
    return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace xq::server
