#pragma once
// Server certificates: the self-signed ECDSA P-256 pair a server makes on its first start (and
// reuses after), and the SHA-256 fingerprint by which a client pins one (and discovery announces).

#include <expected>
#include <filesystem>
#include <string>
#include <string_view>

#include <openssl/x509.h>

namespace xq::tls {

struct CertificateFiles {
    std::filesystem::path cert;  // PEM
    std::filesystem::path key;   // PEM, PKCS#8, unencrypted; mode 0600
};

// The pair a server keeps beside its database `db`: <db>.cert.pem and <db>.key.pem.
CertificateFiles files_beside(const std::filesystem::path& db);

// Lower-case hex SHA-256 of the certificate's DER encoding (64 characters), as `openssl x509
// -fingerprint -sha256` prints it without the colons. The one fingerprint function.
std::string fingerprint(X509* certificate);
// The fingerprint of the first certificate of a PEM file.
std::expected<std::string, std::string> fingerprint_of_file(const std::filesystem::path& cert);

// "ab12 cd34 ..." in groups of four, for people to compare by eye.
std::string display_fingerprint(std::string_view hex);

// A fresh ECDSA P-256 key and a self-signed certificate for it (10 years, CN `common_name`, SAN
// localhost and 127.0.0.1: clients pin it rather than check names), both files written
// atomically with mode 0600.
std::expected<void, std::string> make_self_signed(const CertificateFiles& files, std::string_view common_name);

// Reuses the pair when both files exist (true), else makes one (false: made now).
std::expected<bool, std::string> ensure_self_signed(const CertificateFiles& files, std::string_view common_name);

}  // namespace xq::tls
