/**
 * Stops the process on the first SIGINT or SIGTERM: runs `stop` (close the server and the stores), then exits 0, or
 * 1 when stopping failed. The listeners stay, so a signal that arrives while it stops (a second Ctrl-C, the same
 * signal passed on by npm or tsx) cannot end the process before the stores are closed: PGlite writes its last
 * changes on close.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('stopping failed:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
