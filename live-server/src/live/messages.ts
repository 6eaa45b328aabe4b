/**
 * Reading the y-sync messages Hocuspocus hands to `beforeHandleMessage` (the raw frame: document
 * address, message type, then the y-protocols sync message), so extensions can act on a
 * document update before the server applies and acknowledges it.
 */

import { IncomingMessage, MessageType } from "@hocuspocus/server";
import { DOCUMENT_GENERATION_KEY, DOCUMENT_META_MAP } from "@tideline/shared";
import { messageYjsSyncStep2, messageYjsUpdate } from "y-protocols/sync";
import * as Y from "yjs";

/**
 * The Yjs update a frame carries (SyncStep2 or Update), or null for every other message
 * (SyncStep1, awareness, stateless, auth…). Throws on a malformed frame.
 */
export function yjsUpdateOf(frame: Uint8Array): Uint8Array | null {
  const message = new IncomingMessage(frame);
  message.readVarString();
  const type = message.readVarUint();
  if (type !== MessageType.Sync && type !== MessageType.SyncReply) return null;
  const step = message.readVarUint();
  if (step !== messageYjsSyncStep2 && step !== messageYjsUpdate) return null;
  return message.readVarUint8Array();
}

/** The byte length of the awareness update a frame carries, or null for every other message. */
export function awarenessLengthOf(frame: Uint8Array): number | null {
  const message = new IncomingMessage(frame);
  message.readVarString();
  if (message.readVarUint() !== MessageType.Awareness) return null;
  return frame.byteLength - message.decoder.pos;
}

/** An update with nothing in it (what a client in sync sends as its SyncStep2). */
export function isEmptyUpdate(update: Uint8Array): boolean {
  return update.length <= 2;
}

/**
 * Parse `update` fully (throws on garbage, so a broken update never reaches the log) and return
 * the document generations it stamps (see DOCUMENT_META_MAP): the first write of the key is
 * the only one, and it names its parent map, so it is found without the document.
 */
export function inspectUpdate(update: Uint8Array): { generations: string[] } {
  const { structs } = Y.decodeUpdate(update);
  const generations: string[] = [];
  for (const struct of structs) {
    // In a decoded update, the parent of an item under a root type is that type's name.
    const parent: unknown = struct instanceof Y.Item ? struct.parent : null;
    if (struct instanceof Y.Item && parent === DOCUMENT_META_MAP && struct.parentSub === DOCUMENT_GENERATION_KEY) {
      const [value] = struct.content.getContent();
      if (typeof value === "string") generations.push(value);
    }
  }
  return { generations };
}

/**
 * Whether an outgoing frame is Hocuspocus' sync acknowledgement (MessageType.SyncStatus), and
 * if so whether it says "applied". Null for every other message.
 */
export function syncStatusOf(frame: Uint8Array): { applied: boolean } | null {
  const message = new IncomingMessage(frame);
  message.readVarString();
  if (message.readVarUint() !== MessageType.SyncStatus) return null;
  return { applied: message.readVarUint() === 1 };
}
