/**
 * Waits for a state, not for a time: asks `reached` every 20 ms until it holds. The deadline only
 * ends a hang (time, not a count of polls, and generous for a busy machine); the error names what
 * was awaited.
 */
export async function until(reached: () => boolean | Promise<boolean>, what: string, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await reached())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
