// The client's saved state (client/profile) on a real file system: what is written reads back the
// same, the folder and file are private, a damaged file is reported once and treated as empty,
// and clients of one user writing at the same time leave a whole file with every change in it.

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "client/profile/profile_store.h"

namespace xq::client {
namespace {

namespace fs = std::filesystem;

class ProfileStoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() / ("xq-profile-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }
    fs::path dir() const { return root_ / "xiangqi"; }

    static SavedSeat seat(std::string server, std::uint64_t id, Color side = Color::Red) {
        return {std::move(server), id, "token-" + std::to_string(id), side, 1'700'000'000'000 + static_cast<std::int64_t>(id),
                4242};
    }
    static unsigned mode(const fs::path& path) {
        struct stat st {};
        EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
        return st.st_mode & 0777;
    }
    void write_raw(const std::string& text) {
        fs::create_directories(dir());
        std::ofstream(dir() / "state.json") << text;
    }

    fs::path root_;
};

TEST_F(ProfileStoreTest, NothingSavedIsAnEmptyProfileAndNoProblem) {
    ProfileStore store(dir());
    EXPECT_EQ(store.load(), Profile{});
    EXPECT_TRUE(store.take_problems().empty());
    EXPECT_FALSE(fs::exists(dir())) << "reading alone creates nothing";
}

TEST_F(ProfileStoreTest, WhatIsSavedReadsBackTheSame) {
    ProfileStore store(dir());
    ASSERT_TRUE(store.update([](Profile& p) {
        p.last_server = "[::1]:7777";
        p.last_name = "安娜 \"ann\"";
        p.put_seat(seat("127.0.0.1:7777", 3, Color::Black));
        p.put_seat(seat("example.org:9000", 18446744073709551615ull));
    }));
    const Profile back = ProfileStore(dir()).load();
    EXPECT_EQ(back.last_server, "[::1]:7777");
    EXPECT_EQ(back.last_name, "安娜 \"ann\"");
    ASSERT_EQ(back.seats.size(), 2u);
    EXPECT_EQ(back.seats[0], seat("127.0.0.1:7777", 3, Color::Black));
    EXPECT_EQ(back.seats[1], seat("example.org:9000", 18446744073709551615ull));
    EXPECT_EQ(*back.seat_on("127.0.0.1:7777"), back.seats[0]);
    EXPECT_EQ(back.seat_on("127.0.0.1:7778"), nullptr);

    // A second update changes only what it touches.
    ASSERT_TRUE(store.update([](Profile& p) { EXPECT_TRUE(p.drop_seat("127.0.0.1:7777", 3)); }));
    const Profile after = store.load();
    EXPECT_EQ(after.last_name, "安娜 \"ann\"");
    ASSERT_EQ(after.seats.size(), 1u);
    EXPECT_EQ(after.seats[0].server, "example.org:9000");
    EXPECT_TRUE(store.take_problems().empty());
}

TEST_F(ProfileStoreTest, ASeatSavedAgainReplacesItAndTheNewestWins) {
    Profile p;
    p.put_seat(seat("h:1", 5));
    p.put_seat(seat("h:1", 6, Color::Black));
    auto again = seat("h:1", 5);
    again.token = "new";
    p.put_seat(again);
    ASSERT_EQ(p.seats.size(), 2u);
    EXPECT_EQ(p.seat_on("h:1")->token, "new");
    EXPECT_FALSE(p.drop_seat("h:2", 5));
    for (std::uint64_t id = 100; id < 100 + 2 * Profile::kMaxSeats; ++id) p.put_seat(seat("h:1", id));
    ASSERT_EQ(p.seats.size(), Profile::kMaxSeats);
    EXPECT_EQ(p.seats.front().game_id, 100 + Profile::kMaxSeats);  // the oldest went
}

TEST_F(ProfileStoreTest, FolderIsPrivateAndFileReadableOnlyByItsOwner) {
    ::umask(0);  // even a careless umask gives 0700 and 0600
    ProfileStore store(dir());
    ASSERT_TRUE(store.update([](Profile& p) { p.last_name = "ann"; }));
    ::umask(022);
    EXPECT_EQ(mode(dir()), 0700u);
    EXPECT_EQ(mode(store.file()), 0600u);
    EXPECT_EQ(mode(dir() / "state.lock"), 0600u);
    // A folder made wide open by someone else is made private again on the next write.
    fs::permissions(dir(), fs::perms::all);
    ASSERT_TRUE(store.update([](Profile& p) { p.last_name = "bob"; }));
    EXPECT_EQ(mode(dir()), 0700u);
    // No temporary file is left behind.
    for (const auto& entry : fs::directory_iterator(dir()))
        EXPECT_TRUE(entry.path().filename() == "state.json" || entry.path().filename() == "state.lock") << entry.path();
}

TEST_F(ProfileStoreTest, DamagedFileIsReportedOnceTreatedAsEmptyAndReplaced) {
    for (const std::string& damaged : {std::string("{\"format\": 1, \"seats\": [ {\"server\""), std::string("\x00\xff garbage", 10),
                                      std::string("[1, 2]"), std::string(R"({"format": 1, "seats": [{"server": "h:1"}]})"),
                                      std::string(R"({"format": 1, "seats": [{"server": "h:1", "game_id": 2, "token": "t",
                                                     "side": "green", "saved_at_ms": 0}]})"),
                                      std::string(R"({"format": 99})")}) {
        SCOPED_TRACE(damaged);
        write_raw(damaged);
        ProfileStore store(dir());
        EXPECT_EQ(store.load(), Profile{});
        const auto problems = store.take_problems();
        ASSERT_EQ(problems.size(), 1u);
        EXPECT_NE(problems[0].find("damaged"), std::string::npos) << problems[0];
        EXPECT_EQ(store.load(), Profile{});
        EXPECT_TRUE(store.take_problems().empty()) << "reported once";
        // The next change starts from empty and leaves a good file.
        ASSERT_TRUE(store.update([](Profile& p) { p.last_name = "ann"; }));
        EXPECT_EQ(ProfileStore(dir()).load().last_name, "ann");
    }
}

