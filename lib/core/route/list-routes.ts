/**
 * `listRoutes`: a route table as readable lines, for tests, logs and a startup banner.
 * Pure and portable: no node:* imports.
 */
import type { Route, RouteTable } from './route.js'
import type { Schema } from './schema.js'
import { isStandardSchema } from './standard-schema.js'

// io-ts codecs have a name; a Standard Schema is named by its library.
const schemaName = (schema: Schema): string => (isStandardSchema(schema) ? `${schema['~standard'].vendor} schema` : schema.name)

const describe = (route: Route): string => {
  switch (route._tag) {
    case 'HttpRoute':
      return `${route.method} ${route.path}`
    case 'SocketOn':
      return route.codec === undefined ? `event ${route.event}` : `event ${route.event} (${schemaName(route.codec)})`
    case 'OnConnect':
      return 'connect'
    case 'OnDisconnect':
      return 'disconnect'
    case 'OnMessage':
      return 'message'
    case 'UpgradeGuard':
      return `upgrade guard ${route.path}`
  }
}

/**
 * One line per route in table order: `GET /users/{id}`, `event join (room)` (`(zod schema)`
 * for a Standard Schema), `connect`,
 * `disconnect`, `message`, `upgrade guard /admin/ws`.
 *
 * @example
 * listRoutes([httpRoute('GET', '/a', () => 1)]) // ['GET /a']
 */
export const listRoutes = (table: RouteTable): readonly string[] => table.map(describe)
