/**
 * Malformed input to every write route never answers 5xx, nor reaches the database unchecked:
 * half 1 of the write routes (fuzz-support.ts splits them so two test workers share the ~5,000
 * requests; each half runs on a database of its own).
 */
import { afterAll, beforeAll, describe, test } from "vitest";
import { type FuzzWorld, fuzzWorld, fuzzWriteRoutes } from "./fuzz-support.ts";

describe("fuzzing every write route, half 1 of 2", () => {
  let world: FuzzWorld;
  beforeAll(async () => {
    world = await fuzzWorld();
    // Some twenty people, objects and sessions made through the API (passwords hashed with
    // scrypt): seconds on a quiet machine, over a minute on one that runs other suites too.
  }, 180_000);
  afterAll(async () => {
    await world?.t.close();
  });

  test("no write route answers 5xx to malformed input", async () => {
    await fuzzWriteRoutes(world, 0, 2);
  }, 240_000);
});
