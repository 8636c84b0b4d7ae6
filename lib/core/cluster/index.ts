/**
 * The messages between cluster nodes: types, errors, the codec and its checksum.
 * Pure and portable.
 */
export * from './cluster-message.js'
export type { ClusterMessageError } from './cluster-message-error.js'
export { CLUSTER_WIRE_VERSION, SEQUENCE_TRAILER_LENGTH } from './cluster-wire.js'
export * from './crc32.js'
export * from './decode-cluster-message.js'
export * from './encode-cluster-message.js'
export * from './with-sequence.js'
