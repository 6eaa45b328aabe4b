/**
 * Which cached objects were changed here since a fetch began.
 *
 * A fetch that began before a local change, or while one was on its way to the server, carries
 * an older copy of the object: adopting it would take the change back off the screen (a star
 * that goes out again a moment after the click). Stores stamp an object around each local
 * change and drop a fetched copy that `isNewerHere` says is stale: the change's own answer
 * brings the server's copy.
 *
 * Changes of one object are also sent in order: each waits for the one before it to settle.
 * Two requests sent at once travel on separate connections and may reach the server in either
 * order — a widget switched off and on again quickly was stored off, while the screen said on.
 */
export class LocalChanges {
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  /** The last change of each object still queued or on its way: the next one starts after it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  /** The moment a fetch begins (pass it to `isNewerHere` with the fetch's answer). */
  now(): number {
    return this.clock;
  }

  /** True while a change of `id` is in flight, or when one settled after `since`. */
  isNewerHere(id: string, since: number): boolean {
    return this.inFlight.has(id) || (this.changedAt.get(id) ?? 0) > since;
  }

  /** True while a change of `id` is queued or on its way (a live event about it is older news). */
  isChanging(id: string): boolean {
    return this.inFlight.has(id);
  }

  /** Stamps `id` as changed here now (a change that needed no round trip of its own). */
  stamp(id: string): void {
    this.changedAt.set(id, ++this.clock);
  }

  /**
   * Runs `change` once the changes of `id` begun before it have settled (answered or refused),
   * with `id` stamped as changed here from the moment it is asked for until it settles.
   */
  async track<T>(id: string, change: () => Promise<T>): Promise<T> {
    this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    this.changedAt.set(id, ++this.clock);
    const before = this.tails.get(id);
    // With nothing before it the change starts at once, as the caller asked it.
    const run = before ? before.then(settled, settled).then(change) : Promise.resolve().then(change);
    const tail = run.then(settled, settled);
    this.tails.set(id, tail);
    try {
      return await run;
    } finally {
      if (this.tails.get(id) === tail) this.tails.delete(id);
      const left = (this.inFlight.get(id) ?? 1) - 1;
      if (left > 0) this.inFlight.set(id, left);
      else this.inFlight.delete(id);
      this.changedAt.set(id, ++this.clock);
    }
  }
}

function settled(): void {}
