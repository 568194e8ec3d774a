#pragma once
// Whether the client trusts the server it reached (issue 18): a certificate that chains to the
// system's trust store (and names the host) passes; otherwise its fingerprint must be the one
// remembered for that server (like SSH's known_hosts), or one learnt beforehand from a source
// the client trusts (LAN discovery, the local server it started), or the person says yes on
// first contact. A changed fingerprint for a known server is refused.

#include <expected>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace xq::client {

struct Security {
    bool plain = false;  // no TLS at all: only when the person (or a test) asks, never as a fallback
    // The fingerprint this server is expected to show (from LAN discovery, a local server's log, or
    // --fingerprint): a match is trusted without a question and remembered.
    std::string expected;
    std::filesystem::path known_hosts;  // where fingerprints are remembered; empty: nowhere
    // A server never seen before is trusted without asking (the headless bot and load generator,
    // like ssh's StrictHostKeyChecking=accept-new); else the link stops and asks.
    bool accept_new = false;
};

// What the handshake showed, judged. Trusted* may go on; Unknown asks; Changed refuses.
enum class TrustVerdict { TrustedByCa, TrustedPinned, TrustedNew, Unknown, Changed };
struct TrustDecision {
    TrustVerdict verdict = TrustVerdict::Unknown;
    std::string known;  // the fingerprint remembered or expected (Changed)
    bool remember = false;  // TrustedNew: write it to known_hosts
};

// `chain_ok`: the chain verified against the trust store, host name included. `known`: what
// known_hosts holds for this server.
TrustDecision judge(bool chain_ok, const std::string& presented, const std::optional<std::string>& known,
                    const Security& security);

// known_hosts: one "HOST:PORT sha256:HEX" line per server, mode 0600.
class KnownHosts {
public:
    // A missing file is an empty list; malformed lines are skipped.
    static KnownHosts load(const std::filesystem::path& path);
    std::optional<std::string> find(const std::string& server) const;
    // Adds or replaces, and writes the file atomically.
    std::expected<void, std::string> remember(const std::string& server, const std::string& fingerprint);

private:
    std::filesystem::path path_;
    std::map<std::string, std::string> entries_;
};

// The default file: known_hosts in the client's config folder.
std::filesystem::path known_hosts_in(const std::filesystem::path& config_dir);

// The refusal's text, naming both fingerprints (shown on screen and in the bot's log).
std::string changed_message(const std::string& server, const std::string& known, const std::string& presented);

}  // namespace xq::client
