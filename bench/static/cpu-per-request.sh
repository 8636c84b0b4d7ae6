#!/bin/bash
# Server CPU per request by hand (bench/RESULTS.md "Session 13: static files"): starts one static-file
# server on CPU 0 serving STATIC_ROOT (default /tmp/s13s/root, holding 1k.js and 1m.js), warms it with
# wrk for 1 s, then reads utime/stime from /proc/<pid>/stat around `wrk -t1 -c${C:-50} -d${D:-4}s` on CPU 1.
#   bench/static/cpu-per-request.sh <label> <port> <command...>
#   bench/static/cpu-per-request.sh pool 7342 node bench/.tmp/dist/bench/peers/static-twinport.js
label=$1; port=$2; shift 2
cd "$(dirname "$0")/../.."
HOST=127.0.0.1 PORT=$port STATIC_ROOT=${STATIC_ROOT:-/tmp/s13s/root} NODE_ENV=production taskset -c 0 "$@" >/tmp/$label.out 2>&1 &
pid=$!
for i in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$port/static/1k.js && break; sleep 0.2; done
f=${FILE:-1m.js}
taskset -c 1 wrk -t1 -c${C:-50} -d1s http://127.0.0.1:$port/static/$f >/dev/null
read u0 s0 < <(awk '{print $14, $15}' /proc/$pid/stat)
out=$(taskset -c 1 wrk -t1 -c${C:-50} -d${D:-4}s http://127.0.0.1:$port/static/$f)
read u1 s1 < <(awk '{print $14, $15}' /proc/$pid/stat)
kill $pid; wait $pid 2>/dev/null
n=$(echo "$out" | awk '/requests in/{print $1}')
rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
err=$(echo "$out" | grep -E "Non-2xx|errors" | tr '\n' ' ')
awk -v l=$label -v f=$f -v r=$rps -v n=$n -v u=$((u1-u0)) -v s=$((s1-s0)) -v la="$(cut -d' ' -f1 /proc/loadavg)" -v e="$err" 'BEGIN{printf "%-14s %s %8s req/s  cpu/req %7.0f µs (user %6.0f sys %6.0f)  load %s %s\n", l, f, r, (u+s)*10000/n, u*10000/n, s*10000/n, la, e}'
