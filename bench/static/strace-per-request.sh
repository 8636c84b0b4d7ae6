#!/bin/bash
# Syscalls per request by hand (bench/RESULTS.md "Session 13: static files"): `strace -c -f` attached to
# a static-file server on CPU 0 during `wrk -t1 -c50 -d4s` on CPU 1; prints the calls per request.
#   bench/static/strace-per-request.sh <label> <port> <command...>   (FILE=1k.js for the small file)
label=$1; port=$2; shift 2
cd "$(dirname "$0")/../.."
HOST=127.0.0.1 PORT=$port STATIC_ROOT=${STATIC_ROOT:-/tmp/s13s/root} NODE_ENV=production taskset -c 0 "$@" >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$port/static/1k.js && break; sleep 0.2; done
taskset -c 1 wrk -t1 -c50 -d1s http://127.0.0.1:$port/static/${FILE:-1m.js} >/dev/null
strace -c -f -p $pid -o /tmp/$label.strace 2>/dev/null &
spid=$!
sleep 1
n=$(taskset -c 1 wrk -t1 -c50 -d4s http://127.0.0.1:$port/static/${FILE:-1m.js} | awk '/requests in/{print $1}')
kill -INT $spid; wait $spid 2>/dev/null
kill $pid; wait $pid 2>/dev/null
echo "$label: $n requests under strace; calls per request:"
awk -v n=$n '$1 ~ /^[0-9.]+$/ && NF>=5 {c=$4; s=$NF; if (c/n >= 0.05) printf "  %s %.2f\n", s, c/n}' /tmp/$label.strace | sort -k2 -nr | head -12 | tr '\n' ';'; echo
