#!/usr/bin/env bash
# Debian packages the test suites use for real: Chromium for the browser
# journeys, redis-server for the BullMQ job-queue suites (they start their own
# throw-away server), tesseract and poppler for document extraction.
# Installed only when missing; needs root (CI runs as root).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
fc-list 2>/dev/null | grep -qi "dejavu" || need+=(fonts-dejavu-core)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
# Text extraction: tesseract OCRs images and scanned pages, poppler-utils gives
# pdftoppm (rasterizes PDF pages for OCR) and pdftotext (benchmark reference).
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
compgen -G "/usr/share/tesseract-ocr/*/tessdata/eng.traineddata" >/dev/null || need+=(tesseract-ocr-eng)
{ command -v pdftoppm >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1; } || need+=(poppler-utils)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing Debian packages: ${need[*]} (run as root, or: sudo apt-get install -y ${need[*]})" >&2
    exit 1
  fi
  echo "Installing Debian packages: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
