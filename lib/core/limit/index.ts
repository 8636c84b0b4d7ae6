/**
 * Rate limits (issue 25): the token bucket, the rule, the route combinator, what a refusal
 * answers, and the client's address behind trusted proxies. Pure and portable: no node:* imports.
 */
export { takeToken, type BucketRule, type TokenVerdict } from './take-token.js'
export type { EventSubject, RateLimitKey, RateLimitRule } from './rate-limit-rule.js'
export type { LimitVerdict, RateLimiter } from './rate-limiter.js'
export { rateLimit } from './rate-limit.js'
export { tooManyRequests } from './rate-limited.js'
export { clientAddress } from './client-address.js'
