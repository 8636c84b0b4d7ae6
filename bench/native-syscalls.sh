#!/bin/bash
# Syscalls and CPU per keep-alive request by perf (bench/RESULTS.md "Session 14: a libuv poll per
# native socket"): for each round, each contender in turn is started pinned to CPU 0, warmed with
# `wrk -t1 -c<C> -d1s /hello` on CPU 1, then counted with `perf stat` (tracepoints: the counts do
# not depend on the machine's load) during `wrk -t1 -c<C> -d${D:-4}s`, for C in ${CONNS:-1 50}.
# Contenders: `native:<addon binary>` (twinport's echo example on the native transport with that
# binary), `uws` (bench/peers/uws.ts). Needs `node node_modules/typescript/bin/tsc -p tsconfig.bench.json`.
#   bench/native-syscalls.sh <rounds> native:native/build/twinport-linux-x64.node native:/tmp/old.node uws
cd "$(dirname "$0")/.."
rounds=$1; shift
port=7461
EV=task-clock,raw_syscalls:sys_enter,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_ctl,syscalls:sys_enter_read,syscalls:sys_enter_recvfrom,syscalls:sys_enter_writev,syscalls:sys_enter_sendto
printf "%-5s %-44s %4s %9s %8s %8s %8s %8s %8s %8s %8s %6s\n" round contender conn req/s "µs/req" "sys/req" "libuv_ep" "own_ep" "ep_ctl" "read" "write" load
for r in $(seq "$rounds"); do
  for c in "$@"; do
    port=$((port + 1))
    if [ "$c" = uws ]; then
      HOST=127.0.0.1 PORT=$port NODE_ENV=production taskset -c 0 node --import tsx bench/peers/uws.ts >/tmp/native-syscalls.out 2>&1 &
    else
      HOST=127.0.0.1 PORT=$port NODE_ENV=production TRANSPORT=native TWINPORT_NATIVE_BINARY="${c#native:}" taskset -c 0 node bench/.tmp/dist/examples/echo.js >/tmp/native-syscalls.out 2>&1 &
    fi
    pid=$!
    for i in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$port/hello && break; sleep 0.2; done
    for conns in ${CONNS:-1 50}; do
      taskset -c 1 wrk -t1 -c$conns -d1s http://127.0.0.1:$port/hello >/dev/null
      perf stat -x, -e $EV -p $pid -o /tmp/native-syscalls.perf -- taskset -c 1 wrk -t1 -c$conns -d${D:-4}s http://127.0.0.1:$port/hello >/tmp/native-syscalls.wrk
      n=$(awk '/requests in/{print $1}' /tmp/native-syscalls.wrk)
      rps=$(awk '/Requests\/sec/{print $2}' /tmp/native-syscalls.wrk)
      awk -F, -v r=$r -v c="$c" -v k=$conns -v n=$n -v rps=$rps -v la="$(cut -d' ' -f1 /proc/loadavg)" '
        /task-clock/{tc=$1} /raw_syscalls:sys_enter/{all=$1} /sys_enter_epoll_pwait/{lp=$1} /sys_enter_epoll_wait/{ew=$1}
        /epoll_ctl/{ctl=$1} /sys_enter_read/{rd+=$1} /recvfrom/{rd+=$1} /writev/{wr+=$1} /sendto/{wr+=$1}
        END{printf "%-5s %-44s %4s %9s %8.2f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %6s\n", r, c, k, rps, tc*1000/n, all/n, lp/n, ew/n, ctl/n, rd/n, wr/n, la}' /tmp/native-syscalls.perf
    done
    kill $pid; wait $pid 2>/dev/null
  done
done
