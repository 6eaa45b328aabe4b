/**
 * HTTP load with autocannon: a fixed number of connections for a fixed time against one
 * request (or a rotating set), reduced to the figures the table reports.
 */
import autocannon, { type RawRequest } from "autocannon";

export type LoadOptions = {
  url: string;
  path: string;
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  /** A fixed body, or one built per request (e.g. to make every PATCH a real change). */
  body?: string | ((n: number) => string);
  /** A path per request (rotating over several items), overriding `path`. */
  pathFor?: (n: number) => string;
  connections: number;
  durationSeconds: number;
};

export type LoadResult = {
  medianMs: number;
  p99Ms: number;
  maxMs: number;
  requestsPerSecond: number;
  completed: number;
  non2xx: number;
  errors: number;
  timeouts: number;
};

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const { body, pathFor } = options;
  const dynamic = typeof body === "function" || pathFor !== undefined;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    method: options.method ?? "GET",
    headers: options.headers,
    ...(typeof body === "string" ? { body } : {}),
    requests: [
      {
        method: options.method ?? "GET",
        path: options.path,
        ...(dynamic
          ? {
              setupRequest: (request: RawRequest): RawRequest => {
                const i = n++;
                return {
                  ...request,
                  ...(pathFor ? { path: pathFor(i) } : {}),
                  ...(typeof body === "function" ? { body: body(i) } : {}),
                };
              },
            }
          : {}),
      },
    ],
  });
  // autocannon reports 0 ms latencies when no request completed in time (a very busy machine,
  // a short duration): that is no measurement, not a fast answer.
  const completed = result["2xx"] + result.non2xx;
  return {
    medianMs: completed ? (result.latency.p50 ?? Number.NaN) : Number.NaN,
    p99Ms: completed ? (result.latency.p99 ?? Number.NaN) : Number.NaN,
    maxMs: result.latency.max,
    requestsPerSecond: result.requests.average,
    completed,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
