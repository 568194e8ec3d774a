#!/usr/bin/env bash
# Regenerates the protocol seeds in seeds/fuzz_frame and seeds/fuzz_dispatch from protobuf text
# (protoc --encode), so they stay readable here. The FEN, move and PGN seeds are plain text files.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proto_dir="$here/../proto"

# encode TYPE TEXT: the message's bytes on stdout.
encode() { protoc --encode="xiangqi.v1.$1" -I "$proto_dir" "$proto_dir/xiangqi.proto" <<<"$2"; }
# be32 N / be16 N: a big-endian length.
be32() { printf "\\x$(printf %02x $(($1 >> 24 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 & 255)))"; }
be16() { printf "\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 & 255)))"; }

# A frame: 4-byte length, then the payload.
frame() {
  local tmp
  tmp="$(mktemp)"
  encode "$1" "$2" >"$tmp"
  be32 "$(stat -c %s "$tmp")"
  cat "$tmp"
  rm -f "$tmp"
}

# A dispatch record: op byte (participant | time step << 2), 2-byte length, ClientMessage payload.
record() {
  local tmp
  tmp="$(mktemp)"
  encode ClientMessage "$2" >"$tmp"
  printf "\\x$(printf %02x "$1")"
  be16 "$(stat -c %s "$tmp")"
  cat "$tmp"
  rm -f "$tmp"
}

hello='hello {client: "fuzz" player_name: "NAME" protocol_version: 1}'
tc='time_control {base_minutes: 5 increment_seconds: 3}'

out="$here/seeds/fuzz_frame"
mkdir -p "$out"
# Byte 0 odd: the real 64 KiB limit; bytes 1-2 seed the chunk sizes.
{ printf '\x01\x12\x34'; frame ClientMessage "request_id: 1 ${hello/NAME/alice}"; frame ClientMessage "request_id: 2 create_game {$tc}"; } >"$out/client_hello_create"
{ printf '\x01\x00\x07'; frame ClientMessage 'request_id: 3 make_move {game_id: 17 move: "h2e2" move_id: 1 ply: 0}'; frame ClientMessage 'request_id: 4 send_chat {game_id: 17 channel: CHAT_CHANNEL_PLAYERS text: "好棋"}'; } >"$out/client_move_chat"
{ printf '\x01\xab\xcd'; frame ServerMessage 'request_id: 3 move_made {game_id: 17 version: 2 ply: 1 move: "h2e2" clock {red_ms: 298900 black_ms: 300000 running: SIDE_BLACK} move_id: 1}'; frame ServerMessage 'error {code: ILLEGAL_MOVE message: "no" game_id: 17}'; } >"$out/server_move_error"
{ printf '\x01\x55\x55'; frame ServerMessage 'request_id: 2 seated {game_id: 17 side: SIDE_RED resume_token: "q9Zr"}'; printf '\x00\x00\x00'; } >"$out/server_seated_cut"
{ printf '\x40\x00\x01'; frame ClientMessage 'request_id: 1 ping {nonce: 7}'; printf '\x00\x01\x00\x00'; } >"$out/small_limit_oversize"
{ printf '\x01\x21\x43'; frame ClientMessage 'request_id: 2 register_account {name: "Ann_Lee" password: "correct horse"}'; frame ClientMessage 'request_id: 3 login {session_token: "00112233"}'; frame ClientMessage 'request_id: 4 change_password {old_password: "a" new_password: "bbbbbbbb"}'; frame ClientMessage 'request_id: 5 logout {}'; } >"$out/client_accounts"
{ printf '\x01\x10\x01'; frame ServerMessage 'request_id: 2 logged_in {name: "Ann_Lee" session_token: "ff" expires_at_ms: 1800000000000 seats {game_id: 3 side: SIDE_RED resume_token: "t"}}'; frame ServerMessage 'resume_token {game_id: 3 resume_token: "u"}'; frame ServerMessage 'request_id: 6 error {code: TRY_LATER message: "wait" retry_after_ms: 4000}'; } >"$out/server_accounts"

