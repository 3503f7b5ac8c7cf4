// Types of tests/serve-built.mjs for the TypeScript tests that start a second server.
export interface BuiltServer {
  url: string;
  port: number;
  dir: string;
  buildDir: string;
  state: string;
  readonly log: string;
  stop(): Promise<void>;
}

export function serveBuilt(options?: {
  name?: string;
  vars?: Record<string, string>;
  quiet?: boolean;
  fromBuild?: string;
  unsetVars?: string[];
}): Promise<BuiltServer>;
