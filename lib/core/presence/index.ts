/**
 * Presence's pure half (issue 28): per-node states, deltas, merging, the list. The engine's
 * `server.presence(topic)` keeps them and moves them between nodes. No `node:*`.
 */
export * from './presence-state.js'
export * from './apply-delta.js'
export * from './merge-snapshot.js'
export * from './read-clock.js'
export * from './list-presence.js'
export type * from './presence.js'
