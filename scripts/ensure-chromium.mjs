#!/usr/bin/env node
/**
 * Makes sure a system Chromium exists for the browser tests (`npm run test:e2e` runs this first).
 * `npx playwright install` cannot download browsers on every machine, while the distribution's
 * package always can, so the tests drive the system Chromium: CHROMIUM_PATH, else
 * /usr/bin/chromium, else /usr/bin/chromium-browser. When none is there and we are root (CI
 * containers), Debian's `chromium` package is installed; otherwise we say what to install.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findChromium() {
  return CANDIDATES.find(isExecutable);
}

function run(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    // No prompts: CI runs without a terminal or stdin.
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`ensure-chromium: \`${command} ${args.join(" ")}\` failed with exit code ${result.status}.`);
    process.exit(result.status ?? 1);
  }
}

if (process.env.CHROMIUM_PATH && !isExecutable(process.env.CHROMIUM_PATH)) {
  console.error(`ensure-chromium: CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable file.`);
  process.exit(1);
}

let found = findChromium();
if (!found) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      [
        "ensure-chromium: no Chromium found for the browser tests (looked at CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser).",
        "Install one, then run the tests again:",
        "  Debian/Ubuntu:  sudo apt-get install chromium",
        "  or point CHROMIUM_PATH at an existing Chromium/Chrome binary, e.g. CHROMIUM_PATH=/opt/google/chrome/chrome",
      ].join("\n"),
    );
    process.exit(1);
  }
  console.log("ensure-chromium: no Chromium found; installing Debian's `chromium` package (running as root).");
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "chromium"]);
  found = findChromium();
  if (!found) {
    console.error("ensure-chromium: `apt-get install chromium` finished but no /usr/bin/chromium appeared.");
    process.exit(1);
  }
}

const version = spawnSync(found, ["--version"], { encoding: "utf8" });
const versionText = version.status === 0 ? version.stdout.trim() : "version unknown";
console.log(`ensure-chromium: using ${found} (${versionText})`);
