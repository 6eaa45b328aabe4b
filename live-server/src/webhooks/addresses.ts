/**
 * Which addresses a webhook may reach (SSRF safety). A workspace admin chooses the URL, so
 * without these rules the server could be made to call what only it can reach: its own
 * loopback services, the private network, a cloud's metadata service.
 *
 * Always refused: unspecified, link-local (169.254/16 with the cloud metadata address,
 * fe80::/10), multicast, broadcast and the other special-purpose ranges, IPv4-mapped IPv6.
 * Refused unless WEBHOOK_ALLOW_PRIVATE: loopback, private (10/8, 172.16/12, 192.168/16,
 * fc00::/7, which holds fd00:ec2::254) and CGNAT 100.64/10 (which holds 100.100.100.200).
 *
 * The check runs on the address actually connected to (webhooks/http.ts resolves the name,
 * checks every address and connects to a checked one), and when a webhook is saved.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const always = new BlockList();
always.addSubnet("0.0.0.0", 8, "ipv4"); // "this network", unspecified
always.addSubnet("169.254.0.0", 16, "ipv4"); // link-local, cloud metadata
always.addSubnet("192.0.0.0", 24, "ipv4"); // IETF protocol assignments
always.addSubnet("192.0.2.0", 24, "ipv4"); // documentation
always.addSubnet("198.18.0.0", 15, "ipv4"); // benchmarking
always.addSubnet("198.51.100.0", 24, "ipv4"); // documentation
always.addSubnet("203.0.113.0", 24, "ipv4"); // documentation
always.addSubnet("224.0.0.0", 4, "ipv4"); // multicast
always.addSubnet("240.0.0.0", 4, "ipv4"); // reserved, broadcast
always.addAddress("::", "ipv6"); // unspecified
always.addSubnet("fe80::", 10, "ipv6"); // link-local
always.addSubnet("ff00::", 8, "ipv6"); // multicast
always.addSubnet("2001:db8::", 32, "ipv6"); // documentation

const privateRanges = new BlockList();
privateRanges.addSubnet("127.0.0.0", 8, "ipv4"); // loopback
privateRanges.addSubnet("10.0.0.0", 8, "ipv4");
privateRanges.addSubnet("172.16.0.0", 12, "ipv4");
privateRanges.addSubnet("192.168.0.0", 16, "ipv4");
privateRanges.addSubnet("100.64.0.0", 10, "ipv4"); // CGNAT (carrier-grade NAT, Alibaba metadata)
privateRanges.addAddress("::1", "ipv6"); // loopback
privateRanges.addSubnet("fc00::", 7, "ipv6"); // unique local (AWS metadata fd00:ec2::254)

export class BlockedAddressError extends Error {}

/** Why `address` (an IP literal) may not be reached, or null when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 0) return `${address} is not an IP address`;
  const type = family === 4 ? "ipv4" : "ipv6";
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) reaches an IPv4 host: never needed by a webhook, and a way
  // around the IPv4 rules, so refused in every spelling (the URL parser writes them canonically).
  // (Not a BlockList rule: BlockList matches plain IPv4 addresses against it too.)
  if (family === 6 && new URL(`http://[${bare}]/`).hostname.startsWith("[::ffff:")) {
    return `${bare} is an IPv4-mapped address`;
  }
  if (always.check(bare, type)) return `${bare} is a reserved, link-local or multicast address`;
  if (!allowPrivate && privateRanges.check(bare, type)) return `${bare} is a loopback or private network address`;
  return null;
}

export type ResolvedAddress = { address: string; family: number };

/**
 * Resolve `hostname` (or take an IP literal) and check every address it has: one refused
 * address refuses the name, so a name cannot mix a public address with an internal one.
 */
export async function resolveAllowed(hostname: string, allowPrivate: boolean): Promise<ResolvedAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  const addresses = family ? [{ address: bare, family }] : await lookup(bare, { all: true, verbatim: true });
  if (!addresses.length) throw new Error(`${hostname} has no address`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowPrivate);
    if (refusal) throw new BlockedAddressError(family ? refusal : `${hostname} resolves to ${refusal}`);
  }
  return addresses;
}

/**
 * The URL rules checked when a webhook is saved: http or https, a host, no credentials, and
 * (when the name resolves now) no refused address. Answers the problem, or null.
 */
export async function urlRefusal(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter a valid URL, such as https://example.com/hooks/tideline.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Invalid schema. Only HTTP and HTTPS are allowed.";
  if (!url.hostname) return "The URL needs a host name.";
  if (url.username || url.password) return "The URL may not carry a user name or password.";
  try {
    await Promise.race([
      resolveAllowed(url.hostname, allowPrivate),
      new Promise((resolve) => setTimeout(resolve, 5000).unref()),
    ]);
  } catch (error) {
    if (error instanceof BlockedAddressError) return `This URL is not allowed: ${error.message}.`;
    // A name that does not resolve now may later (DNS set up after the webhook); delivery
    // checks again on every connection.
  }
  return null;
}
