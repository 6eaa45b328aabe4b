/**
 * Counters of the live layer on this instance, for GET /api/instances/live-metrics/ (instance
 * admins): what is open now (documents, connections) and what happened since start.
 */
import type { Extension, Hocuspocus, onConfigurePayload } from "@hocuspocus/server";
import type { LiveContext } from "../context.ts";

export type LiveMetricsSnapshot = {
  instance_id: string;
  documents: number;
  connections: number;
  documents_by_kind: Record<string, number>;
  since: string;
  totals: {
    documents_loaded: number;
    documents_unloaded: number;
    connections_accepted: number;
    connections_refused: number;
    messages: number;
    stores: number;
  };
  memory: { rss_bytes: number; heap_used_bytes: number };
};

export class Metrics implements Extension<LiveContext> {
  extensionName = "tideline-metrics";
  /** First, so refusals by the others are still counted. */
  priority = 1000;
  private instance: Hocuspocus<LiveContext> | null = null;
  private readonly instanceId: string;
  private readonly since = new Date();
  private readonly totals = {
    documents_loaded: 0,
    documents_unloaded: 0,
    connections_accepted: 0,
    connections_refused: 0,
    messages: 0,
    stores: 0,
  };

  constructor(instanceId: string) {
    this.instanceId = instanceId;
  }

  async onConfigure({ instance }: onConfigurePayload): Promise<void> {
    this.instance = instance;
  }

  async afterLoadDocument(): Promise<void> {
    this.totals.documents_loaded += 1;
  }

  async afterUnloadDocument(): Promise<void> {
    this.totals.documents_unloaded += 1;
  }

  async connected(): Promise<void> {
    this.totals.connections_accepted += 1;
  }

  async beforeHandleMessage(): Promise<void> {
    this.totals.messages += 1;
  }

  async afterStoreDocument(): Promise<void> {
    this.totals.stores += 1;
  }

  /** Called by the Authentication extension when it refuses a document connection. */
  countRefusal(): void {
    this.totals.connections_refused += 1;
  }

  snapshot(): LiveMetricsSnapshot {
    const byKind: Record<string, number> = {};
    for (const name of this.instance?.documents.keys() ?? []) {
      const kind = name.slice(0, name.indexOf("."));
      byKind[kind] = (byKind[kind] ?? 0) + 1;
    }
    const memory = process.memoryUsage();
    return {
      instance_id: this.instanceId,
      documents: this.instance?.getDocumentsCount() ?? 0,
      connections: this.instance?.getConnectionsCount() ?? 0,
      documents_by_kind: byKind,
      since: this.since.toISOString(),
      totals: { ...this.totals },
      memory: { rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed },
    };
  }
}
