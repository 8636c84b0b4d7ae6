/*
 * Preloaded (`node --require`) by fuzz/run.ts only when the prebuilt libFuzzer addon of
 * @jazzer.js/fuzzer cannot load on this machine's glibc: it makes jazzer's `require` of the
 * prebuild load the patched copy named by TWINPORT_FUZZ_ADDON instead (see prepare-addon.ts beside it).
 */
const Module = require('node:module')
const load = Module._extensions['.node']
const patched = process.env.TWINPORT_FUZZ_ADDON
Module._extensions['.node'] = (mod, filename) =>
  load(mod, patched !== undefined && /fuzzer-linux-x64\.node$/.test(filename) ? patched : filename)
