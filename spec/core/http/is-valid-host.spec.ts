import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isValidHost } from '../../../lib/core/http/is-valid-host.js'

// RFC 9110 §7.2: Host = uri-host [ ":" port ]; RFC 3986 §3.2.2:
// host = IP-literal / IPv4address / reg-name; reg-name = *( unreserved / pct-encoded / sub-delims ).
test('isValidHost :: reg-names, IPv4 and empty, with or without a port', () => {
  for (const v of ['', 'a', 'example.com', 'Example.COM', 'xn--bcher-kva.example', 'a%2Fb', "!$&'()*+,;=-._~", '127.0.0.1', '999.1', 'a:', 'a:0', 'a:65535', ':80', 'a:123456']) {
    assert.ok(isValidHost(v), JSON.stringify(v))
  }
})

test('isValidHost :: refuses bytes outside reg-name, a bad percent-encoding, a bad port', () => {
  for (const v of ['a b', 'a\tb', 'a/b', 'a?b', 'a#b', 'u@a', 'a[b', 'a]', '%', '%2', '%g0', 'a%2', 'caf\u00e9', '"a"', 'a<b', 'a:b', 'a:1:2', 'a:-1', 'a: 1', 'a\\b', 'a^b', 'a|b']) {
    assert.not.ok(isValidHost(v), JSON.stringify(v))
  }
})

// IP-literal = "[" ( IPv6address / IPvFuture ) "]"
test('isValidHost :: IPv6 literals, with "::" and an IPv4 tail', () => {
  for (const v of ['[::]', '[::1]', '[::1]:6001', '[1:2:3:4:5:6:7:8]', '[1::8]', '[1:2:3:4:5:6:7::]', '[::2:3:4:5:6:7:8]', '[fe80::1ff:fe23:4567:890a]', '[::ffff:192.0.2.1]', '[1:2:3:4:5:6:1.2.3.4]', '[ABCD::ef]']) {
    assert.ok(isValidHost(v), v)
  }
  for (const v of ['[]', '[::1', '[::1]x', '[::1]:x', '[1:2:3:4:5:6:7]', '[1:2:3:4:5:6:7:8:9]', '[1::2::3]', '[:1]', '[1:]', '[12345::]', '[::g]', '[1.2.3.4]', '[::1.2.3]', '[::1.2.3.256]', '[::01.2.3.4]', '[1.2.3.4::]', '[1:2:3:4:5:6:7:1.2.3.4]', '[::1%25eth0]']) {
    assert.not.ok(isValidHost(v), v)
  }
})

// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
test('isValidHost :: IPvFuture literals', () => {
  for (const v of ['[v1.a]', '[VF.a:b]', '[v1a.x-y~!]:1']) assert.ok(isValidHost(v), v)
  for (const v of ['[v.a]', '[v1.]', '[v1]', '[vg.a]', '[v1.a/b]', '[w1.a]']) assert.not.ok(isValidHost(v), v)
})

test.run()
