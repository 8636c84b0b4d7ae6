/**
 * The admin page's public names (re-exported by `twinport`; kept out of the pure core because the page carries browser script text). Portable: no node:* imports.
 */
export { ADMIN_EVENT, type AdminAuthorize, adminRoutes, type AdminRoutesOptions, type AdminVerdict } from './admin-routes.js'
export type { AdminError, AdminNode, AdminRoom, AdminSnapshot, AdminTotals, AdminView } from '../core/metrics/admin-snapshot.js'
