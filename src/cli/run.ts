import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // A failed command (a server that could not start above all) may leave a timer or a socket
    // open; its one line is printed, so end now rather than linger.
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(`copydesk: ${error instanceof Error ? error.message : String(error)}`);
    // A failed start may leave a timer or a socket behind; nothing is left to finish.
    process.exit(1);
  },
);
