/**
 * Benchmark (not a test): route matches per second by `matchRoute` beside `find-my-way`
 * (Fastify's router), on the same table of 100 GitHub-API-like routes (static and with
 * params) and the same request paths, in the same run. Each match must give the route
 * and its decoded params. Best of 5 alternating rounds per router.
 * Run: `npx tsx bench/route-match.ts`.
 */
import FindMyWay from 'find-my-way'
import * as E from 'fp-ts/lib/Either.js'
import { compileRoutes } from '../lib/core/route/compile-routes.js'
import { httpRoute } from '../lib/core/route/http-route.js'
import { createRouteMemo, matchRoute } from '../lib/core/route/match-route.js'

/** One measured set of requests (matches per second). */
export interface BenchRow {
  readonly name: string
  readonly twinport: number
  readonly findMyWay: number
  readonly ratio: number
}

// 100 routes modelled on api.github.com, `{name}` params.
const ROUTES: readonly (readonly [string, string])[] = [
  ['GET', '/'], ['GET', '/user'], ['PATCH', '/user'], ['GET', '/user/repos'], ['POST', '/user/repos'],
  ['GET', '/user/orgs'], ['GET', '/user/emails'], ['POST', '/user/emails'], ['DELETE', '/user/emails'],
  ['GET', '/user/followers'], ['GET', '/user/following'], ['GET', '/user/following/{user}'],
  ['PUT', '/user/following/{user}'], ['DELETE', '/user/following/{user}'], ['GET', '/user/keys'],
  ['POST', '/user/keys'], ['GET', '/user/keys/{id}'], ['DELETE', '/user/keys/{id}'], ['GET', '/user/starred'],
  ['GET', '/user/starred/{owner}/{repo}'], ['PUT', '/user/starred/{owner}/{repo}'], ['DELETE', '/user/starred/{owner}/{repo}'],
  ['GET', '/user/subscriptions'], ['GET', '/user/issues'], ['GET', '/users'], ['GET', '/users/{user}'],
  ['GET', '/users/{user}/repos'], ['GET', '/users/{user}/orgs'], ['GET', '/users/{user}/followers'],
  ['GET', '/users/{user}/following'], ['GET', '/users/{user}/following/{target}'], ['GET', '/users/{user}/keys'],
  ['GET', '/users/{user}/starred'], ['GET', '/users/{user}/subscriptions'], ['GET', '/users/{user}/events'],
  ['GET', '/users/{user}/events/public'], ['GET', '/users/{user}/received_events'], ['GET', '/users/{user}/gists'],
  ['GET', '/orgs/{org}'], ['PATCH', '/orgs/{org}'], ['GET', '/orgs/{org}/repos'], ['POST', '/orgs/{org}/repos'],
  ['GET', '/orgs/{org}/members'], ['GET', '/orgs/{org}/members/{user}'], ['DELETE', '/orgs/{org}/members/{user}'],
  ['GET', '/orgs/{org}/public_members'], ['GET', '/orgs/{org}/teams'], ['POST', '/orgs/{org}/teams'],
  ['GET', '/orgs/{org}/events'], ['GET', '/orgs/{org}/issues'], ['GET', '/teams/{id}'], ['PATCH', '/teams/{id}'],
  ['DELETE', '/teams/{id}'], ['GET', '/teams/{id}/members'], ['GET', '/teams/{id}/repos'],
  ['GET', '/repos/{owner}/{repo}'], ['PATCH', '/repos/{owner}/{repo}'], ['DELETE', '/repos/{owner}/{repo}'],
  ['GET', '/repos/{owner}/{repo}/contributors'], ['GET', '/repos/{owner}/{repo}/languages'],
  ['GET', '/repos/{owner}/{repo}/teams'], ['GET', '/repos/{owner}/{repo}/tags'], ['GET', '/repos/{owner}/{repo}/branches'],
  ['GET', '/repos/{owner}/{repo}/branches/{branch}'], ['GET', '/repos/{owner}/{repo}/collaborators'],
  ['GET', '/repos/{owner}/{repo}/collaborators/{user}'], ['PUT', '/repos/{owner}/{repo}/collaborators/{user}'],
  ['GET', '/repos/{owner}/{repo}/comments'], ['GET', '/repos/{owner}/{repo}/comments/{id}'],
  ['GET', '/repos/{owner}/{repo}/commits'], ['GET', '/repos/{owner}/{repo}/commits/{sha}'],
  ['GET', '/repos/{owner}/{repo}/readme'], ['GET', '/repos/{owner}/{repo}/contents/{path}'],
  ['GET', '/repos/{owner}/{repo}/keys'], ['GET', '/repos/{owner}/{repo}/keys/{id}'], ['GET', '/repos/{owner}/{repo}/forks'],
  ['POST', '/repos/{owner}/{repo}/forks'], ['GET', '/repos/{owner}/{repo}/hooks'], ['POST', '/repos/{owner}/{repo}/hooks'],
  ['GET', '/repos/{owner}/{repo}/hooks/{id}'], ['GET', '/repos/{owner}/{repo}/releases'],
  ['GET', '/repos/{owner}/{repo}/releases/{id}'], ['GET', '/repos/{owner}/{repo}/stats/contributors'],
  ['GET', '/repos/{owner}/{repo}/issues'], ['POST', '/repos/{owner}/{repo}/issues'],
  ['GET', '/repos/{owner}/{repo}/issues/{number}'], ['PATCH', '/repos/{owner}/{repo}/issues/{number}'],
  ['GET', '/repos/{owner}/{repo}/issues/{number}/comments'], ['POST', '/repos/{owner}/{repo}/issues/{number}/comments'],
  ['GET', '/repos/{owner}/{repo}/pulls'], ['POST', '/repos/{owner}/{repo}/pulls'], ['GET', '/repos/{owner}/{repo}/pulls/{number}'],
  ['GET', '/repos/{owner}/{repo}/pulls/{number}/files'], ['GET', '/repos/{owner}/{repo}/pulls/{number}/merge'],
  ['GET', '/gists'], ['GET', '/gists/public'], ['GET', '/gists/{id}'], ['GET', '/gists/{id}/star'], ['GET', '/search/repositories'], ['GET', '/rate_limit'],
]

