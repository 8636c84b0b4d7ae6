#!/usr/bin/env bash
# The instructions one streamed download costs a server, counted by callgrind (valgrind), which
# the machine's load does not change: the server (a compiled peer, bench/.tmp/dist/bench/peers/
# <name>.js, made by `npx tsc -p tsconfig.bench.json`) runs under callgrind on 127.0.0.1:<port>;
# one warm-up download of <warm-chunks> 64 KiB chunks, then the counters are zeroed
# (callgrind_control -z), one download of <measured-chunks> is measured, the counters dumped
# (-d), and the total instructions of the measured download printed (user space, the whole
# process, compile threads included). --single-threaded runs node with a deterministic JIT
# (no concurrent compile threads). Session 10 in bench/RESULTS.md used 256 and 4096.
#
#   bench/streaming/callgrind-download.sh <server.js> <port> <warm-chunks> <measured-chunks> <tag> [--single-threaded]
#
# Needs valgrind (Debian package). Loopback only; waits at most 240 s for the server to listen;
# the downloads are bounded by download-runs.ts (60 s each); the server is stopped at the end.
# The callgrind files go to ${TMPDIR:-/tmp}/twinport-callgrind/ (callgrind_annotate reads them).
set -euo pipefail
if [ $# -lt 5 ]; then
  echo "usage: $0 <server.js> <port> <warm-chunks> <measured-chunks> <tag> [--single-threaded]" >&2
  exit 2
fi
SERVER=$1 PORT=$2 WARM=$3 MEASURED=$4 TAG=$5
NODE_FLAGS=()
if [ "${6:-}" = "--single-threaded" ]; then NODE_FLAGS=(--single-threaded); fi
# valgrind's tools read these; a root shell in a container may have neither.
export USER=${USER:-$(id -un)} LOGNAME=${LOGNAME:-$(id -un)}
OUT_DIR=${TMPDIR:-/tmp}/twinport-callgrind
mkdir -p "$OUT_DIR"
OUT=$OUT_DIR/cg.$TAG
rm -f "$OUT" "$OUT".*
cd "$(dirname "$0")/../.."

PORT=$PORT HOST=127.0.0.1 UPLOAD_DIR=${TMPDIR:-/tmp} valgrind --tool=callgrind --smc-check=all-non-file \
  --callgrind-out-file="$OUT" node "${NODE_FLAGS[@]}" "$SERVER" >"$OUT_DIR/cg.$TAG.log" 2>&1 &
VPID=$!
stop() {
  kill -INT "$VPID" 2>/dev/null || true
  sleep 3
  kill -9 "$VPID" 2>/dev/null || true
}
trap stop EXIT

for _ in $(seq 1 240); do
  if (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
  sleep 1
done
node --import tsx bench/streaming/download-runs.ts "$PORT" 1 "$WARM" >/dev/null
callgrind_control -z "$VPID" >/dev/null
node --import tsx bench/streaming/download-runs.ts "$PORT" 1 "$MEASURED"
callgrind_control -d "$VPID" >/dev/null
sleep 1
FILE=$(ls -t "$OUT".* 2>/dev/null | grep -v '\.log$' | head -1 || true)
if [ -z "$FILE" ]; then
  echo "$TAG: no callgrind dump (see $OUT_DIR/cg.$TAG.log)" >&2
  exit 1
fi
echo "$TAG measured instructions: $(grep -m1 -E '^(summary|totals):' "$FILE") ($FILE)"
