// Which network addresses an image check may reach. An image address comes from a person's typing
// or from the service's answers, and the main process fetches it: without this rule a check could
// probe this computer or the local network (a router's admin page, a metadata service) and show
// what answered. Only public unicast addresses qualify, judged after DNS resolution, at every hop.
import { BlockList, isIP } from 'node:net';

const notPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
] as const) {
  notPublic.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // (No rule for IPv4-mapped ::ffff:0:0/96: BlockList applies it to every IPv4 address. Mapped
  // addresses are judged as the IPv4 address they carry, below.)
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: judged as the IPv4 address it carries (embeddedIpv4) before this list
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  notPublic.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (IPv4-mapped or NAT64, dotted or in hex), or null. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1] !== undefined) return m[1];
  const n = (parseInt(m[2], 16) << 16) | parseInt(m[3], 16);
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Whether `address` (an IP literal) is a public unicast address. Anything unparseable is not. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return !notPublic.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== null) return isPublicAddress(v4);
    return !notPublic.check(bare, 'ipv6');
  }
  return false;
}
