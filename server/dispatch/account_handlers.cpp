// Accounts: Register, Login (password or session token), Logout, ChangePassword; guests' names.
// The policy is in proto/README.md ("Accounts"). Argon2id runs on the password workers
// (PasswordWork); its completion comes back here on the loop thread, where the client is looked
// up again (it may have gone meanwhile). Everything else (throttles, the store's single-row
// statements) is quick and runs on the loop.

#include <chrono>

#include "proto/types.h"
#include "server/accounts/names.h"
#include "server/accounts/secret.h"
#include "server/dispatch/dispatcher.h"
#include "server/dispatch/wire.h"
#include "server/log/log.h"

namespace xq::server {
namespace {

using PE = proto::ErrorCode;
using proto::AccountsMode;

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

proto::ServerMessage try_later(std::uint64_t rid, std::chrono::milliseconds wait, std::string why) {
    auto out = wire::error(rid, PE::TryLater,
                           why + "; try again in " + std::to_string((wait.count() + 999) / 1000) + " s");
    std::get<proto::Error>(out.body).retry_after_ms = static_cast<std::uint64_t>(wait.count());
    return out;
}

// What a Login or ChangePassword with a wrong secret hears, whatever was wrong: a caller cannot
// tell an unknown name from a wrong password.
constexpr const char* kBadCredentials = "wrong name or password";

// Verified when the name has no account, so an unknown name costs as long as a wrong password.
const std::string& dummy_hash(PasswordCost cost) {
    static const std::string hash = hash_password("not anyone's password", cost).value_or("");
    return hash;
}

}  // namespace

std::string Dispatcher::guest_name(const Client& c) {
    if (config_.accounts == AccountsMode::Off || c.computer_level != 0) return c.hello_name;
    std::string name = c.hello_name;
    // A guest never goes by an account's name, even marked: "Ann (guest)" beside the account Ann
    // would still pass for her at a glance.
    if (const std::string key = key_if_valid(name); !key.empty()) {
        auto found = store_.find_account(key);
        if (!found || *found) name = "guest-" + std::to_string(c.peer->id());
    }
    return name + " (guest)";
}

bool Dispatcher::run_password_work(Client& c, std::uint64_t rid, std::function<void()> job,
                                   std::function<void(Client&)> done) {
    if (c.password_work) {
        send(c, try_later(rid, std::chrono::milliseconds(500), "your previous request is still being checked"));
        return false;
    }
    const ParticipantId who = c.peer->id();
    const bool queued = passwords_.submit(std::move(job), [this, alive = alive_, who, done = std::move(done)] {
        if (!*alive) return;
        const auto it = clients_.find(who);
        if (it == clients_.end()) return;  // gone meanwhile: nobody to answer
        it->second.password_work = false;
        done(it->second);
    });
    if (!queued) {
        send(c, try_later(rid, std::chrono::seconds(2), "the server is busy checking passwords"));
        return false;
    }
    // Inline work has already run `done`, which cleared the flag; the pool's has not.
    if (&passwords_ != &inline_passwords_) c.password_work = true;
    return true;
}

std::optional<std::pair<std::string, std::int64_t>> Dispatcher::open_session(Client& c, const std::string& account) {
    std::string token = new_session_token();
    const std::string hash = secret_hash(token);
    const std::int64_t now_ms = unix_ms();
    const std::int64_t expires = now_ms + std::chrono::duration_cast<std::chrono::milliseconds>(config_.session_lifetime).count();
    if (auto added = store_.add_session(hash, account, now_ms, expires); !added) {
        log(LogLevel::Error, "cannot store a login session: ", added.error().message);
        return std::nullopt;
    }
    c.session_token_hash = hash;
    return std::pair{std::move(token), expires};
}

void Dispatcher::log_in(Client& c, std::uint64_t rid, const AccountRecord& account, const std::string& token,
                        std::int64_t expires_at_ms) {
    c.account = account.key;
    c.name = account.name;
    proto::LoggedIn out{account.name, false, token, expires_at_ms, {}};
    // Second login from elsewhere: both sessions stay logged in, and the account's seats follow
    // the newest. Each seat gets a fresh token here (the older session's token dies); a Resume
    // with it moves the seat to this session.
    for (const auto& [id, color] : lobby_.seats_of_account(account.key)) {
        Room* room = lobby_.find(id);
        std::string fresh = room->reissue_token(color);
        outbox_.note_seat_token(*room, color);
        out.seats.push_back({wire::game_id(id), wire::side(color), "", std::move(fresh)});
    }
    send(c, {rid, std::move(out)});
}

void Dispatcher::on_register(Client& c, std::uint64_t rid, const proto::Register& m) {
    if (config_.accounts == AccountsMode::Off)
        return send(c, wire::error(rid, PE::AccountsDisabled, "this server has no accounts"));
    if (!c.account.empty()) return send(c, wire::error(rid, PE::BadRequest, "log out before registering another account"));
    if (c.computer_level != 0) return send(c, wire::error(rid, PE::BadRequest, "a computer opponent has no account"));
    auto key = account_key(m.name);
    if (!key) return send(c, wire::error(rid, PE::BadName, key.error()));
    if (auto weak = password_problem(m.password)) return send(c, wire::error(rid, PE::WeakPassword, *weak));
    const std::string address = throttle_address(c);
    if (const auto wait = registrations_.wait(address, now()); wait.count() > 0)
        return send(c, try_later(rid, wait, "too many accounts registered from your address"));
    auto existing = store_.find_account(*key);
    if (!existing) return send(c, wire::error(rid, PE::Internal, "the account store is unavailable"));
    if (*existing) return send(c, wire::error(rid, PE::NameTaken, "an account is already named that"));

    auto hash = std::make_shared<std::optional<std::string>>();
    run_password_work(
        c, rid, [hash, password = m.password, cost = config_.password_cost] { *hash = hash_password(password, cost); },
        [this, rid, hash, key = *key, name = m.name, address](Client& client) {
            if (!*hash) return send(client, wire::error(rid, PE::Internal, "the password could not be hashed"));
            AccountRecord account{key, name, **hash, unix_ms()};
            if (auto created = store_.create_account(account); !created) {
                // Two registrations of one name crossed while hashing: the second hears NameTaken.
                const bool taken = created.error().code == StoreErrorCode::Constraint;
                return send(client, wire::error(rid, taken ? PE::NameTaken : PE::Internal,
                                                taken ? "an account is already named that" : "the account store is unavailable"));
            }
            registrations_.registered(address, now());
            log(LogLevel::Info, "account registered: ", key);
            auto session = open_session(client, key);
            if (!session) return send(client, wire::error(rid, PE::Internal, "the login could not be stored"));
            log_in(client, rid, account, session->first, session->second);
        });
}

void Dispatcher::on_login(Client& c, std::uint64_t rid, const proto::Login& m) {
    if (config_.accounts == AccountsMode::Off)
        return send(c, wire::error(rid, PE::AccountsDisabled, "this server has no accounts"));
    if (c.computer_level != 0) return send(c, wire::error(rid, PE::BadRequest, "a computer opponent has no account"));
    const std::string address = throttle_address(c);
    if (const auto wait = address_throttle_.wait(address, now()); wait.count() > 0)
        return send(c, try_later(rid, wait, "too many failed logins from your address"));

    if (!m.session_token.empty()) {
        // A token is 256 random bits: no need for a slow hash, only for a lookup by its hash.
        const std::string hash = secret_hash(m.session_token);
        auto account_key_of = store_.session_account(hash, unix_ms());
        if (!account_key_of) return send(c, wire::error(rid, PE::Internal, "the account store is unavailable"));
        std::optional<AccountRecord> account;
        if (*account_key_of) {
            auto found = store_.find_account(**account_key_of);
            if (!found) return send(c, wire::error(rid, PE::Internal, "the account store is unavailable"));
            account = std::move(*found);
        }
        if (!account) {
            address_throttle_.failed(address, now());
            return send(c, wire::error(rid, PE::BadCredentials, "that session token is unknown, expired or revoked"));
        }
        c.session_token_hash = hash;
        return log_in(c, rid, *account, "", 0);
    }

    const std::string key = key_if_valid(m.name);
    const std::string account_throttle = "account " + key;
    if (!key.empty())
        if (const auto wait = account_throttle_.wait(account_throttle, now()); wait.count() > 0)
            return send(c, try_later(rid, wait, "too many failed logins for this account"));
    std::optional<AccountRecord> account;
    if (!key.empty()) {
        auto found = store_.find_account(key);
        if (!found) return send(c, wire::error(rid, PE::Internal, "the account store is unavailable"));
        account = std::move(*found);
    }
    const std::string stored = account ? account->password_hash : dummy_hash(config_.password_cost);
    auto ok = std::make_shared<bool>(false);
    run_password_work(
        c, rid,
        [ok, stored, password = m.password, real = account.has_value()] {
            *ok = verify_password(stored, password) && real;
        },
        [this, rid, ok, account, address, account_throttle](Client& client) {
            if (!*ok) {
                address_throttle_.failed(address, now());
                if (account) account_throttle_.failed(account_throttle, now());
                return send(client, wire::error(rid, PE::BadCredentials, kBadCredentials));
            }
            account_throttle_.succeeded(account_throttle);
            auto session = open_session(client, account->key);
            if (!session) return send(client, wire::error(rid, PE::Internal, "the login could not be stored"));
            log_in(client, rid, *account, session->first, session->second);
        });
}

void Dispatcher::on_logout(Client& c, std::uint64_t rid) {
    if (config_.accounts == AccountsMode::Off)
        return send(c, wire::error(rid, PE::AccountsDisabled, "this server has no accounts"));
    if (c.account.empty()) return send(c, wire::error(rid, PE::AccountRequired, "you are not logged in"));
    if (!c.session_token_hash.empty())
        if (auto gone = store_.delete_session(c.session_token_hash); !gone)
            return send(c, wire::error(rid, PE::Internal, "the account store is unavailable"));
    c.account.clear();
    c.session_token_hash.clear();
    c.name = guest_name(c);
    send(c, {rid, proto::LoggedIn{c.name, true, "", 0, {}}});
}

void Dispatcher::on_change_password(Client& c, std::uint64_t rid, const proto::ChangePassword& m) {
    if (config_.accounts == AccountsMode::Off)
        return send(c, wire::error(rid, PE::AccountsDisabled, "this server has no accounts"));
    if (c.account.empty()) return send(c, wire::error(rid, PE::AccountRequired, "log in first"));
    if (auto weak = password_problem(m.new_password)) return send(c, wire::error(rid, PE::WeakPassword, *weak));
    const std::string account_throttle = "account " + c.account;
    if (const auto wait = account_throttle_.wait(account_throttle, now()); wait.count() > 0)
        return send(c, try_later(rid, wait, "too many wrong passwords for this account"));
    auto account = store_.find_account(c.account);
    if (!account || !*account) return send(c, wire::error(rid, PE::Internal, "the account store is unavailable"));
    struct Result {
        bool ok = false;
        std::optional<std::string> hash;
    };
    auto result = std::make_shared<Result>();
    run_password_work(
        c, rid,
        [result, stored = (*account)->password_hash, old_password = m.old_password, new_password = m.new_password,
         cost = config_.password_cost] {
            result->ok = verify_password(stored, old_password);
            if (result->ok) result->hash = hash_password(new_password, cost);
        },
        [this, rid, result, record = **account, account_throttle](Client& client) {
            if (!result->ok) {
                account_throttle_.failed(account_throttle, now());
                address_throttle_.failed(throttle_address(client), now());
                return send(client, wire::error(rid, PE::BadCredentials, "the old password is wrong"));
            }
            if (!result->hash || !store_.set_password_hash(record.key, *result->hash))
                return send(client, wire::error(rid, PE::Internal, "the password could not be changed"));
            auto session = open_session(client, record.key);
            if (!session) return send(client, wire::error(rid, PE::Internal, "the login could not be stored"));
            // Every other login of the account ends: whoever knew the old password is out.
            if (auto revoked = store_.delete_other_sessions(record.key, client.session_token_hash); !revoked)
                log(LogLevel::Error, "cannot revoke sessions: ", revoked.error().message);
            AccountRecord updated = record;
            log_in(client, rid, updated, session->first, session->second);
        });
}

void Dispatcher::mark_accounts(const RoomId& id) {
    Room* room = lobby_.find(id);
    if (!room) return;
    for (Color color : {Color::Red, Color::Black}) {
        const Seat& seat = room->seat(color);
        if (!seat.taken || !seat.account.empty()) continue;
        const auto client = clients_.find(seat.participant);
        if (client != clients_.end() && !client->second.account.empty()) room->set_account(color, client->second.account);
    }
    // What players and the lobby are shown: each account's rating at the game's speed.
    const auto speed = timekeeping::speed_of(room->time_control());
    for (Color color : {Color::Red, Color::Black})
        if (room->seat(color).taken) room->set_rating(color, ratings_.shown(room->seat(color).account, speed));
}

}  // namespace xq::server
