/**
 * Runs `work` one at a time, on request. A request while it runs is not a second run beside it: the
 * run goes round once more when it ends, however often it was asked meanwhile, so what arrived
 * during a run is never left for later. A failure goes to `onError` and ends the run; the next
 * request starts a new one. Nothing starts once `stopped()` answers true.
 */
export class CoalescedRun {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly options: { stopped: () => boolean; onError: (error: unknown) => void },
  ) {}

  request(): void {
    if (this.options.stopped()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.work();
        } while (this.again && !this.options.stopped());
      } catch (error) {
        this.options.onError(error);
      } finally {
        this.running = null;
      }
    })();
  }

  /** The run in progress, or null. */
  get current(): Promise<void> | null {
    return this.running;
  }
}
