#!/bin/bash
# Where an upload's server CPU goes (bench/RESULTS.md "Session 14: where an upload's CPU goes"):
# for each round, each contender in turn is started pinned to CPU 0 (compiled peers from
# bench/.tmp/dist), then counted by `perf stat` (task-clock and syscall tracepoints: the counts do
# not depend on the machine's load) and by /proc/<pid>/stat utime/stime (user vs kernel, all
# threads) while `upload-runs.ts <port> <clients> <MiB>` runs on CPU 1 (its warm-up upload
# included: the server receives (clients + 1) × MiB). Figures are per GiB received.
# Contenders: twinport, twinport-native (`make -C native` first), fastify, raw-net (node:net
# discarding the body: the floor); twinport's `/hw<KiB>`
# sets writeFileFrom's highWaterMark (UPLOAD_HIGH_WATER), `@<dir>` takes the build from bench/.tmp/<dir>. DETAIL=1 prints each syscall's count;
# CLIENT_FLAGS='--count' (or --raw, --hash) is passed to upload-runs.ts.
#   npx tsc -p tsconfig.bench.json --outDir bench/.tmp/dist
#   bench/streaming/upload-syscalls.sh <rounds> <clients> <MiB> twinport twinport-native fastify
cd "$(dirname "$0")/../.."
rounds=$1 clients=$2 mib=$3; shift 3
port=$((7501 + $$ % 200))
dir=$(mktemp -d /tmp/twinport-upload-syscalls-XXXXXX)
trap 'rm -rf "$dir"' EXIT
S=syscalls:sys_enter_
EV=task-clock,context-switches,raw_syscalls:sys_enter,${S}read,${S}recvfrom,${S}readv,${S}write,${S}writev,${S}pwrite64,${S}pwritev,${S}pwritev2,${S}epoll_ctl,${S}epoll_wait,${S}epoll_pwait,${S}futex,${S}mmap,${S}munmap,${S}madvise,${S}io_uring_enter
tck=$(getconf CLK_TCK)
printf "%-5s %-16s %7s %7s %7s %7s | per GiB: %8s %8s %8s %8s %8s %8s %8s %8s %8s | %s\n" round contender "ms/GiB" "user" "sys" "load" syscalls "read" "KiB/read" "write(v)" "KiB/wr" epoll_ctl epoll_w futex mm+madv "ctx-sw"
for r in $(seq "$rounds"); do
  for c in "$@"; do
    port=$((port + 1))
    env=(HOST=127.0.0.1 PORT=$port UPLOAD_DIR="$dir")
    build=dist; [ "${c#*@}" != "$c" ] && build=${c#*@}
    named=${c%%@*}; name=${named%%/hw*}
    [ "$name" != "$named" ] && env+=(UPLOAD_HIGH_WATER=$(( ${named##*/hw} * 1024 )))
    case $name in
      twinport) peer=stream-twinport ;;
      twinport-native) peer=stream-twinport; env+=(TWINPORT_TRANSPORT=native TWINPORT_NATIVE_BINARY="$PWD/native/build/twinport-linux-x64.node") ;;
      fastify) peer=stream-fastify ;;
      raw-net) peer=upload-raw-net ;;
      *) echo "unknown contender $c"; continue ;;
    esac
    env "${env[@]}" taskset -c 0 node ${NODE_FLAGS:-} bench/.tmp/$build/bench/peers/$peer.js >"$dir/server.out" 2>&1 &
    pid=$!
    for i in $(seq 150); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
    la=$(cut -d' ' -f1 /proc/loadavg)
    read -r u0 s0 < <(awk '{print $14, $15}' /proc/$pid/stat)
    perf stat -x, -e $EV -p $pid -o "$dir/perf" -- taskset -c 1 node --import tsx bench/streaming/upload-runs.ts $port $clients $mib ${CLIENT_FLAGS:-} >"$dir/client.out" 2>&1
    read -r u1 s1 < <(awk '{print $14, $15}' /proc/$pid/stat)
    kill $pid; wait $pid 2>/dev/null
    gib=$(awk -v c=$clients -v m=$mib 'BEGIN{print (c+1)*m/1024}')
    awk -F, -v r=$r -v c="$c" -v g=$gib -v la=$la -v u=$(( (u1-u0)*1000/tck )) -v s=$(( (s1-s0)*1000/tck )) -v mib=$mib -v n=$clients '
      /task-clock/{tc=$1} /context-switches/{cs=$1} /raw_syscalls:sys_enter/{all=$1}
      /sys_enter_read,|sys_enter_read$|_recvfrom|_readv/{rd+=$1} /sys_enter_write,|_writev|_pwrite/{wr+=$1}
      /epoll_ctl/{ctl=$1} /epoll_wait|epoll_pwait/{ew+=$1} /futex/{fx=$1} /mmap|munmap|madvise/{mm+=$1}
      END{B=g*1024*1024*1024; printf "%-5s %-16s %7.0f %7.0f %7.0f %7s | per GiB: %8.0f %8.0f %8.1f %8.0f %8.1f %8.0f %8.0f %8.0f %8.0f %8.0f\n", r, c, tc/g, u/g, s/g, la, all/g, rd/g, B/rd/1024, wr/g, B/wr/1024, ctl/g, ew/g, fx/g, mm/g, cs/g}' "$dir/perf"
    [ -n "${DETAIL:-}" ] && awk -F, -v g=$gib '$3 ~ /sys_enter_|context/ && $1+0 > 0 {sub("syscalls:sys_enter_", "", $3); printf " %s %.0f", $3, $1/g} END{print ""}' "$dir/perf" | sed 's/^/      per GiB:/'
    grep -v "^$" "$dir/client.out" | tail -1 | sed 's/^/      client: /'
  done
done
