/** Runs `work` every `intervalMs` (never two at once), until stopped; failures go to `onError`. */
export class IntervalTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.work()
        .catch(this.onError)
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
