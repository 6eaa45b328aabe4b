import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, serverNodeFlags } from "./server-node-flags.ts";

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), "utf8");

describe("the server's Node flags", () => {
  it("are read from `npm run serve`", () => {
    expect(serverNodeFlags()).toContain("--max-semi-space-size=16");
  });

  it("are the same for `npm start` and the Docker image", () => {
    const flags = serverNodeFlags();
    const manifest = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toContain(`node ${flags.join(" ")} live-server/src/main.ts`);
    const cmd = /^CMD (\[.*\])$/m.exec(read("Dockerfile"))?.[1];
    expect(cmd && JSON.parse(cmd)).toEqual(["node", ...flags, "live-server/src/main.ts"]);
  });
});
