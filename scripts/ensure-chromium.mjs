#!/usr/bin/env node
/**
 * Makes sure a system Chromium exists for the browser tests (`npm run test:e2e` runs this first).
 * `npx playwright install` cannot download browsers on every machine, while the distribution's
 * packages always can, so the tests drive a system Chromium: CHROMIUM_PATH, else the headless
 * shell (/usr/bin/chromium-headless-shell), else /usr/bin/chromium or /usr/bin/chromium-browser.
 *
 * The headless shell is Chromium without the browser's window machinery — what Playwright itself
 * uses for headless runs. On the 2-core machines it takes about a fifth less CPU than the full
 * browser in headless mode (measured over the whole e2e suite: 367 vs 482 CPU-seconds of Chromium,
 * 4.8 vs 6.0 min), so when we are root (CI containers) and it is missing, Debian's
 * `chromium-headless-shell` package is installed; if that fails, the full `chromium` does.
 * Otherwise we say what to install.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findChromium() {
  return [process.env.CHROMIUM_PATH, HEADLESS_SHELL, ...FULL].filter(Boolean).find(isExecutable);
}

/** Runs a command with the output shown; answers whether it succeeded. */
function run(command, args) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    // No prompts: CI runs without a terminal or stdin.
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.error) console.error(`ensure-chromium: ${result.error.message}`);
  return !result.error && result.status === 0;
}

/** apt-get install, first from the package lists at hand, then after refreshing them. */
function aptInstall(pkg) {
  if (run("apt-get", ["install", "-y", "--no-install-recommends", pkg])) return true;
  return run("apt-get", ["update"]) && run("apt-get", ["install", "-y", "--no-install-recommends", pkg]);
}

if (process.env.CHROMIUM_PATH && !isExecutable(process.env.CHROMIUM_PATH)) {
  console.error(`ensure-chromium: CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable file.`);
  process.exit(1);
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
if (!process.env.CHROMIUM_PATH && !isExecutable(HEADLESS_SHELL) && isRoot) {
  console.log("ensure-chromium: installing Debian's `chromium-headless-shell` package (running as root).");
  if (!aptInstall("chromium-headless-shell"))
    console.log("ensure-chromium: the headless shell could not be installed.");
}

let found = findChromium();
if (!found) {
  if (!isRoot) {
    console.error(
      [
        "ensure-chromium: no Chromium found for the browser tests (looked at CHROMIUM_PATH,",
        `${HEADLESS_SHELL}, ${FULL.join(", ")}).`,
        "Install one, then run the tests again:",
        "  Debian/Ubuntu:  sudo apt-get install chromium-headless-shell   (or chromium)",
        "  or point CHROMIUM_PATH at an existing Chromium/Chrome binary, e.g. CHROMIUM_PATH=/opt/google/chrome/chrome",
      ].join("\n"),
    );
    process.exit(1);
  }
  console.log("ensure-chromium: installing Debian's `chromium` package (running as root).");
  aptInstall("chromium");
  found = findChromium();
  if (!found) {
    console.error("ensure-chromium: `apt-get install chromium` finished but no Chromium appeared.");
    process.exit(1);
  }
}

const version = spawnSync(found, ["--version"], { encoding: "utf8" });
const versionText = version.status === 0 ? version.stdout.trim() : "version unknown";
console.log(`ensure-chromium: using ${found} (${versionText})`);
