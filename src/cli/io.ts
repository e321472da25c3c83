/** Where the administrator's tool writes, and what its environment is (tests pass their own). */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** A terminal to draw progress on (written as is, no newline added); none: no progress bar. */
  terminal?: (text: string) => void;
}

/** The `--json` option every command takes. */
export type Json = { json?: boolean };
