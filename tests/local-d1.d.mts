// Types of tests/local-d1.mjs for the TypeScript tests.
export function localD1(
  state: string,
  options:
    | { command: string; file?: undefined; rows?: false; tries?: number }
    | { file: string; command?: undefined; rows?: false; tries?: number },
): undefined;
export function localD1<Row = Record<string, unknown>>(state: string, options: { command: string; rows: true; tries?: number }): Row[];
