/**
 * `twinport/redis`: scale-out on Redis. The cluster adapter (`redisAdapter`) and the
 * recovery store (`redisRecoveryStore`) on node-redis, an optional peer dependency:
 * only applications that import this entry point need `redis` installed.
 */
export { redisAdapter, type RedisAdapter, type RedisAdapterOptions, type RedisAdapterStats } from './redis-adapter.js'
export type { NodeRedisClient, RedisClusterNodes } from './node-redis-port.js'
export type { RedisArg, RedisPort } from './redis-port.js'
export { nodeRedisPort } from './node-redis-port.js'
export { redisRecoveryStore, type RedisRecoveryStore, type RedisRecoveryStoreOptions } from './redis-recovery-store.js'
export type { MissedFrame, ReadRoomSince, ReadSince, RecoveryStore, RoomFrame, SessionRecord } from '../engine/recovery/recovery-store.js'
export { redisLimitStore } from './redis-limit-store.js'
