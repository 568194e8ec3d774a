#include "tls/private_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace xq::tls {

std::expected<void, std::string> write_private_file(const std::filesystem::path& path, std::string_view bytes) {
    const auto failed = [&](const char* step, const std::filesystem::path& what) {
        return std::unexpected(std::string(step) + " " + what.string() + ": " + std::strerror(errno));
    };
    const auto folder = path.parent_path();
    if (!folder.empty() && !std::filesystem::exists(folder)) {
        std::error_code ec;
        std::filesystem::create_directories(folder, ec);
        if (ec) return std::unexpected("cannot create " + folder.string() + ": " + ec.message());
        ::chmod(folder.c_str(), 0700);
    }
    auto temporary = path;
    temporary += ".tmp" + std::to_string(::getpid());
    // O_NOFOLLOW: a link planted at the temporary name cannot redirect the key elsewhere.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return failed("cannot create", temporary);
    ::fchmod(fd, 0600);  // an old file at that name kept its mode through O_TRUNC
    std::size_t done = 0;
    while (done < bytes.size()) {
        const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            auto error = failed("cannot write", temporary);
            ::close(fd);
            ::unlink(temporary.c_str());
            return error;
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        auto error = failed("cannot sync", temporary);
        ::unlink(temporary.c_str());
        return error;
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        auto error = failed("cannot rename to", path);
        ::unlink(temporary.c_str());
        return error;
    }
    return {};
}

}  // namespace xq::tls
