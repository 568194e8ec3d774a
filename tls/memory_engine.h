#pragma once
// TLS over memory: OpenSSL driven directly through two memory BIOs, ciphertext in and out as
// plain bytes, so the caller moves them with its own socket reads and writes. Asio's ssl::stream
// costs an asynchronous operation per read and write and holds a BIO pair and two 17 KiB record
// buffers per connection (about 80 KB); here a frame is one SSL_write into memory, the caller
// writes the ciphertext with the same system call a plain frame takes, and an idle connection
// keeps its SSL object and small BIO buffers only (SSL_MODE_RELEASE_BUFFERS). The server's
// sessions and the load generator share it.

#include <cstddef>
#include <string>
#include <string_view>

#include "tls/asio.h"

namespace xq::tls {

class MemoryEngine {
public:
    enum class Role { Client, Server };
    enum class Status {
        Done,    // the handshake finished; or (read) all fed ciphertext was decrypted
        More,    // more ciphertext is needed
        Closed,  // the peer sent close_notify
        Failed,  // a TLS error (error() says which); the connection cannot go on
    };

    MemoryEngine(ssl::context& context, Role role);
    ~MemoryEngine();
    MemoryEngine(const MemoryEngine&) = delete;
    MemoryEngine& operator=(const MemoryEngine&) = delete;

    SSL* native_handle() { return ssl_; }

    // Ciphertext from the peer, kept until the handshake or read() takes it.
    void feed(std::string_view ciphertext);
    // Advances the handshake with what was fed; its replies wait in the output.
    Status handshake();
    bool handshake_done() const;
    // Decrypts into `buffer`; `n` is what it wrote. Done with n == 0 once all fed ciphertext is
    // used; call again while n > 0.
    Status read(char* buffer, std::size_t size, std::size_t& n);
    // Encrypts `plaintext` (after `prefix`, in one record when both fit) into the output.
    bool write(std::string_view prefix, std::string_view plaintext);
    // Queues close_notify in the output.
    void shutdown();
    bool peer_closed() const;  // the peer's close_notify has been read

    // Ciphertext waiting to go to the peer.
    std::size_t output_size() const;
    // Moves the waiting ciphertext to the end of `out`.
    void take_output(std::string& out);
    // The last failure, as OpenSSL words it.
    const std::string& error() const { return error_; }

private:
    Status failed(int ret);

    SSL* ssl_;
    BIO* in_;   // ciphertext from the peer (owned by ssl_)
    BIO* out_;  // ciphertext to the peer (owned by ssl_)
    std::string error_;
};

}  // namespace xq::tls
