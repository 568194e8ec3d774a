#include "client/net/trust.h"

#include <fstream>
#include <sstream>

#include "tls/certificate.h"
#include "tls/private_file.h"

namespace xq::client {
namespace {

constexpr std::string_view kPrefix = "sha256:";

bool is_fingerprint(std::string_view hex) {
    return hex.size() == 64 && hex.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

TrustDecision judge(bool chain_ok, const std::string& presented, const std::optional<std::string>& known,
                    const Security& security) {
    if (chain_ok) return {TrustVerdict::TrustedByCa, {}, false};
    if (known) {
        if (*known == presented) return {TrustVerdict::TrustedPinned, *known, false};
        return {TrustVerdict::Changed, *known, false};
    }
    if (!security.expected.empty()) {
        // Discovery (or the local server) said one thing and the handshake shows another.
        if (security.expected != presented) return {TrustVerdict::Changed, security.expected, false};
        return {TrustVerdict::TrustedNew, {}, true};
    }
    if (security.accept_new) return {TrustVerdict::TrustedNew, {}, true};
    return {TrustVerdict::Unknown, {}, false};
}

KnownHosts KnownHosts::load(const std::filesystem::path& path) {
    KnownHosts hosts;
    hosts.path_ = path;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string server, fingerprint;
        if (!(words >> server >> fingerprint) || !fingerprint.starts_with(kPrefix)) continue;
        fingerprint.erase(0, kPrefix.size());
        if (is_fingerprint(fingerprint)) hosts.entries_[server] = fingerprint;
    }
    return hosts;
}

std::optional<std::string> KnownHosts::find(const std::string& server) const {
    const auto it = entries_.find(server);
    if (it == entries_.end()) return std::nullopt;
    return it->second;
}

std::expected<void, std::string> KnownHosts::remember(const std::string& server, const std::string& fingerprint) {
    if (!is_fingerprint(fingerprint) || server.empty() || server.find_first_of(" \t\n") != std::string::npos)
        return std::unexpected("not a server and fingerprint: '" + server + "' '" + fingerprint + "'");
    entries_[server] = fingerprint;
    if (path_.empty()) return {};
    std::string text = "# servers this client has trusted: HOST:PORT sha256:FINGERPRINT (xiangqi)\n";
    for (const auto& [name, hex] : entries_) text += name + " " + std::string(kPrefix) + hex + "\n";
    return tls::write_private_file(path_, text);
}

std::filesystem::path known_hosts_in(const std::filesystem::path& config_dir) { return config_dir / "known_hosts"; }

std::string changed_message(const std::string& server, const std::string& known, const std::string& presented) {
    return "refused: the certificate of " + server +
           " has changed. Someone may be intercepting the connection, or the server was reinstalled. "
           "Remembered fingerprint: " + tls::display_fingerprint(known) +
           ". Presented now: " + tls::display_fingerprint(presented) +
           ". If the server's operator confirms the new one, remove its line from known_hosts.";
}

}  // namespace xq::client
