import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { clusterClientId, parseClusterClientId } from '../../../lib/engine/cluster/cluster-client-id.js'

test('clusterClientId :: <node>/<id>, and back', () => {
  assert.is(clusterClientId('n1', 7), 'n1/7')
  assert.equal(parseClusterClientId('n1/7'), { node: 'n1', clientId: 7 })
  assert.equal(parseClusterClientId('a/b/12'), { node: 'a/b', clientId: 12 })
})

test('parseClusterClientId :: refuses what is not a node and a positive integer', () => {
  for (const bad of ['7', '/7', 'n1/', 'n1/0', 'n1/07', 'n1/-1', 'n1/1.5', 'n1/1e3', 'n1/99999999999999999', 'n1/ 1']) {
    assert.is(parseClusterClientId(bad), undefined, bad)
  }
})

test.run()
