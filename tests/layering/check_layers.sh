#!/usr/bin/env bash
# The architecture as a test: each library folder may include only its own headers and those of the
# layers below it (the table). common/ knows nothing of the protocol, server or client; the server
# and the client never include each other; a server layer never reaches up (rooms cannot see the
# dispatcher, the dispatcher cannot see sockets). Prints every forbidden include; exit 1 if any.
#
# usage: check_layers.sh PROJECT_ROOT
set -euo pipefail
cd "${1:?usage: check_layers.sh PROJECT_ROOT}"

dispatch="server/dispatch server/accounts server/ratings server/rooms server/store server/log proto common"
store_below="server/store server/accounts server/ratings server/log common"
declare -A allowed=(
  [common]="common"
  [proto]="proto common"
  [engine]="engine common"
  [text]="text"
  [tls]="tls"
  [tools]="tools text common"
  [server/accounts]="server/accounts"
  [server/rooms]="server/rooms server/accounts common"
  [server/store]="server/store/sqlite server/store/postgres $store_below"
  [server/store/sqlite]="server/store/sqlite $store_below"
  [server/store/postgres]="server/store/postgres $store_below"
  [server/log]="server/log"
  [server/ratings]="server/ratings"
  [server/dispatch]="$dispatch"
  [server/net]="server/net server/web server/node server/cluster tls $dispatch"
  [server/app]="server/app server/net server/web server/node server/cluster tls $dispatch"
  [client/net]="client/net tls proto common"
  [client/mirror]="client/mirror proto common"
  [client/model]="client/model common"
  [client/profile]="client/profile common"
  [client/online]="client/online client/model client/net client/mirror client/profile proto common"
  [client/records]="client/records text common"
  [client/computer]="client/computer client/model engine common"
  [client/view]="client/view client/records client/online client/computer client/model client/net client/mirror client/profile text common tls"
  [client]="client client/view client/records client/online client/computer client/model client/net client/mirror client/profile text common"
  [bot]="bot client/net client/mirror engine proto common tls"
  [server/cluster]="server/cluster server/log proto common"
  [server/web]="server/web server/log"
  [server/node]="server/node server/cluster $dispatch"
)

bad=0 checked=0
shopt -s nullglob
for folder in "${!allowed[@]}"; do
  files=("$folder"/*.h "$folder"/*.cpp)
  ((${#files[@]})) || continue
  checked=$((checked + ${#files[@]}))
  # One grep per folder and bash's own regex per line: a sed and a dirname per include line made
  # this test take ~30 s of CPU.
  while IFS= read -r hit; do
    file=${hit%%:*}
    [[ "${hit#*:}" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
    path=${BASH_REMATCH[1]}
    [[ "$path" == */* ]] || continue  # a header beside the file
    target=${path%/*}
    ok=0
    for a in ${allowed[$folder]}; do [[ "$target" == "$a" ]] && ok=1; done
    if ((!ok)); then
      echo "$file: includes \"$path\" (a $folder file may include only: ${allowed[$folder]})"
      bad=$((bad + 1))
    fi
  done < <(grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${files[@]}" || true)
done
((checked > 0)) || { echo "check_layers: no source files found below $PWD"; exit 1; }
echo "check_layers: $checked files, $bad forbidden includes"
((bad == 0))
