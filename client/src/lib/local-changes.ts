/**
 * Which cached objects were changed here since a fetch began.
 *
 * A fetch that began before a local change, or while one was on its way to the server, carries
 * an older copy of the object: adopting it would take the change back off the screen (a star
 * that goes out again a moment after the click). Stores stamp an object around each local
 * change and drop a fetched copy that `isNewerHere` says is stale: the change's own answer
 * brings the server's copy.
 */
export class LocalChanges {
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();

  /** The moment a fetch begins (pass it to `isNewerHere` with the fetch's answer). */
  now(): number {
    return this.clock;
  }

  /** True while a change of `id` is in flight, or when one settled after `since`. */
  isNewerHere(id: string, since: number): boolean {
    return this.inFlight.has(id) || (this.changedAt.get(id) ?? 0) > since;
  }

  /** Stamps `id` as changed here now (a change that needed no round trip of its own). */
  stamp(id: string): void {
    this.changedAt.set(id, ++this.clock);
  }

  /** Runs `change` with `id` stamped as changed here from its start to its end. */
  async track<T>(id: string, change: () => Promise<T>): Promise<T> {
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    this.changedAt.set(id, ++this.clock);
    try {
      return await change();
    } finally {
      const left = (this.inFlight.get(id) ?? 1) - 1;
      if (left > 0) this.inFlight.set(id, left);
      else this.inFlight.delete(id);
      this.changedAt.set(id, ++this.clock);
    }
  }
}
