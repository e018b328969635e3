#!/usr/bin/env bash
# Runs every benchmark in turn; each prints its own table.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for b in compile_time page_cache sizes startup rss insns aggkeys metrics_scrape; do
	echo
	echo "## $b"
	"$dir/$b.sh"
done