TEST_F(ProfileStoreTest, UnreadableFileOrFolderIsAProblemNotACrash) {
    // A state.json that cannot be read (a folder in its place: unreadable even for root).
    fs::create_directories(dir() / "state.json");
    ProfileStore store(dir());
    EXPECT_EQ(store.load(), Profile{});
    const auto unreadable = store.take_problems();
    ASSERT_EQ(unreadable.size(), 1u);
    EXPECT_NE(unreadable[0].find("cannot read"), std::string::npos) << unreadable[0];
    EXPECT_FALSE(store.update([](Profile& p) { p.last_name = "ann"; })) << "nor can it be replaced";
    EXPECT_EQ(store.take_problems().size(), 1u);

    // A config folder that cannot be created: the update fails and says why.
    ProfileStore blocked(root_ / "file-in-the-way" / "xiangqi");
    std::ofstream(root_ / "file-in-the-way") << "x";
    EXPECT_FALSE(blocked.update([](Profile& p) { p.last_name = "ann"; }));
    const auto problems = blocked.take_problems();
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("file-in-the-way"), std::string::npos) << problems[0];
}

TEST_F(ProfileStoreTest, DefaultFolderFollowsXdgConfigHomeElseHome) {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
    ::setenv("XDG_CONFIG_HOME", "/somewhere/config", 1);
    EXPECT_EQ(ProfileStore::default_dir(), fs::path("/somewhere/config/xiangqi"));
    ::setenv("XDG_CONFIG_HOME", "relative/config", 1);  // not absolute: ignored, as the spec says
    ::setenv("HOME", "/home/ann", 1);
    EXPECT_EQ(ProfileStore::default_dir(), fs::path("/home/ann/.config/xiangqi"));
    ::unsetenv("XDG_CONFIG_HOME");
    ::unsetenv("HOME");
    EXPECT_EQ(ProfileStore::default_dir(), std::nullopt);
    if (xdg) ::setenv("XDG_CONFIG_HOME", saved_xdg.c_str(), 1);
    if (home) ::setenv("HOME", saved_home.c_str(), 1);
}

// Several client processes of one user, each saving seats and its name as fast as it can, while
// this process reads: every read sees a whole file, the last writer's name stands, and no seat
// is lost (each change is a locked read-modify-write).
TEST_F(ProfileStoreTest, ClientsWritingAtOnceNeverCorruptTheFile) {
    constexpr int kWriters = 4, kSeatsEach = 7;
    static_assert(kWriters * kSeatsEach <= static_cast<int>(Profile::kMaxSeats));
    std::vector<pid_t> writers;
    for (int w = 0; w < kWriters; ++w) {
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            ProfileStore store(dir());
            bool ok = true;
            for (int i = 0; i < kSeatsEach; ++i)
                ok = store.update([&](Profile& p) {
                    p.last_name = "writer " + std::to_string(w);
                    p.put_seat(seat("h:" + std::to_string(w), static_cast<std::uint64_t>(i + 1)));
                }) && ok;
            ::_exit(ok ? 0 : 1);
        }
        writers.push_back(pid);
    }
    ProfileStore reader(dir());
    std::vector<int> exits(writers.size(), -1);
    int reads = 0;
    for (std::size_t running = writers.size(); running > 0; ++reads) {
        for (std::size_t i = 0; i < writers.size(); ++i) {
            int status = 0;
            if (exits[i] == -1 && ::waitpid(writers[i], &status, WNOHANG) == writers[i]) {
                exits[i] = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
                --running;
            }
        }
        (void)reader.load();
        ASSERT_TRUE(reader.take_problems().empty()) << "after " << reads << " reads";
    }
    for (int code : exits) EXPECT_EQ(code, 0) << "a writer could not save";
    const Profile last = reader.load();
    EXPECT_TRUE(reader.take_problems().empty());
    EXPECT_TRUE(last.last_name.starts_with("writer ")) << last.last_name;
    EXPECT_EQ(last.seats.size(), static_cast<std::size_t>(kWriters * kSeatsEach));
    for (int w = 0; w < kWriters; ++w)
        for (int i = 1; i <= kSeatsEach; ++i) {
            const std::string server = "h:" + std::to_string(w);
            EXPECT_EQ(std::count_if(last.seats.begin(), last.seats.end(),
                                    [&](const SavedSeat& s) { return s.server == server && s.game_id == static_cast<std::uint64_t>(i); }),
                      1) << server << " " << i;
        }
}

}  // namespace
}  // namespace xq::client
