import { execFileSync } from "node:child_process";

const installed = (command: string) => {
  try {
    execFileSync(command, ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * Whether tesseract and pdftoppm are on PATH. scripts/install-system-deps.sh installs both; without
 * them the OCR suites skip and say why, never pass without reading anything.
 */
export const ocrToolsInstalled = (): boolean => installed("tesseract") && installed("pdftoppm");
