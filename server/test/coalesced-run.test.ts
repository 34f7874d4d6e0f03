import { describe, expect, it, vi } from 'vitest';
import { CoalescedRun } from '../src/lib/coalesced-run.js';

/** A piece of work that waits until released, counting its runs. */
function gatedWork() {
  let release: () => void = () => undefined;
  const state = { runs: 0 };
  const work = vi.fn(async () => {
    state.runs += 1;
    await new Promise<void>((resolve) => (release = resolve));
  });
  return { work, state, release: () => release() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a coalesced run', () => {
  it('runs once more after the run in progress, however often it was asked meanwhile', async () => {
    const { work, release } = gatedWork();
    const run = new CoalescedRun(work, { stopped: () => false, onError: () => undefined });
    run.request();
    run.request();
    run.request();
    await settle();
    expect(work).toHaveBeenCalledTimes(1);
    release();
    await settle();
    // The requests during the first run: one more run, not two.
    expect(work).toHaveBeenCalledTimes(2);
    release();
    await run.current;
    expect(run.current).toBeNull();
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('reports a failure, ends that run, and starts afresh on the next request', async () => {
    const onError = vi.fn();
    let fail = true;
    const work = vi.fn(async () => {
      if (fail) throw new Error('database gone');
    });
    const run = new CoalescedRun(work, { stopped: () => false, onError });
    run.request();
    await run.current;
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database gone' }));
    fail = false;
    run.request();
    await run.current;
    expect(work).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('starts nothing once stopped, and does not go round again', async () => {
    let stopped = false;
    const { work, release } = gatedWork();
    const run = new CoalescedRun(work, { stopped: () => stopped, onError: () => undefined });
    run.request();
    await settle();
    run.request();
    stopped = true;
    release();
    await run.current;
    expect(work).toHaveBeenCalledTimes(1);
    run.request();
    expect(run.current).toBeNull();
  });
});
