/**
 * The admin page's bundle of `twinport/client` (lib/admin/admin-client-bundle.ts) is the
 * client as it is now: after a change to lib/client/, `npx tsx spec/support/bundle-admin-client.ts`.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { adminBundleIsFresh } from '../support/bundle-admin-client.js'

test('ADMIN_CLIENT_JS :: is the bundle of lib/client as it is now (regenerate: npx tsx spec/support/bundle-admin-client.ts)', async () => {
  assert.ok(await adminBundleIsFresh())
})

test.run()
