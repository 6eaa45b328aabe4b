import { type Connection, type Document, OutgoingMessage } from "@hocuspocus/server";
import { describe, expect, it } from "vitest";
import { relayStatelessOnce, statelessBody, statelessMessage } from "./stateless.ts";

/** Just what the encoder reads of a connection, and what it sends. */
function fakeConnection(messageAddress: string, sent: Uint8Array[]): Connection {
  return { messageAddress, send: (message: Uint8Array) => sent.push(message) } as unknown as Connection;
}

const payloads = [
  "",
  '{"type":"event"}',
  `{"type":"event","event":{"data":{"name":"${"é✓ 🌊".repeat(40)}"}}}`,
  "x".repeat(20_000),
];
const addresses = ["project.1", `project.1\0${"s".repeat(36)}`, `page.ü\0${"a".repeat(200)}`];

describe("stateless messages encoded once", () => {
  it("builds exactly Hocuspocus' own message for every address and payload", () => {
    for (const payload of payloads) {
      const body = statelessBody(payload);
      for (const address of addresses) {
        const expected = new OutgoingMessage(address).writeStateless(payload).toUint8Array();
        expect(statelessMessage(fakeConnection(address, []), body)).toEqual(expected);
      }
    }
  });

  it("sends to the connections the filter keeps, each with its own address", () => {
    const sent: Record<string, Uint8Array[]> = { a: [], b: [], c: [] };
    const connections = Object.keys(sent).map((name) => fakeConnection(`project.1\0${name}`, sent[name] ?? []));
    const document = { getConnections: () => connections } as unknown as Document;
    relayStatelessOnce(document, '{"n":1}', (connection) => connection !== connections[1]);
    expect(sent.a).toEqual([new OutgoingMessage("project.1\0a").writeStateless('{"n":1}').toUint8Array()]);
    expect(sent.b).toEqual([]);
    expect(sent.c).toEqual([new OutgoingMessage("project.1\0c").writeStateless('{"n":1}').toUint8Array()]);
  });
});
