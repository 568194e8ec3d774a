#pragma once
// The profile on disk: state.json in the client's config folder ($XDG_CONFIG_HOME/xiangqi, else
// ~/.config/xiangqi). The folder is 0700 and the file 0600 (it holds resume tokens). Every change
// is read-modify-write under a lock, and written to a temporary file, synced and renamed over the
// old one: clients of the same user running at once never corrupt the file nor lose each other's
// seats. A damaged or unreadable file counts as empty, and is reported once.

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "client/profile/profile.h"

namespace xq::client {

class ProfileStore {
public:
    // The folder is created on the first write, not here.
    explicit ProfileStore(std::filesystem::path dir);
    // $XDG_CONFIG_HOME/xiangqi (if set and absolute), else $HOME/.config/xiangqi; nullopt when
    // neither is known.
    static std::optional<std::filesystem::path> default_dir();

    const std::filesystem::path& dir() const { return dir_; }
    std::filesystem::path file() const { return dir_ / "state.json"; }

    // What is saved; empty if nothing is, or if the file cannot be read (see take_problems).
    Profile load();
    // Applies `change` to the saved profile and writes it back; false (and a problem) if it could
    // not be written.
    bool update(const std::function<void(Profile&)>& change);
    // The session token of an account on `server` ("host:port"), kept so the next run logs in
    // without a password: one file per server under sessions/, 0600 in a 0700 folder, replaced
    // atomically. Forgotten on logout, or when the server no longer takes it.
    std::optional<std::string> session_token(const std::string& server) const;
    bool save_session_token(const std::string& server, const std::string& token);
    void forget_session_token(const std::string& server);
    std::filesystem::path session_file(const std::string& server) const;

    // What went wrong with the files since the last call, each problem once per store.
    std::vector<std::string> take_problems();

private:
    bool ensure_dir();
    bool write(const Profile& profile);
    bool write_private(const std::filesystem::path& path, const std::string& text);
    void problem(const std::string& text);

    std::filesystem::path dir_;
    std::set<std::string> reported_;
    std::vector<std::string> problems_;
};

}  // namespace xq::client
