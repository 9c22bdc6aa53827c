import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FetchRefusedError } from './fetch-refused.ts';

/** Which addresses a fetch may connect to. */
export interface AddressPolicy {
  /** `FETCH_ALLOW_PRIVATE=true`: any address (tests, intranets). */
  allowPrivate: boolean;
  /**
   * Origins (`http://host:port`) fetched without the address check even when private addresses are not
   * allowed: one known server rather than the whole private network. Tests use their local server.
   */
  trustedOrigins?: readonly string[];
}

/**
 * Whether `address` is an ordinary public unicast address. Everything else is refused: loopback,
 * private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with the cloud metadata
 * service at 169.254.169.254, fe80::/10), carrier-grade NAT (100.64/10, where some clouds put their
 * metadata service), multicast, reserved, documentation ranges, and IPv6 forms that embed an IPv4
 * address (mapped, 6to4, Teredo, NAT64), which are judged by nothing less than that address; the
 * deprecated IPv4-compatible form (`::a.b.c.d`) is refused whatever it embeds.
 */
export function isPublicAddress(address: string): boolean {
  const canonical = isIP(address) === 6 ? canonicalIPv6(address) : address;
  if (canonical === undefined || !ipaddr.isValid(canonical)) return false;
  let parsed = ipaddr.parse(canonical);
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): no public server is reached that way, and
    // ipaddr.js calls `::7f00:1` (how URL writes `[::127.0.0.1]`) plain unicast. Refused outright.
    if (ipv6.parts.slice(0, 6).every((part) => part === 0)) return false;
    if (ipv6.isIPv4MappedAddress()) parsed = ipv6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/**
 * The address in hexadecimal groups, as URL writes it. ipaddr.js 2.5 reads a dotted tail after `::`
 * (`::127.0.0.1`) as IPv4-mapped (`::ffff:7f00:1`), which hid the IPv4-compatible form from the check.
 */
function canonicalIPv6(address: string): string | undefined {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** Whether the policy lets a fetch of `url` skip the address check. */
export function isTrustedOrigin(url: URL, policy: AddressPolicy): boolean {
  return policy.allowPrivate || (policy.trustedOrigins ?? []).includes(url.origin);
}

export function refusePrivate(host: string, address: string): FetchRefusedError {
  return new FetchRefusedError(
    'private-address',
    `${host} leads to ${address}, a private, local or reserved address; the bot only fetches from the public internet.`,
  );
}

/**
 * A `lookup` for `http.request` that resolves the name and refuses it when any of its addresses is not
 * allowed. The socket then connects to the very address checked here, so a name that resolves to a
 * public address for the check and a private one for the connection (DNS rebinding) gets nowhere.
 */
export function checkedLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(
          new FetchRefusedError(
            'dns',
            `The address ${hostname} could not be found (${error.code ?? 'DNS error'}).`,
          ),
          [],
        );
        return;
      }
      const refused = addresses.find((entry) => !isPublicAddress(entry.address));
      if (refused) {
        callback(refusePrivate(hostname, refused.address), []);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
