/**
 * A bound on work done at once in this process: at most `running` tasks run, up to `waiting` more
 * wait for a turn in the order they came, and one past both is refused at once. A lint holds its
 * texts, its findings and its answer in memory: bounding how many run bounds what they hold.
 */
export class WorkGate {
  #running = 0;
  readonly #queue: Array<() => void> = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  /** Resolves with the release of a place once one is free; null when every place and turn is taken. */
  enter(): Promise<() => void> | null {
    if (this.#running < this.running) {
      this.#running += 1;
      return Promise.resolve(this.#release());
    }
    if (this.#queue.length >= this.waiting) return null;
    return new Promise((resolve) => this.#queue.push(() => resolve(this.#release())));
  }

  /** A release that frees its place once, handing it to the first waiting task. */
  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next();
      else this.#running -= 1;
    };
  }
}
