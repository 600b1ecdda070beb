import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

/**
 * A command line whose process is killed when the thread that started it ends,
 * whether that process exits, is killed (SIGKILL) or crashes (issue 42 item 3):
 * util-linux's `setpriv --pdeathsig KILL` sets Linux's parent-death signal and
 * becomes the command, so the pid, its output and its exit status are the
 * command's own. Node cannot call prctl itself without native code. Without
 * setpriv, or when the command is not installed (its callers tell a missing
 * program by ENOENT), the command line is returned as it was.
 */
export function dyingWithParent(command: string, args: string[]): [string, string[]] {
  if (!SETPRIV || !found(command)) return [command, args];
  return [SETPRIV, ["--pdeathsig", "KILL", "--", command, ...args]];
}

/**
 * The same for a command that forks processes of its own, which a parent-death signal does not
 * follow (soffice starts soffice.bin and exits): bubblewrap runs it in a process namespace of its
 * own that ends with bubblewrap (`--die-with-parent`), taking every process in it along. The whole
 * file system is bound as it is: this isolates nothing, it only ties lifetimes. Where bubblewrap
 * cannot make the namespace (no user namespaces), as `dyingWithParent`.
 */
export function dyingWithDescendants(command: string, args: string[]): [string, string[]] {
  if (!found(command) || !namespaces()) return dyingWithParent(command, args);
  return [BWRAP!, ["--unshare-pid", "--die-with-parent", "--dev-bind", "/", "/", "--", command, ...args]];
}

let namespacesWork: boolean | null = null;
const namespaces = () => (namespacesWork ??= BWRAP !== null && spawnSync(BWRAP, ["--unshare-pid", "--die-with-parent", "--dev-bind", "/", "/", "--", "true"], { stdio: "ignore", timeout: 10_000 }).status === 0);

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find(executable) ?? null;
const BWRAP = ["/usr/bin/bwrap", "/bin/bwrap"].find(executable) ?? null;

const found = (command: string) =>
  isAbsolute(command) || command.includes("/") ? executable(command) : (process.env.PATH ?? "").split(delimiter).some((dir) => dir && executable(join(dir, command)));