out="$here/seeds/fuzz_dispatch"
mkdir -p "$out"
# Participant 0 creates a game (room 1), participant 1 joins, they play, participant 2 watches.
{
  record 0 "request_id: 1 ${hello/NAME/alice}"
  record 1 "request_id: 1 ${hello/NAME/bob}"
  record 2 "request_id: 1 ${hello/NAME/carol}"
  record 0 "request_id: 2 create_game {$tc color: COLOR_CHOICE_RED}"
  record 1 'request_id: 2 join_game {game_id: 1}'
  record 2 'request_id: 2 watch_game {game_id: 1}'
  record 4 'request_id: 3 make_move {game_id: 1 move: "h2e2" move_id: 1 ply: 0}'
  record 5 'request_id: 3 make_move {game_id: 1 move: "h9g7" move_id: 1 ply: 1}'
  record 0 'request_id: 4 make_move {game_id: 1 move: "h0g2" move_id: 2 ply: 2}'
  record 1 'request_id: 4 make_offer {game_id: 1 kind: OFFER_KIND_DRAW}'
  record 0 'request_id: 5 answer_offer {game_id: 1 kind: OFFER_KIND_DRAW accept: false}'
  record 2 'request_id: 3 send_chat {game_id: 1 channel: CHAT_CHANNEL_SPECTATORS text: "central cannon!"}'
  record 0 'request_id: 6 send_chat {game_id: 1 channel: CHAT_CHANNEL_PLAYERS text: "hi"}'
  record 1 'request_id: 5 make_offer {game_id: 1 kind: OFFER_KIND_TAKEBACK}'
  record 0 'request_id: 7 answer_offer {game_id: 1 kind: OFFER_KIND_TAKEBACK accept: true}'
  record 1 'request_id: 6 resign {game_id: 1}'
  printf '\xe0'  # sweep
} >"$out/game_to_resignation"
# Quick match, a drop and a resume with the seat's token ("r"/"b" stand for the real tokens).
{
  record 0 "request_id: 1 ${hello/NAME/ann}"
  record 1 "request_id: 1 ${hello/NAME/ben}"
  record 0 "request_id: 2 quick_match {$tc}"
  record 1 "request_id: 2 quick_match {$tc}"
  record 0 'request_id: 3 abort {game_id: 1}'
  record 0 "request_id: 4 create_game {time_control {base_minutes: 1 increment_seconds: 0 move_cap_seconds: 10} is_private: true}"
  record 1 'request_id: 3 join_game {game_id: 2 join_code: "*"}'
  printf '\xc1'  # participant 1 drops and comes back as a new session
  record 1 "request_id: 1 ${hello/NAME/ben}"
  record 1 'request_id: 2 resume {game_id: 2 token: "b" last_version: 1}'
  record 0 'request_id: 5 make_move {game_id: 2 move: "b2e2" move_id: 9 ply: 0}'
  record 20 'request_id: 6 make_move {game_id: 2 move: "b2e2" move_id: 9 ply: 0}'
  record 17 'request_id: 3 leave {game_id: 2}'
} >"$out/quick_match_resume_flag"
# Accounts: a registration, a guest named like the account, wrong and right passwords, a token
# login, a game whose seat follows the account's second login, logout and a password change.
{
  record 0 "request_id: 1 ${hello/NAME/ann}"
  record 1 "request_id: 1 ${hello/NAME/Ann}"
  record 0 'request_id: 2 register_account {name: "Ann" password: "correct horse"}'
  record 1 'request_id: 2 register_account {name: "ANN" password: "correct horse"}'
  record 1 'request_id: 3 login {name: "ann" password: "wrong password"}'
  record 1 'request_id: 4 login {session_token: "0011223344556677"}'
  record 0 "request_id: 3 create_game {$tc color: COLOR_CHOICE_RED}"
  record 2 "request_id: 1 ${hello/NAME/bob}"
  record 2 'request_id: 2 join_game {game_id: 1}'
  record 4 'request_id: 4 make_move {game_id: 1 move: "h2e2" move_id: 1 ply: 0}'
  record 1 'request_id: 5 login {name: "ann" password: "correct horse"}'
  record 1 'request_id: 6 resume {game_id: 1 token: "r" last_version: 0}'
  record 0 'request_id: 5 make_move {game_id: 1 move: "h0g2" move_id: 2 ply: 1}'
  record 1 'request_id: 7 change_password {old_password: "correct horse" new_password: "battery staple"}'
  record 0 'request_id: 6 logout {}'
  record 0 'request_id: 7 logout {}'
  record 2 'request_id: 3 register_account {name: "bad name!" password: "x"}'
} >"$out/accounts_second_login"
