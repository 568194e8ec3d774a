#include "server/web/upgrade.h"

#include <algorithm>
#include <cctype>

#include <openssl/evp.h>

namespace xq::server::web {

std::string websocket_accept(std::string_view key) {
    static constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    std::string input(key);
    input.append(kGuid);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    EVP_Digest(input.data(), input.size(), digest, &size, EVP_sha1(), nullptr);
    unsigned char encoded[4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1];
    const int n = EVP_EncodeBlock(encoded, digest, static_cast<int>(size));
    return std::string(reinterpret_cast<const char*>(encoded), static_cast<std::size_t>(n));
}

bool origin_allowed(std::string_view origin, std::string_view host) {
    if (origin.empty()) return true;
    std::string_view authority;
    if (origin.starts_with("https://")) authority = origin.substr(8);
    else if (origin.starts_with("http://")) authority = origin.substr(7);
    else return false;  // "null" (a sandboxed or file: page) and any other scheme
    if (host.empty() || authority.size() != host.size()) return false;
    return std::equal(authority.begin(), authority.end(), host.begin(), [](unsigned char a, unsigned char b) {
        return std::tolower(a) == std::tolower(b);
    });
}

}  // namespace xq::server::web
