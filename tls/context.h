#pragma once
// TLS contexts for both ends, and what a client learns of the server's certificate during the
// handshake. TLS 1.3 only: every peer is this project's own code on OpenSSL 3, so there is no
// older client to serve, and 1.3 hides the certificate from an on-path observer.

#include <expected>
#include <memory>
#include <string>

#include "tls/asio.h"
#include "tls/certificate.h"

namespace xq::tls {

// The server's context: the certificate chain and key of `files`. No session tickets: clients
// do not resume, and each ticket costs the server a signature-free but measurable 35 µs.
std::expected<std::shared_ptr<ssl::context>, std::string> server_context(const CertificateFiles& files);

// The client's context, with the system's trust store loaded (honours SSL_CERT_FILE/SSL_CERT_DIR).
std::shared_ptr<ssl::context> client_context();

// What the handshake showed of the server: whether its chain verified against the trust store
// (and the host name, when one was set with SSL_set1_host), and its leaf certificate's
// fingerprint. The client decides afterwards (trust store, pinned fingerprint, or ask).
struct PeerRecord {
    bool chain_ok = true;
    int error = 0;  // X509_V_ERR_* of the first failure
    std::string fingerprint;
};

// A verify callback that records into a PeerRecord and lets the handshake finish, so that the
// client can decide (and say why) before it sends a single byte of its own.
struct PeerRecorder {
    std::shared_ptr<PeerRecord> record;
    bool operator()(bool preverified, ssl::verify_context& context) const;
};

// SNI and the name (or address) check of `host`, on a client's SSL object.
void prepare_client(SSL* ssl, const std::string& host);

// Sets up a client stream's verification: records the peer into `record` and checks `host`
// (a DNS name or an IP address) against the certificate, with SNI for a DNS name.
template <class Stream>
void verify_server(ssl::stream<Stream>& stream, const std::string& host, std::shared_ptr<PeerRecord> record) {
    stream.set_verify_mode(ssl::verify_peer);
    stream.set_verify_callback(PeerRecorder{std::move(record)});
    prepare_client(stream.native_handle(), host);
}

// The text of an X509_V_ERR_* code ("self-signed certificate", "hostname mismatch").
std::string verify_error_text(int error);

}  // namespace xq::tls
