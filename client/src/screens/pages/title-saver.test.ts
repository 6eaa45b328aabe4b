import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTitleSaver, type TitleSaveState } from "./title-saver";

function setup(answers: boolean[] = [], options: { slow?: boolean } = {}) {
  const states: TitleSaveState[] = [];
  const reverted: string[] = [];
  const sent: string[] = [];
  const resolvers: ((ok: boolean) => void)[] = [];
  const saver = createTitleSaver({
    initial: "Plan",
    save: (name) => {
      sent.push(name);
      if (options.slow) return new Promise<boolean>((resolve) => resolvers.push(resolve));
      return Promise.resolve(answers.shift() ?? true);
    },
    onState: (s) => states.push(s),
    onRevert: (name) => reverted.push(name),
  });
  return { saver, states, reverted, sent, resolvers };
}

describe("createTitleSaver", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("saves 2 seconds after the last change, through submitting → submitted → saved", async () => {
    const { saver, states, sent } = setup();
    saver.change("Pl");
    await vi.advanceTimersByTimeAsync(1500);
    saver.change("Plan B");
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent).toEqual([]);
    expect(states).toEqual(["submitting"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(["Plan B"]);
    expect(states).toEqual(["submitting", "submitted"]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(states).toEqual(["submitting", "submitted", "saved"]);
    expect(saver.busy()).toBe(false);
  });

  it("does not send a name equal to the saved one (after trimming)", async () => {
    const { saver, states, sent } = setup();
    saver.change("Plan  ");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual([]);
    expect(states).toEqual(["submitting", "saved"]);
  });

  it("brings the old name back when the server refuses", async () => {
    const { saver, states, reverted, sent } = setup([false]);
    saver.change("Broken");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual(["Broken"]);
    expect(reverted).toEqual(["Plan"]);
    expect(states).toEqual(["submitting", "saved"]);
    // The old name is still the saved one: typing it again sends nothing.
    saver.change("Plan");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual(["Broken"]);
  });

  it("keeps newer typing when an earlier save fails, and saves it next", async () => {
    const { saver, reverted, sent, resolvers, states } = setup([], { slow: true });
    saver.change("One");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual(["One"]);
    saver.change("Two");
    resolvers[0]?.(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(reverted).toEqual([]);
    expect(states.at(-1)).toBe("submitting");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual(["One", "Two"]);
    resolvers[1]?.(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(states.at(-1)).toBe("submitted");
  });

  it("sends a change whose timer fired while a request was running once that request ends", async () => {
    const { saver, sent, resolvers } = setup([], { slow: true });
    saver.change("One");
    await vi.advanceTimersByTimeAsync(2000);
    saver.change("Two");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual(["One"]);
    resolvers[0]?.(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(["One", "Two"]);
  });

  it("flush saves at once; dispose saves quietly", async () => {
    const { saver, sent, states } = setup();
    saver.change("Now");
    await saver.flush();
    expect(sent).toEqual(["Now"]);
    saver.change("Later");
    const count = states.length;
    await saver.dispose();
    expect(sent).toEqual(["Now", "Later"]);
    expect(states.length).toBe(count);
  });

  it("adopts a name changed elsewhere only when idle", async () => {
    const { saver, sent } = setup();
    expect(saver.sync("Renamed elsewhere")).toBe(true);
    saver.change("Renamed elsewhere");
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toEqual([]);
    saver.change("Mine");
    expect(saver.sync("Theirs")).toBe(false);
  });
});
