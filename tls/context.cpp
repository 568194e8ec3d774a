#include "tls/context.h"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace xq::tls {

std::expected<std::shared_ptr<ssl::context>, std::string> server_context(const CertificateFiles& files) {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
    SSL_CTX* native = context->native_handle();
    SSL_CTX_set_min_proto_version(native, TLS1_3_VERSION);
    SSL_CTX_set_num_tickets(native, 0);
    SSL_CTX_set_options(native, SSL_OP_NO_TICKET);
    SSL_CTX_set_session_cache_mode(native, SSL_SESS_CACHE_OFF);
    // AES-128-GCM first (OpenSSL's default puts AES-256 first): as safe for a game and cheaper per
    // record, which is most of a move's TLS cost on the server's one thread.
    SSL_CTX_set_ciphersuites(native, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256");
    SSL_CTX_set_options(native, SSL_OP_CIPHER_SERVER_PREFERENCE);
    boost::system::error_code ec;
    context->use_certificate_chain_file(files.cert.string(), ec);
    if (ec) return std::unexpected("cannot load the certificate " + files.cert.string() + ": " + ec.message());
    context->use_private_key_file(files.key.string(), ssl::context::pem, ec);
    if (ec) return std::unexpected("cannot load the key " + files.key.string() + ": " + ec.message());
    if (SSL_CTX_check_private_key(native) != 1)
        return std::unexpected("the key " + files.key.string() + " does not match the certificate " + files.cert.string());
    return context;
}

std::shared_ptr<ssl::context> client_context() {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_3_VERSION);
    boost::system::error_code ignored;  // no trust store at all: every server is then pinned or asked about
    context->set_default_verify_paths(ignored);
    return context;
}

bool PeerRecorder::operator()(bool preverified, ssl::verify_context& context) const {
    X509_STORE_CTX* store = context.native_handle();
    if (!preverified && record->chain_ok) {
        record->chain_ok = false;
        record->error = X509_STORE_CTX_get_error(store);
    }
    if (X509_STORE_CTX_get_error_depth(store) == 0)
        record->fingerprint = fingerprint(X509_STORE_CTX_get_current_cert(store));
    return true;
}

void prepare_client(SSL* ssl, const std::string& host) {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    if (ec) {
        SSL_set_tlsext_host_name(ssl, host.c_str());  // SNI takes names only
        SSL_set1_host(ssl, host.c_str());
    } else {
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), address.to_string().c_str());
    }
}

std::string verify_error_text(int error) { return X509_verify_cert_error_string(error); }

}  // namespace xq::tls
