// The little of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    [percentile: string]: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    requests?: Array<{
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      /** Called before each request is sent: returns the request to send (e.g. another path). */
      setupRequest?: (request: { method?: string; path?: string }) => { method?: string; path?: string };
    }>;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram & { max: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
