/**
 * Stateless messages to many connections, encoded once.
 *
 * Hocuspocus' `relayStateless` encodes the whole message for each connection: a session-aware
 * provider (every client of ours) gets its own address (`documentName\0sessionId`), which
 * opens the message, so its cache by address never hits. A domain event on a channel with
 * 500 subscribers was serialised 500 times. Here the part after the address (message type and
 * payload) is encoded once per event, and each connection's address once per connection; a
 * message is the two copied together, byte for byte what `OutgoingMessage(address)
 * .writeStateless(payload)` builds (stateless.test.ts checks it).
 */
import { type Connection, type Document, MessageType } from "@hocuspocus/server";

const utf8 = new TextEncoder();

/** A lib0 var-uint (7 bits a byte, low bits first), as Hocuspocus' encoder writes it. */
function varUint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push(0x80 | (rest & 0x7f));
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** A lib0 var-string: its UTF-8 length as a var-uint, then the bytes. */
export function varString(text: string): Uint8Array {
  const body = utf8.encode(text);
  const length = varUint(body.byteLength);
  const out = new Uint8Array(length.length + body.byteLength);
  out.set(length, 0);
  out.set(body, length.length);
  return out;
}

/** The part of a stateless message after the address: its type, then the payload. */
export function statelessBody(payload: string): Uint8Array {
  const type = varUint(MessageType.Stateless);
  const text = varString(payload);
  const out = new Uint8Array(type.length + text.byteLength);
  out.set(type, 0);
  out.set(text, type.length);
  return out;
}

/** Per connection: its address as a var-string (document and session never change for a connection). */
const addresses = new WeakMap<Connection, Uint8Array>();

function addressOf(connection: Connection): Uint8Array {
  let address = addresses.get(connection);
  if (!address) {
    address = varString(connection.messageAddress);
    addresses.set(connection, address);
  }
  return address;
}

/** The whole message for one connection: its address, then the shared body. */
export function statelessMessage(connection: Connection, body: Uint8Array): Uint8Array {
  const address = addressOf(connection);
  const message = new Uint8Array(address.byteLength + body.byteLength);
  message.set(address, 0);
  message.set(body, address.byteLength);
  return message;
}

/**
 * What `document.relayStateless(payload, filter)` does (no `beforeBroadcastStateless` hook),
 * with the payload encoded once. `connection.send` keeps Hocuspocus' handling of closing sockets.
 */
export function relayStatelessOnce<Context>(
  document: Document,
  payload: string,
  filter?: (connection: Connection<Context>) => boolean,
): void {
  let body: Uint8Array | null = null;
  for (const connection of document.getConnections() as Connection<Context>[]) {
    if (filter && !filter(connection)) continue;
    body ??= statelessBody(payload);
    connection.send(statelessMessage(connection, body));
  }
}
