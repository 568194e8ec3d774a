// tls/: the self-signed certificate a server makes on first start, its fingerprint, the
// contexts, and private files.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include <cstdio>
#include <fstream>

#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tls/certificate.h"
#include "tls/context.h"
#include "tls/private_file.h"

namespace xq::tls {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& what) {
    const auto dir = fs::temp_directory_path() / ("xq-tls-" + what + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

unsigned mode_of(const fs::path& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 0777 : 0;
}

std::string shell(const std::string& command) {
    std::string out;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        char buffer[256];
        while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
        ::pclose(pipe);
    }
    return out;
}

TEST(TlsCertificate, SelfSignedP256WithAPrivateKeyAndTheFingerprintOpensslPrints) {
    const auto dir = fresh_dir("cert");
    const auto files = files_beside(dir / "games.db");
    EXPECT_EQ(files.cert, dir / "games.db.cert.pem");
    ASSERT_TRUE(make_self_signed(files, "Club"));
    EXPECT_EQ(mode_of(files.key), 0600u);
    const auto fingerprint = fingerprint_of_file(files.cert);
    ASSERT_TRUE(fingerprint) << fingerprint.error();
    EXPECT_EQ(fingerprint->size(), 64u);
    // The openssl tool's own reading of the file, colons removed, lower case.
    std::string theirs = shell("openssl x509 -in '" + files.cert.string() + "' -noout -fingerprint -sha256");
    theirs = theirs.substr(theirs.find('=') + 1);
    std::string hex;
    for (char c : theirs)
        if (std::isxdigit(static_cast<unsigned char>(c))) hex += static_cast<char>(std::tolower(c));
    EXPECT_EQ(hex, *fingerprint);
    EXPECT_NE(shell("openssl x509 -in '" + files.cert.string() + "' -noout -text").find("prime256v1"), std::string::npos);
    EXPECT_NE(shell("openssl verify -CAfile '" + files.cert.string() + "' '" + files.cert.string() + "'").find("OK"),
              std::string::npos);
    // A server context takes the pair.
    EXPECT_TRUE(server_context(files));
    fs::remove_all(dir);
}

TEST(TlsCertificate, KeptAndReusedOnRestartNewWhenMissing) {
    const auto dir = fresh_dir("reuse");
    const auto files = files_beside(dir / "games.db");
    const auto first = ensure_self_signed(files, "x");
    ASSERT_TRUE(first);
    EXPECT_FALSE(*first);  // made now
    const auto fingerprint = *fingerprint_of_file(files.cert);
    const auto second = ensure_self_signed(files, "x");
    ASSERT_TRUE(second);
    EXPECT_TRUE(*second);  // reused
    EXPECT_EQ(*fingerprint_of_file(files.cert), fingerprint);
    fs::remove(files.cert);
    ASSERT_TRUE(ensure_self_signed(files, "x"));
    EXPECT_NE(*fingerprint_of_file(files.cert), fingerprint);
    fs::remove_all(dir);
}

// Nodes of a cluster started at once share the default path: one pair is made, all use it.
TEST(TlsCertificate, StartsAtOnceShareOnePair) {
    const auto dir = fresh_dir("race");
    const auto files = files_beside(dir / "games.db");
    std::vector<std::thread> starts;
    std::atomic<int> made = 0, failed = 0;
    for (int i = 0; i < 6; ++i)
        starts.emplace_back([&] {
            const auto r = ensure_self_signed(files, "x");
            if (!r) ++failed;
            else if (!*r) ++made;
        });
    for (auto& t : starts) t.join();
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(made, 1);
    EXPECT_TRUE(server_context(files));  // the key is the certificate's
    fs::remove_all(dir);
}

TEST(TlsCertificate, BadFilesAreErrorsNotCrashes) {
    const auto dir = fresh_dir("bad");
    EXPECT_FALSE(fingerprint_of_file(dir / "missing.pem"));
    std::ofstream(dir / "junk.pem") << "not a certificate";
    EXPECT_FALSE(fingerprint_of_file(dir / "junk.pem"));
    EXPECT_FALSE(server_context({dir / "junk.pem", dir / "junk.pem"}));
    // A key that is not the certificate's.
    const CertificateFiles a{dir / "a.cert", dir / "a.key"}, b{dir / "b.cert", dir / "b.key"};
    ASSERT_TRUE(make_self_signed(a, "a"));
    ASSERT_TRUE(make_self_signed(b, "b"));
    const auto mixed = server_context({a.cert, b.key});
    ASSERT_FALSE(mixed);
    EXPECT_NE(mixed.error().find("mismatch"), std::string::npos) << mixed.error();
    EXPECT_EQ(fingerprint(nullptr), "");
    fs::remove_all(dir);
}

TEST(TlsCertificate, FingerprintsShowInGroupsOfFour) {
    EXPECT_EQ(display_fingerprint("0123456789abcdef01"), "0123 4567 89ab cdef 01");
    EXPECT_EQ(display_fingerprint(""), "");
}

TEST(TlsPrivateFile, WrittenWholeWithMode0600EvenOverAReadableFile) {
    const auto dir = fresh_dir("private");
    const auto path = dir / "sub" / "secret";
    ASSERT_TRUE(write_private_file(path, "one"));
    EXPECT_EQ(mode_of(path), 0600u);
    EXPECT_EQ(mode_of(path.parent_path()), 0700u);
    ::chmod(path.c_str(), 0644);
    ASSERT_TRUE(write_private_file(path, "two"));
    EXPECT_EQ(mode_of(path), 0600u);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(text, "two");
    EXPECT_EQ(std::distance(fs::directory_iterator(path.parent_path()), {}), 1) << "a temporary was left behind";
    EXPECT_FALSE(write_private_file("/proc/no/such/place", "x"));
    fs::remove_all(dir);
}

}  // namespace
}  // namespace xq::tls
