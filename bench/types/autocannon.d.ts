/** The part of autocannon 9 the benchmarks use (the package ships no types). */
declare module "autocannon" {
  type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: (RawRequest & {
      setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    })[];
  };
  type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; total: number } & Record<
    `p${string}`,
    number
  >;
  type Result = {
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    "2xx": number;
    [key: string]: unknown;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
  export type { Options, RawRequest, Result };
}
