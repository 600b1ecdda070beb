// The entry point of an extraction process (extraction-processes.ts starts them): the work of an
// extraction thread, in a process of its own, for PDFs read by poppler. Tasks arrive over IPC one
// at a time; each answers the thread's Outcome, or `thrown` for an unexpected error (retried).
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)) });

const work = await import("./extraction-thread.ts");

// The channel closes when the parent ends, however it ends (exit, SIGKILL, crash): this process
// ends then too, rather than finish a document no one waits for beside the parent's successor
// (issue 42 item 3). The tools it started go with it (infrastructure/processes/dying-with-parent.ts).
process.on("disconnect", () => process.exit(0));

process.on("message", async ({ id, name, task }) => {
  try {
    // Bytes arrive as a Uint8Array of their own; the thread's functions read an ArrayBuffer.
    const bytes = task.bytes.buffer.slice(task.bytes.byteOffset, task.bytes.byteOffset + task.bytes.byteLength);
    process.send({ id, outcome: await work[name]({ ...task, bytes }) });
  } catch (error) {
    process.send({ id, thrown: error instanceof Error ? error.message : String(error) });
  }
});
