/**
 * Malformed query strings and path parameters on every read route never answer 5xx (see
 * fuzz-support.ts; the write routes are fuzzed in fuzz-writes-*.test.ts).
 */
import { afterAll, beforeAll, describe, test } from "vitest";
import { type FuzzWorld, fuzzReadRoutes, fuzzWorld } from "./fuzz-support.ts";

describe("fuzzing every read route", () => {
  let world: FuzzWorld;
  beforeAll(async () => {
    world = await fuzzWorld();
    // Some twenty people, objects and sessions made through the API (passwords hashed with
    // scrypt): seconds on a quiet machine, over a minute on one that runs other suites too.
  }, 180_000);
  afterAll(async () => {
    await world?.t.close();
  });

  test("no read route answers 5xx to malformed query strings or path parameters", async () => {
    await fuzzReadRoutes(world);
  }, 240_000);
});
