#include "profile_store.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace xq::client {

namespace {

namespace fs = std::filesystem;

std::string why() { return std::strerror(errno); }

// A file descriptor closed when it goes out of scope (which also releases a flock on it).
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int get() const { return fd_; }
    bool ok() const { return fd_ >= 0; }
    // Closes now and says whether the close (the last chance for a write error) succeeded.
    bool close() {
        const int fd = fd_;
        fd_ = -1;
        return ::close(fd) == 0;
    }

private:
    int fd_;
};

bool write_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

ProfileStore::ProfileStore(fs::path dir) : dir_(std::move(dir)) {}

std::optional<fs::path> ProfileStore::default_dir() {
    // The XDG spec ignores a relative XDG_CONFIG_HOME.
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg == '/') return fs::path(xdg) / "xiangqi";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "xiangqi";
    return std::nullopt;
}

void ProfileStore::problem(const std::string& text) {
    if (reported_.insert(text).second) problems_.push_back(text);
}

std::vector<std::string> ProfileStore::take_problems() {
    std::vector<std::string> out;
    out.swap(problems_);
    return out;
}

Profile ProfileStore::load() {
    const fs::path path = file();
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.ok()) {
        if (errno != ENOENT) problem("cannot read the saved client state " + path.string() + ": " + why());
        return {};
    }
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            problem("cannot read the saved client state " + path.string() + ": " + why());
            return {};
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > (1u << 20)) {  // a profile is a few kilobytes
            problem("the saved client state " + path.string() + " is too large; it is ignored");
            return {};
        }
    }
    auto profile = profile_from_json(text);
    if (!profile) {
        problem("the saved client state " + path.string() + " is damaged (" + profile.error() +
                "); the client starts without it");
        return {};
    }
    return std::move(*profile);
}

// The folder, private to the user: 0700 even if it was made wider before.
bool ProfileStore::ensure_dir() {
    std::error_code error;
    fs::create_directories(dir_, error);
    struct stat st {};
    if (::stat(dir_.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        problem("cannot create the client's config folder " + dir_.string() + ": " +
                (error ? error.message() : why()));
        return false;
    }
    if ((st.st_mode & 0777) != 0700 && ::chmod(dir_.c_str(), 0700) != 0) {
        problem("cannot make " + dir_.string() + " private (chmod 0700): " + why());
        return false;
    }
    return true;
}

bool ProfileStore::update(const std::function<void(Profile&)>& change) {
    if (!ensure_dir()) return false;
    // One lock file for all writers: the read, the change and the rename happen as one step.
    const fs::path lock_path = dir_ / "state.lock";
    Fd lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock.ok()) {
        problem("cannot open " + lock_path.string() + ": " + why());
        return false;
    }
    while (::flock(lock.get(), LOCK_EX) != 0)
        if (errno != EINTR) {
            problem("cannot lock " + lock_path.string() + ": " + why());
            return false;
        }
    Profile profile = load();
    change(profile);
    return write(profile);
}

bool ProfileStore::write(const Profile& profile) { return write_private(file(), to_json(profile)); }

// Temporary file (0600, from mkostemp), fsync, rename over `path`, fsync its folder: a crash
// leaves either the old file or the new one, never a part of one.
bool ProfileStore::write_private(const fs::path& path, const std::string& text) {
    const fs::path folder_path = path.parent_path();
    std::string temp = (folder_path / ("." + path.filename().string() + ".XXXXXX")).string();
    Fd fd(::mkostemp(temp.data(), O_CLOEXEC));
    if (!fd.ok()) {
        problem("cannot write in " + folder_path.string() + ": " + why());
        return false;
    }
    const bool written = ::fchmod(fd.get(), 0600) == 0 && write_all(fd.get(), text) && ::fsync(fd.get()) == 0 &&
                         fd.close() && ::rename(temp.c_str(), path.c_str()) == 0;
    if (!written) {
        problem("cannot save " + path.string() + ": " + why());
        ::unlink(temp.c_str());
        return false;
    }
    Fd folder(::open(folder_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (folder.ok()) ::fsync(folder.get());  // the rename itself made durable; best effort
    return true;
}

// One file per server, named by the server's address in hex (any "host:port" makes a safe name).
fs::path ProfileStore::session_file(const std::string& server) const {
    std::string name;
    for (const unsigned char ch : server) {
        name += "0123456789abcdef"[ch >> 4];
        name += "0123456789abcdef"[ch & 15];
    }
    return dir_ / "sessions" / (name + ".token");
}

std::optional<std::string> ProfileStore::session_token(const std::string& server) const {
    std::ifstream in(session_file(server));
    std::string token;
    if (!in || !std::getline(in, token) || token.empty()) return std::nullopt;
    return token;
}

bool ProfileStore::save_session_token(const std::string& server, const std::string& token) {
    if (!ensure_dir()) return false;
    const fs::path folder = session_file(server).parent_path();
    std::error_code error;
    fs::create_directory(folder, error);
    if (::chmod(folder.c_str(), 0700) != 0) {
        problem("cannot make " + folder.string() + " private (chmod 0700): " + why());
        return false;
    }
    return write_private(session_file(server), token + "\n");
}

void ProfileStore::forget_session_token(const std::string& server) {
    std::error_code ignored;
    fs::remove(session_file(server), ignored);
}

}  // namespace xq::client
