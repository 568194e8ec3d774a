#include "tls/memory_engine.h"

#include <array>
#include <stdexcept>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace xq::tls {
namespace {

// A frame's header and payload copied together, so that they go out as one record.
thread_local std::string joined;

}  // namespace

MemoryEngine::MemoryEngine(ssl::context& context, Role role) : ssl_(SSL_new(context.native_handle())) {
    if (!ssl_) throw std::runtime_error("SSL_new failed");
    in_ = BIO_new(BIO_s_mem());
    out_ = BIO_new(BIO_s_mem());
    // An empty input reads as "retry", not as the end of the stream: more may come.
    BIO_set_mem_eof_return(in_, -1);
    BIO_set_mem_eof_return(out_, -1);
    SSL_set_bio(ssl_, in_, out_);
    // The 17 KiB record buffers go back to the heap whenever a connection has nothing in flight.
    SSL_set_mode(ssl_, SSL_MODE_RELEASE_BUFFERS);
    if (role == Role::Server) SSL_set_accept_state(ssl_);
    else SSL_set_connect_state(ssl_);
}

MemoryEngine::~MemoryEngine() { SSL_free(ssl_); }

void MemoryEngine::feed(std::string_view ciphertext) {
    if (!ciphertext.empty()) BIO_write(in_, ciphertext.data(), static_cast<int>(ciphertext.size()));
}

MemoryEngine::Status MemoryEngine::handshake() {
    ERR_clear_error();  // SSL_get_error reads the thread's error queue: nothing stale may be in it
    const int ret = SSL_do_handshake(ssl_);
    return ret == 1 ? Status::Done : failed(ret);
}

bool MemoryEngine::handshake_done() const { return SSL_is_init_finished(ssl_) == 1; }

MemoryEngine::Status MemoryEngine::read(char* buffer, std::size_t size, std::size_t& n) {
    n = 0;
    // Nothing fed and nothing decrypted waiting: done without a call into OpenSSL (the call after
    // each record's plaintext would otherwise only find out, at the cost of a failed read).
    if (SSL_pending(ssl_) == 0 && BIO_ctrl_pending(in_) == 0) return Status::Done;
    ERR_clear_error();
    const int ret = SSL_read_ex(ssl_, buffer, size, &n);
    if (ret == 1) return Status::Done;
    const Status status = failed(ret);
    return status == Status::More ? Status::Done : status;
}

bool MemoryEngine::write(std::string_view prefix, std::string_view plaintext) {
    std::string_view whole = plaintext;
    if (!prefix.empty()) {
        joined.assign(prefix);
        joined.append(plaintext);
        whole = joined;
    }
    std::size_t written = 0;
    ERR_clear_error();
    // A memory BIO takes everything, so a write either completes or fails.
    if (SSL_write_ex(ssl_, whole.data(), whole.size(), &written) == 1) return true;
    failed(0);
    return false;
}

void MemoryEngine::shutdown() {
    ERR_clear_error();
    SSL_shutdown(ssl_);
}

bool MemoryEngine::peer_closed() const { return (SSL_get_shutdown(ssl_) & SSL_RECEIVED_SHUTDOWN) != 0; }

std::size_t MemoryEngine::output_size() const { return BIO_ctrl_pending(out_); }

void MemoryEngine::take_output(std::string& out) {
    const std::size_t n = BIO_ctrl_pending(out_);
    if (n == 0) return;
    const std::size_t at = out.size();
    out.resize(at + n);
    std::size_t got = 0;
    BIO_read_ex(out_, out.data() + at, n, &got);
    out.resize(at + got);
}

MemoryEngine::Status MemoryEngine::failed(int ret) {
    switch (SSL_get_error(ssl_, ret)) {
        case SSL_ERROR_WANT_READ:
        case SSL_ERROR_WANT_WRITE: return Status::More;
        case SSL_ERROR_ZERO_RETURN: return Status::Closed;
        default: break;
    }
    std::array<char, 256> text{};
    const unsigned long code = ERR_get_error();
    ERR_error_string_n(code, text.data(), text.size());
    error_ = code ? text.data() : "TLS failure";
    ERR_clear_error();
    return Status::Failed;
}

}  // namespace xq::tls
