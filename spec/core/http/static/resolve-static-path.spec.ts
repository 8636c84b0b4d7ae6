/**
 * `resolveStaticPath`: every spelling of a way out of the root is refused with its status
 * (issue 30's safety list), and ordinary paths come out normalised.
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { resolveStaticPath, type StaticPathOptions } from '../../../../lib/core/http/static/resolve-static-path.js'

const path = (url: string, options?: StaticPathOptions): string | undefined => {
  const r = resolveStaticPath(url, options)
  return E.isRight(r) ? r.right.path : undefined
}
const refusal = (url: string, options?: StaticPathOptions): string => {
  const r = resolveStaticPath(url, options)
  return E.isLeft(r) ? `${r.left._tag} ${r.left.status}` : `served ${r.right.path}`
}

test('resolveStaticPath :: ordinary paths, decoded once and normalised', () => {
  assert.is(path('/index.html'), 'index.html')
  assert.is(path('/css/site.css'), 'css/site.css')
  assert.is(path('css/site.css'), 'css/site.css')
  assert.is(path('/a//b/./c.txt'), 'a/b/c.txt')
  assert.is(path('/caf%C3%A9/%E2%9C%93.txt'), 'café/✓.txt')
  assert.is(path('/with%20space.txt'), 'with space.txt')
  assert.is(path('/a+b.txt'), 'a+b.txt', 'a + is a plus in a path')
  assert.is(path('/a..b.txt'), 'a..b.txt', 'two dots inside a name are a name')
  assert.is(path('/100%25.txt'), '100%.txt')
  assert.equal(resolveStaticPath('/css/a.css'), E.right({ path: 'css/a.css', segments: ['css', 'a.css'], index: false }))
})

test('resolveStaticPath :: a trailing slash is the index file, or 404 without one', () => {
  assert.equal(resolveStaticPath('/'), E.right({ path: 'index.html', segments: ['index.html'], index: true }))
  assert.equal(resolveStaticPath(''), E.right({ path: 'index.html', segments: ['index.html'], index: true }))
  assert.is(path('/docs/'), 'docs/index.html')
  assert.is(path('/docs/.'), 'docs/index.html')
  assert.is(path('/docs/', { index: 'default.htm' }), 'docs/default.htm')
  assert.is(refusal('/docs/', { index: false }), 'NoIndex 404')
})

test('resolveStaticPath :: .. in any spelling is 403', () => {
  for (const url of [
    '/../etc/passwd',
    '/a/../../etc/passwd',
    '/a/../b',
    '/..',
    '/%2e%2e/etc/passwd',
    '/%2E%2E/etc/passwd',
    '/.%2e/etc/passwd',
    '/%2e./etc/passwd',
    '/%252e%252e/etc/passwd',
    '/%252E%252E%252Fetc',
    '/..%2fetc/passwd',
    '/..%2Fetc/passwd',
    '/a%2f..%2f..%2fetc',
    '/..\\etc',
    '/a\\..\\..\\etc',
    '/..%5cetc',
    '/..%5Cetc',
    '/%255c..',
    '/a%2fb',
    '/\\\\server\\share',
  ]) {
    assert.is(refusal(url).split(' ')[1], '403', `${url}: ${refusal(url)}`)
  }
})

test('resolveStaticPath :: malformed encodings, overlong UTF-8 and NUL are 400', () => {
  for (const url of ['/%', '/%2', '/%zz', '/a%e9.txt', '/%c0%ae%c0%ae/etc/passwd', '/%c0%af', '/%e0%80%ae%e0%80%ae/x', '/%ed%a0%80', '/%ff']) {
    assert.is(refusal(url), 'InvalidPathEncoding 400', url)
  }
  for (const url of ['/a%00.txt', '/a\u0000.txt', '/index.html%00.png']) assert.is(refusal(url), 'NulInPath 400', url)
})

test('resolveStaticPath :: dotfiles are ignored (404) by default, denied (403) or allowed', () => {
  assert.is(refusal('/.env'), 'DotfileIgnored 404')
  assert.is(refusal('/.git/config'), 'DotfileIgnored 404')
  assert.is(refusal('/a/%2egit/config'), 'DotfileIgnored 404', 'an encoded dot is a dot')
  assert.is(refusal('/.well-known/x'), 'DotfileIgnored 404')
  assert.is(refusal('/.env', { dotfiles: 'deny' }), 'DotfileDenied 403')
  assert.is(path('/.well-known/security.txt', { dotfiles: 'allow' }), '.well-known/security.txt')
  assert.is(refusal('/../x', { dotfiles: 'allow' }), 'PathTraversal 403', 'allowing dotfiles never allows ..')
})

test('resolveStaticPath :: Windows device names, streams and reserved characters where refused', () => {
  const win = { windowsNames: true }
  for (const url of ['/CON', '/con.txt', '/a/NUL', '/aux.html', '/COM1', '/lpt9.log', '/com¹', '/PRN.', '/a.txt.', '/a.txt%20', '/a%3Cb', '/a%7Cb', '/a*b', '/a%22b', '/a%01b']) {
    assert.is(refusal(url, win).split(' ')[1], '404', `${url}: ${refusal(url, win)}`)
  }
  for (const url of ['/C:/Windows/win.ini', '/C:', '/a.txt::$DATA', '/a%3A%3A$DATA']) assert.is(refusal(url, win), 'PathTraversal 403', url)
  assert.is(path('/console.txt', win), 'console.txt')
  assert.is(path('/com10', win), 'com10')
  assert.is(path('/con.txt'), 'con.txt', 'a name like any other without the option')
})

test('resolveStaticPath :: a plain path resolves as the same path taking the general way (a `./` segment added)', () => {
  const plain = ['/a', '/app.js', '/css/site.v2.css', '/a-b/c_d/E9.tar.gz', '/x/y./z', '/1/2/3/4/5/6/7/8/9/index.html']
  for (const path of plain) {
    const general = resolveStaticPath(`/.${path}`)
    assert.equal(resolveStaticPath(path), general, path)
    assert.ok(E.isRight(general), path)
  }
  for (const path of ['/.env', '/a/.git/config', '/a//b', '/a/', '/%61', '/a\\b', '/a/..', 'a/b']) {
    assert.equal(resolveStaticPath(path), resolveStaticPath(path.replace(/^\//, '/./')), path)
  }
  assert.equal(resolveStaticPath('/con.txt', { windowsNames: true })._tag, 'Left')
})

test.run()
