/** The configured storage driver (config.storage): local files by default, S3 when set up. */
import type { Config } from "../config.ts";
import { LOCAL_UPLOAD_PATH, LocalStorage } from "./local.ts";
import { S3Storage } from "./s3.ts";
import type { Storage } from "./types.ts";

export function createStorage(config: Config): Storage {
  const storage = config.storage;
  if (storage.driver === "s3") return new S3Storage(storage);
  return new LocalStorage({
    dir: storage.dir,
    secretKey: config.secretKey,
    uploadUrl: `${config.appBaseUrl}${LOCAL_UPLOAD_PATH}`,
  });
}

export { FileTooLargeError, LOCAL_UPLOAD_PATH, LocalStorage } from "./local.ts";
export { S3Storage } from "./s3.ts";
export * from "./types.ts";
