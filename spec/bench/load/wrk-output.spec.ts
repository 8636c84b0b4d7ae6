import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseWrk } from '../../../bench/load/wrk-output.js'

const OUT = `Running 5s test @ http://127.0.0.1:7000/hello
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.21ms  300.00us   9.00ms   90.00%
    Req/Sec    40.10k     1.00k   42.00k    70.00%
  200500 requests in 5.00s, 30.00MB read
  Socket errors: connect 0, read 2, write 1, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:  40100.00
Transfer/sec:      6.00MB
`

test('parseWrk :: requests, duration, rate, errors', () => {
  assert.equal(parseWrk(OUT), { requests: 200500, seconds: 5, requestsPerSecond: 40100, socketErrors: 6, non2xx: 7 })
})

test('parseWrk :: no error lines means zero; rate derived when the line is missing', () => {
  assert.equal(parseWrk('  1000 requests in 500.00ms, 1MB read\n'), { requests: 1000, seconds: 0.5, requestsPerSecond: 2000, socketErrors: 0, non2xx: 0 })
})

test('parseWrk :: undefined when wrk printed no result', () => {
  assert.is(parseWrk('unable to connect to 127.0.0.1:7000 Connection refused\n'), undefined)
})

test.run()
