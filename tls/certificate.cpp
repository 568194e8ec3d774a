#include "tls/certificate.h"

#include <memory>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include "tls/private_file.h"

namespace xq::tls {
namespace {

template <class T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using ExtPtr = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION, X509_EXTENSION_free>>;

// The most recent OpenSSL error as text, after what failed.
std::string openssl_error(std::string_view what) {
    std::string text(what);
    if (const unsigned long code = ERR_get_error()) {
        char buffer[256];
        ERR_error_string_n(code, buffer, sizeof buffer);
        text += ": ";
        text += buffer;
    }
    ERR_clear_error();
    return text;
}

std::string bio_text(BIO* bio) {
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    return n > 0 ? std::string(data, static_cast<std::size_t>(n)) : std::string();
}

bool add_extension(X509* cert, int nid, const char* value) {
    X509V3_CTX v3;
    X509V3_set_ctx_nodb(&v3);
    X509V3_set_ctx(&v3, cert, cert, nullptr, nullptr, 0);
    const ExtPtr ext(X509V3_EXT_nconf_nid(nullptr, &v3, nid, value));
    return ext && X509_add_ext(cert, ext.get(), -1) == 1;
}

}  // namespace

CertificateFiles files_beside(const std::filesystem::path& db) {
    auto cert = db, key = db;
    cert += ".cert.pem";
    key += ".key.pem";
    return {cert, key};
}

std::string fingerprint(X509* certificate) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (!certificate || X509_digest(certificate, EVP_sha256(), digest, &length) != 1) return {};
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += "0123456789abcdef"[digest[i] >> 4];
        hex += "0123456789abcdef"[digest[i] & 15];
    }
    return hex;
}

std::expected<std::string, std::string> fingerprint_of_file(const std::filesystem::path& cert) {
    const BioPtr bio(BIO_new_file(cert.c_str(), "r"));
    if (!bio) return std::unexpected(openssl_error("cannot open " + cert.string()));
    const X509Ptr x(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (!x) return std::unexpected(openssl_error("no certificate in " + cert.string()));
    return fingerprint(x.get());
}

std::string display_fingerprint(std::string_view hex) {
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 4) {
        if (i > 0) out += ' ';
        out += hex.substr(i, 4);
    }
    return out;
}

std::expected<void, std::string> make_self_signed(const CertificateFiles& files, std::string_view common_name) {
    const PkeyPtr key(EVP_EC_gen("P-256"));
    if (!key) return std::unexpected(openssl_error("cannot make a P-256 key"));
    const X509Ptr cert(X509_new());
    if (!cert) return std::unexpected(openssl_error("X509_new"));
    X509_set_version(cert.get(), 2);  // v3
    // A random positive 159-bit serial (RFC 5280 allows at most 20 octets).
    unsigned char serial[20];
    if (RAND_bytes(serial, sizeof serial) != 1) return std::unexpected(openssl_error("RAND_bytes"));
    serial[0] &= 0x7f;
    BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
    const bool serial_ok = bn && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
    BN_free(bn);
    if (!serial_ok) return std::unexpected(openssl_error("serial"));
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // clocks a little behind still accept it
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), 3650L * 24 * 3600);
    X509_NAME* name = X509_get_subject_name(cert.get());
    const std::string cn(common_name.empty() ? "xiangqi" : common_name.substr(0, 64));
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
    X509_set_issuer_name(cert.get(), name);
    X509_set_pubkey(cert.get(), key.get());
    if (!add_extension(cert.get(), NID_basic_constraints, "critical,CA:FALSE") ||
        !add_extension(cert.get(), NID_key_usage, "critical,digitalSignature") ||
        !add_extension(cert.get(), NID_ext_key_usage, "serverAuth") ||
        !add_extension(cert.get(), NID_subject_key_identifier, "hash") ||
        !add_extension(cert.get(), NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1"))
        return std::unexpected(openssl_error("certificate extensions"));
    if (X509_sign(cert.get(), key.get(), EVP_sha256()) <= 0) return std::unexpected(openssl_error("X509_sign"));

    const BioPtr key_pem(BIO_new(BIO_s_mem())), cert_pem(BIO_new(BIO_s_mem()));
    if (!key_pem || !cert_pem || PEM_write_bio_PrivateKey(key_pem.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1 ||
        PEM_write_bio_X509(cert_pem.get(), cert.get()) != 1)
        return std::unexpected(openssl_error("PEM encoding"));
    // The key first: a certificate without its key would be reused and fail to load.
    if (auto written = write_private_file(files.key, bio_text(key_pem.get())); !written) return written;
    return write_private_file(files.cert, bio_text(cert_pem.get()));
}

std::expected<bool, std::string> ensure_self_signed(const CertificateFiles& files, std::string_view common_name) {
    // Nodes of a cluster started together share the default path: under a lock, the first makes
    // the pair and the others reuse it (else each would serve its own, or a key not its cert's).
    const std::string lock_path = files.cert.string() + ".lock";
    std::error_code ec;
    std::filesystem::create_directories(files.cert.parent_path(), ec);
    const int lock = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0) return std::unexpected("cannot open " + lock_path);
    struct Unlock {
        int fd;
        ~Unlock() { ::close(fd); }  // closing releases the flock
    } unlock{lock};
    if (::flock(lock, LOCK_EX) != 0) return std::unexpected("cannot lock " + lock_path);
    if (std::filesystem::exists(files.cert, ec) && std::filesystem::exists(files.key, ec)) return true;
    if (auto made = make_self_signed(files, common_name); !made) return std::unexpected(made.error());
    return false;
}

}  // namespace xq::tls
