// SIGHUP's default action ends the process. Between a start and the moment the lifecycle listens for
// it (the corpus read and indexed, the gateway connected: seconds), a reload asked for then, such as
// `systemctl reload` just after `systemctl start`, would kill the bot: it is held instead, and done
// once the lifecycle listens.
let held = false;
const hold = (): void => {
  held = true;
};

/** From now until `takeEarlySighup`, a SIGHUP is remembered rather than fatal. */
export function holdEarlySighup(): void {
  process.on('SIGHUP', hold);
}

/** Stops holding SIGHUP; true when one came meanwhile (the caller reloads once). */
export function takeEarlySighup(): boolean {
  process.off('SIGHUP', hold);
  const came = held;
  held = false;
  return came;
}
