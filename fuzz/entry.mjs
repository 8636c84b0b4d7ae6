// jazzer's CLI loads a fuzz target whose name ends in .js/.mjs/.cjs; this one re-exports the
// `fuzz` of the harness named by TWINPORT_FUZZ_HARNESS (a .ts file, loaded through tsx).
const harness = await import(process.env.TWINPORT_FUZZ_HARNESS)
export const fuzz = harness.fuzz
