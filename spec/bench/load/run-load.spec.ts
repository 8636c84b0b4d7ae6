/**
 * bench/load/run-load.ts's choice of load generator (issue 32): the echo workloads marked
 * `cClient` run bench/c1m/wsload.c for plain-WebSocket contenders when cc builds it, and
 * say so in the sample; the JS client otherwise. Against the raw node:net peer, briefly.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildC } from '../../../bench/c1m/build-c.js'
import { runLoad } from '../../../bench/load/run-load.js'
import { startServer } from '../../../bench/load/start-server.js'
import { WORKLOADS, type Sizing } from '../../../bench/load/workloads.js'
import { CONTENDERS } from '../../../bench/peers/contenders.js'

const SIZING: Sizing = { rounds: 1, warmupMs: 100, measureMs: 300, clients: 20, broadcasts: 1 }

test('runLoad :: ws-echo-1 and ws-echo-10 are driven by wsload.c where cc builds it', async () => {
  const server = await startServer(CONTENDERS['raw-net'].script)
  if (typeof server === 'string') throw new Error(server)
  try {
    const expected = 'path' in buildC('wsload') ? 'wsload.c' : 'ws-client.ts'
    for (const id of ['ws-echo-1', 'ws-echo-10']) {
      const workload = WORKLOADS.find((w) => w.id === id)
      assert.ok(workload?.cClient === true, id)
      const sample = await runLoad(workload, CONTENDERS['raw-net'], server, SIZING, 1, true)
      assert.ok(typeof sample !== 'string', String(sample))
      assert.is(sample.loadGenerator, expected)
      assert.ok(sample.value > 0 && sample.serverCpuUs >= 0, JSON.stringify(sample))
    }
  } finally {
    await server.stop()
  }
})

test('runLoad :: workloads the C client does not speak keep the JS client (no cClient mark)', () => {
  for (const w of WORKLOADS) if (w.cClient === true) assert.equal([w.kind, w.clientArgs], ['echo', undefined], w.id)
})

test.run()
