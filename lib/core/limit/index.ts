/**
 * Rate limits (issue 25): the token bucket, the limiter's port, what a refusal answers, and
 * the client's address behind trusted proxies (the rule and `rateLimit` are in ../route/). Pure and portable: no node:* imports.
 */
export { takeToken, type BucketRule, type TokenVerdict } from './take-token.js'
export type { LimitVerdict, RateLimiter } from './rate-limiter.js'
export { tooManyRequests } from './rate-limited.js'
export { clientAddress } from './client-address.js'
