#!/usr/bin/env bash
# Runs the maze in a real window under Xvfb with Mesa's software Vulkan (llvmpipe) and
# saves a screenshot: scripts/screenshot.sh [out.png] [seconds] [maze args...]
# Needs the Debian packages xvfb and mesa-vulkan-drivers (installed if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/maze.png}"
after="${2:-8}"
shift $(( $# > 2 ? 2 : $# ))
# No window input under Xvfb: let the player wander, and show some paths.
[ $# -eq 0 ] && set -- --autopilot --gizmos --chasers 600

if ! command -v Xvfb >/dev/null || [ ! -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] && [ ! -e /usr/share/vulkan/icd.d/lvp_icd.json ]; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q xvfb mesa-vulkan-drivers
fi

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tilepath/target}"
cargo build --release --example maze
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"

display=":99"
Xvfb "$display" -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1

mkdir -p "$(dirname "$out")"
# `cargo run` sets CARGO_MANIFEST_DIR, where Bevy finds `assets/`.
DISPLAY="$display" cargo run --release --example maze -- \
  --screenshot "$(realpath -m "$out")" --after "$after" "$@"
echo "saved $out"
