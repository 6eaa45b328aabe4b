/** The configured storage driver (config.storage): local files by default, S3 when set up. */
import { createRequire } from "node:module";
import type { Config } from "../config.ts";
import { LOCAL_UPLOAD_PATH, LocalStorage } from "./local.ts";
import type { Storage } from "./types.ts";

const require = createRequire(import.meta.url);

export function createStorage(config: Config): Storage {
  const storage = config.storage;
  // The AWS SDK is loaded only for the S3 driver: a faster start on local files.
  if (storage.driver === "s3") return new (require("./s3.ts") as typeof import("./s3.ts")).S3Storage(storage);
  return new LocalStorage({
    dir: storage.dir,
    secretKey: config.secretKey,
    uploadUrl: `${config.appBaseUrl}${LOCAL_UPLOAD_PATH}`,
  });
}

export { FileTooLargeError, LOCAL_UPLOAD_PATH, LocalStorage } from "./local.ts";
export * from "./types.ts";
