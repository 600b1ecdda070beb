#!/usr/bin/env bash
# Debian packages the app and its tests use for real, installed only when
# missing (needs root; CI runs as root).
#   (no argument)  everything the test suites need: Chromium for the browser
#                  journeys, redis-server for the BullMQ suites (they start a
#                  throw-away server), Prometheus (the operations journey),
#                  plus what the app itself needs
#   --runtime      only what the app needs: tesseract (OCR of images and scanned
#                  pages) and poppler-utils (pdftohtml and pdfinfo read PDF text
#                  and layout, pdftoppm rasterizes pages for OCR, pdftotext is
#                  the benchmark's reference), TeX Live, bubblewrap
#                  and pdftocairo (resumes compiled in a sandbox); ffmpeg,
#                  pocketsphinx (+ pocketsphinx-en-us) and flite for speech.
#                  Without root it only warns: the app runs, and OCR, compiling
#                  or transcribing fails with a readable reason.
set -euo pipefail
mode="tests"
[ "${1:-}" = "--runtime" ] && mode="runtime"
need=()
if [ "$mode" = "tests" ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  fc-list 2>/dev/null | grep -qi "dejavu" || need+=(fonts-dejavu-core)
  command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
  # The operations journey runs a real Prometheus against the app and checks the alert rules with promtool.
  { command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; } || need+=(prometheus)
fi
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr)
compgen -G "/usr/share/tesseract-ocr/*/tessdata/eng.traineddata" >/dev/null || need+=(tesseract-ocr-eng)
{ command -v pdftoppm >/dev/null 2>&1 && command -v pdftohtml >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1; } || need+=(poppler-utils)
# LaTeX resumes: pdflatex (and the packages the template uses), compiled inside bubblewrap; pdftocairo (poppler-utils) draws the SVG preview.
command -v pdflatex >/dev/null 2>&1 || need+=(texlive-latex-base)
[ -d /usr/share/texlive/texmf-dist/tex/latex/booktabs ] || need+=(texlive-latex-recommended)
[ -d /usr/share/texlive/texmf-dist/tex/latex/titlesec ] || need+=(texlive-latex-extra)
[ -d /usr/share/texlive/texmf-dist/fonts/type1/urw ] || need+=(texlive-fonts-recommended)
[ -d /usr/share/texmf/tex/latex/lm ] || need+=(lmodern)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v pdftocairo >/dev/null 2>&1 || need+=(poppler-utils)
# Speech (decision 140): ffmpeg decodes recordings (browser webm/opus included) to 16 kHz mono,
# pocketsphinx with its US English model transcribes offline, flite speaks read-aloud where the
# browser has no voice (and makes the speech tests' clips).
{ command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1; } || need+=(ffmpeg)
command -v pocketsphinx_continuous >/dev/null 2>&1 || need+=(pocketsphinx)
[ -d /usr/share/pocketsphinx/model/en-us ] || need+=(pocketsphinx-en-us)
command -v flite >/dev/null 2>&1 || need+=(flite)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing Debian packages: ${need[*]} (run as root, or: sudo apt-get install -y ${need[*]})" >&2
    [ "$mode" = "runtime" ] && exit 0
    exit 1
  fi
  echo "Installing Debian packages: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
