#!/bin/bash
# Server CPU per request by hand (bench/RESULTS.md "Session 13: static files", "Session 13: Bun
# per-request cost"): starts one server on CPU 0, warms it with `wrk -t1 -c${C:-50} -d1s` on CPU 1,
# then reads utime/stime from /proc/<pid>/stat around `wrk -t1 -c${C:-50} -d${D:-4}s` on CPU 1.
# The path is PATH_, else /static/$FILE (FILE default 1m.js); STATIC_ROOT (default /tmp/s13s/root)
# is passed to the server (it holds 1k.js and 1m.js).
#   bench/cpu-per-request.sh <label> <port> <command...>
#   bench/cpu-per-request.sh pool 7342 node bench/.tmp/dist/bench/peers/static-twinport.js
#   PATH_=/hello bench/cpu-per-request.sh tp-bun 7400 node_modules/bun/bin/bun.exe bench/peers/plain-twinport.ts
label=$1; port=$2; shift 2
cd "$(dirname "$0")/.."
HOST=127.0.0.1 PORT=$port STATIC_ROOT=${STATIC_ROOT:-/tmp/s13s/root} NODE_ENV=production taskset -c 0 "$@" >/tmp/$label.out 2>&1 &
pid=$!
p=${PATH_:-/static/${FILE:-1m.js}}
for i in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$port$p && break; sleep 0.2; done
taskset -c 1 wrk -t1 -c${C:-50} -d1s http://127.0.0.1:$port$p >/dev/null
read u0 s0 < <(awk '{print $14, $15}' /proc/$pid/stat)
out=$(taskset -c 1 wrk -t1 -c${C:-50} -d${D:-4}s http://127.0.0.1:$port$p)
read u1 s1 < <(awk '{print $14, $15}' /proc/$pid/stat)
kill $pid; wait $pid 2>/dev/null
n=$(echo "$out" | awk '/requests in/{print $1}')
rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
err=$(echo "$out" | grep -E "Non-2xx|errors" | tr '\n' ' ')
awk -v l=$label -v f=$p -v r=$rps -v n=$n -v u=$((u1-u0)) -v s=$((s1-s0)) -v la="$(cut -d' ' -f1 /proc/loadavg)" -v e="$err" 'BEGIN{printf "%-14s %-14s %8s req/s  cpu/req %7.1f µs (user %6.1f sys %6.1f)  load %s %s\n", l, f, r, (u+s)*10000/n, u*10000/n, s*10000/n, la, e}'
