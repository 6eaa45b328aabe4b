/**
 * The reference web client's page editor on our live layer: GET /live/collaboration.
 *
 * That editor is a HocuspocusProvider with its own WebSocket to
 * `{LIVE_BASE_PATH}/collaboration?documentType=project_page&projectId=…&workspaceSlug=…`, one
 * socket per page, whose document name is the bare page id. Its token is the JSON of the user
 * ({id, name, color}); the reference's live server reads the session from the upgrade's cookie
 * and checks that the token's id is that user. Here the socket is served by the same
 * Hocuspocus as /live, with the same Origin, session and rights checks, and every document it
 * opens is the SAME document as `page.{id}` on /live, so both clients co-edit one page:
 * - incoming frames: the address (the document name, or `name\0session`) gets the `page.`
 *   prefix, always; a name that is not a page id then fails parseDocumentName and is refused
 *   `forbidden`. Outgoing frames lose the prefix again, so the provider sees its own name;
 * - the query scopes the socket: documentType must be `project_page` (the reference's only
 *   kind), and the page must be in the workspace `workspaceSlug` and the project `projectId`
 *   (documents.ts `collaborationScopeAllows`), at authentication and at every re-check;
 * - a document close (Hocuspocus' CLOSE message: `forbidden`, `access-changed`, `unauthorized`,
 *   too large…) closes the whole socket with the reason's code instead: the reference's
 *   provider (v2) can't read a CLOSE message, and its socket carries this one document. It
 *   reconnects after `access-changed` (and learns its new scope), and stops after 4401/4403.
 * Page notices the reference's editor listens for (`locked`, `unlocked`, `archived`,
 * `unarchived`, `made-public`, `made-private`: plain stateless strings) are sent from our own
 * domain events (extensions/events.ts), never relayed from what a client claims.
 */
import { IncomingMessage, MessageType, type WebSocketLike } from "@hocuspocus/server";
import { type DomainEvent, liveCloseFor, pageDocumentName } from "@tideline/shared";
import type { WebSocket } from "ws";
import { varString } from "./stateless.ts";

/** Where the reference's web client opens its page editor (its LIVE_BASE_PATH is /live). */
export const COLLABORATION_PATH = "/live/collaboration";

/** The one document type of the reference's live server (its TDocumentTypes). */
export const COLLABORATION_DOCUMENT_TYPE = "project_page";

/** What a /live/collaboration socket was opened for, from its query. */
export type CollaborationScope = {
  documentType: string | null;
  projectId: string | null;
  workspaceSlug: string | null;
};

const PREFIX = pageDocumentName("");

/** The scope of a /live/collaboration upgrade, read from its query string. */
export function collaborationScopeOf(query: URLSearchParams): CollaborationScope {
  return {
    documentType: query.get("documentType"),
    projectId: query.get("projectId"),
    workspaceSlug: query.get("workspaceSlug"),
  };
}

/** Replace the address a frame starts with by `rename(address)`; the rest of the frame is kept. */
function readdress(frame: Uint8Array, rename: (address: string) => string): Uint8Array {
  const message = new IncomingMessage(frame);
  const address = message.readVarString();
  const rest = frame.subarray(message.decoder.pos);
  const head = varString(rename(address));
  const out = new Uint8Array(head.byteLength + rest.byteLength);
  out.set(head, 0);
  out.set(rest, head.byteLength);
  return out;
}

/** A frame from the reference's provider, addressed to our document: `{id}` → `page.{id}`. */
export function toServerFrame(frame: Uint8Array): Uint8Array {
  return readdress(frame, (address) => PREFIX + address);
}

/** A frame of ours, addressed as the reference's provider knows the document: `page.{id}` → `{id}`. */
export function toClientFrame(frame: Uint8Array): Uint8Array {
  return readdress(frame, (address) => (address.startsWith(PREFIX) ? address.slice(PREFIX.length) : address));
}

/** The reason of a CLOSE frame (a document closed by the server), or null for every other frame. */
function closeReasonOf(frame: Uint8Array): string | null {
  const message = new IncomingMessage(frame);
  message.readVarString();
  if (message.readVarUint() !== MessageType.CLOSE) return null;
  return message.readVarString();
}

/** Hocuspocus' ResetConnection: a close without a reason of ours; the provider reconnects. */
const RESET = { code: 4205, reason: "Reset Connection" };

/**
 * What Hocuspocus writes to a /live/collaboration socket goes through this: addresses lose the
 * `page.` prefix, and a document close becomes the socket's close (see the file comment).
 */
export class CollaborationSocket implements WebSocketLike {
  private readonly socket: WebSocket;

  constructor(socket: WebSocket) {
    this.socket = socket;
  }

  get readyState(): number {
    return this.socket.readyState;
  }

  send(data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
    if (!(data instanceof Uint8Array)) throw new Error("live frames are binary");
    if (this.socket.readyState !== this.socket.OPEN) return;
    const reason = closeReasonOf(data);
    if (reason !== null) {
      const known = liveCloseFor(reason);
      this.close(known?.code ?? RESET.code, known?.reason ?? RESET.reason);
      return;
    }
    this.socket.send(toClientFrame(data));
  }

  close(code?: number, reason?: string): void {
    if (this.socket.readyState === this.socket.CLOSING || this.socket.readyState === this.socket.CLOSED) return;
    this.socket.close(code, reason);
  }
}

/**
 * The notice the reference's page editor expects for a page event, or null. It listens for
 * these six (its DocumentCollaborativeEvents' client names) and updates its page header and
 * editability from them; a page event is sent to each of the page's projects, so the notice
 * goes only to sockets opened for the event's project.
 */
export function collaborationNoticeFor(event: DomainEvent): string | null {
  switch (event.type) {
    case "page.locked":
      return "locked";
    case "page.unlocked":
      return "unlocked";
    case "page.archived":
      return "archived";
    case "page.restored":
      return "unarchived";
    case "page.updated": {
      const changed = event.data.changed_fields;
      if (!Array.isArray(changed) || !changed.includes("access")) return null;
      return event.data.access === 1 ? "made-private" : "made-public";
    }
    default:
      return null;
  }
}