// Request sets: [name, [method, path][]]. Every request matches a route.
const SETS: readonly (readonly [string, readonly (readonly [string, string])[]])[] = [
  ['static', [['GET', '/user'], ['GET', '/user/repos'], ['GET', '/gists/public'], ['GET', '/rate_limit'], ['GET', '/search/repositories']]],
  ['one param', [['GET', '/users/octocat'], ['GET', '/orgs/nodejs'], ['GET', '/teams/42'], ['GET', '/gists/aa5a315d61ae9438b18d']]],
  ['two params', [['GET', '/repos/nodejs/node'], ['GET', '/user/starred/nodejs/node'], ['GET', '/users/octocat/following/hubot']]],
  ['deep (3-4 params)', [['GET', '/repos/nodejs/node/issues/1234/comments'], ['GET', '/repos/nodejs/node/pulls/99/files'], ['GET', '/repos/nodejs/node/collaborators/octocat']]],
  ['mixed', [
    ['GET', '/'], ['GET', '/users/octocat/repos'], ['POST', '/repos/nodejs/node/issues'], ['GET', '/repos/nodejs/node/commits/6dcb09b5b57875f334f61aebed695e2e4193db5e'],
    ['DELETE', '/user/following/hubot'], ['GET', '/orgs/nodejs/members/octocat'], ['GET', '/repos/nodejs/node/stats/contributors'], ['GET', '/user/emails'],
  ]],
]

const handler = (): null => null
const table = ROUTES.map(([method, path]) => httpRoute(method, path, handler))
const compiled = E.getOrElseW((errors) => {
  throw new Error(`bench table does not compile: ${JSON.stringify(errors)}`)
})(compileRoutes(table))

const fmw = FindMyWay()
for (const [method, path] of ROUTES) fmw.on(method as 'GET', path.replace(/\{(\w+)\}/g, ':$1'), handler)

// Runs `once` (which matches `perCall` paths) for about `ms` and answers matches per second.
const measure = (once: () => number, ms: number): number => {
  for (let i = 0; i < 5_000; i++) once() // warm-up
  let count = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i++) count += once()
    elapsed = performance.now() - start
  }
  return (count / elapsed) * 1000
}

// One memo for every match, as a server keeps one.
const memo = createRouteMemo()

const ours = (requests: readonly (readonly [string, string])[]) => (): number => {
  for (const [method, path] of requests) if (matchRoute(compiled, method, path, memo)._tag !== 'RouteFound') throw new Error(`no match ${path}`)
  return requests.length
}

const theirs = (requests: readonly (readonly [string, string])[]) => (): number => {
  for (const [method, path] of requests) if (fmw.find(method as 'GET', path) === null) throw new Error(`no match ${path}`)
  return requests.length
}

/**
 * Measures every request set and answers one row per set (matches per second). The two
 * routers alternate for `rounds` rounds of `ms` each and each keeps its best round, so a
 * busy neighbour on a shared machine penalises neither side alone.
 */
export const run = (ms = 200, rounds = 5): BenchRow[] =>
  SETS.map(([name, requests]) => {
    let twinport = 0
    let findMyWay = 0
    for (let r = 0; r < rounds; r++) {
      twinport = Math.max(twinport, measure(ours(requests), ms))
      findMyWay = Math.max(findMyWay, measure(theirs(requests), ms))
    }
    return { name, twinport, findMyWay, ratio: twinport / findMyWay }
  })

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`${ROUTES.length} routes`)
  const rows = run()
  console.log(`${'requests'.padEnd(22)}${'twinport match/s'.padStart(18)}${'find-my-way match/s'.padStart(21)}${'ratio'.padStart(8)}`)
  for (const r of rows) console.log(`${r.name.padEnd(22)}${fmt(r.twinport).padStart(18)}${fmt(r.findMyWay).padStart(21)}${r.ratio.toFixed(2).padStart(8)}`)
}
