// Types of tests/serve-built.mjs for the TypeScript tests that start a second server.
export interface BuiltServer {
  readonly url: string;
  readonly port: number;
  dir: string;
  buildDir: string;
  state: string;
  readonly log: string;
  /** SIGKILLs workerd (its whole process group), no clean-up. */
  kill(): Promise<void>;
  /** Serves the same state again, with `vars` on top of the first start's (a new port: `url` changes). */
  restart(options?: { vars?: Record<string, string> }): Promise<void>;
  stop(): Promise<void>;
}

export function serveBuilt(options?: {
  name?: string;
  vars?: Record<string, string>;
  quiet?: boolean;
  fromBuild?: string;
  unsetVars?: string[];
}): Promise<BuiltServer>;
