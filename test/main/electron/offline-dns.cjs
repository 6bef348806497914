// Preloaded into the Electronegativity process: it tries to download translations at start-up,
// which on a machine without internet waits on DNS retries for seconds. Every lookup except
// loopback fails at once, so the scan is offline and fast; it falls back to its bundled locale.
const dns = require('node:dns');
const original = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  if (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '::1') {
    return original.apply(this, arguments);
  }
  const err = Object.assign(new Error(`offline scan: no lookup of ${hostname}`), { code: 'ENOTFOUND', hostname });
  process.nextTick(cb, err);
  return {};
};
