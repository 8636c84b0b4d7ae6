/**
 * The admin page's public names (re-exported by `twinport/core` and `twinport`). Pure and portable.
 */
export { ADMIN_EVENT, type AdminAuthorize, adminRoutes, type AdminRoutesOptions, type AdminVerdict } from './admin-routes.js'
export type { AdminError, AdminNode, AdminRoom, AdminSnapshot, AdminTotals, AdminView } from '../metrics/admin-snapshot.js'
