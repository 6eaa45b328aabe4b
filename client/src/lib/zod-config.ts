/**
 * Imported first by main.tsx, before any module defines a zod schema. The server's
 * Content-Security-Policy allows no eval, and zod (unless jitless) probes `new Function` when a
 * schema is created — caught, but reported by the browser as a CSP violation.
 */
import { config } from "zod";

config({ jitless: true });
