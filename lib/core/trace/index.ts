/**
 * W3C Trace Context, as the core reads and writes it (re-exported by `twinport/core`). Pure
 * and portable.
 */
export { formatTraceparent, parseTraceparent, type TraceContext, traceContextOf, traceContextOfHeaders, type TraceParent } from './trace-context.js'
