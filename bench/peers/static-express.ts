/**
 * `express.static` serving STATIC_ROOT at `/static` (bench/static-files.ts's Node peer), with
 * its defaults (ETag, Last-Modified, ranges). HOST and PORT from the environment.
 */
import express from 'express'

const app = express()
app.disable('x-powered-by')
app.use('/static', express.static(process.env['STATIC_ROOT'] ?? '.'))
app.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '127.0.0.1')
