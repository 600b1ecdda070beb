// Graceful shutdown of a web process (issue 32), plain JavaScript for server.mjs.
// On SIGTERM the server stops accepting connections, idle keep-alive connections
// are closed, and requests in flight (streamed answers above all) get until the
// deadline to finish; only then does the runtime stop (projectors end on a
// committed checkpoint, the runner waits for its steps), so no answer is cut
// mid-sentence by the stores closing under it.

/** The deadline the supervisor also waits for (plus a margin) before it kills a process. */
export function shutdownDeadlineMs(env = process.env) {
  const value = Number(env.SHUTDOWN_DEADLINE_MS);
  return Number.isFinite(value) && value > 0 ? value : 8_000;
}

/** Counts requests in flight; `drain` closes the server and waits for them, up to the deadline. */
export function requestsInFlight() {
  let open = 0;
  let draining = false;
  /** Resolved when the last request in flight has finished. */
  const waiting = [];
  const track = (req, res, next) => {
    open++;
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      open--;
      if (open === 0) for (const resolve of waiting.splice(0)) resolve();
    };
    res.once("finish", done);
    res.once("close", done);
    // A response that starts while draining asks its client not to reuse the connection.
    if (draining) res.setHeader("Connection", "close");
    next();
  };
  async function drain(server, deadlineMs) {
    draining = true;
    if (!server) return { unfinished: 0 };
    server.close();
    server.closeIdleConnections?.();
    if (open > 0) {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, deadlineMs);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const unfinished = open;
    server.closeAllConnections?.();
    return { unfinished };
  }
  return { track, drain };
}
