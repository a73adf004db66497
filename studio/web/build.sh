#!/bin/sh
# build.sh bundles the studio page's script into ../assets/app.js (run by
# `go generate ./studio` from the studio folder); the page's index.html and
# style.css are written in ../assets itself, not copied there. It installs the pinned npm packages of
# package-lock.json into web/node_modules (gitignored) when they are
# missing; building and testing specgate itself needs no Node, since the
# bundle is committed.
set -eu
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/esbuild ]; then
	npm ci --no-audit --no-fund
fi
mkdir -p ../assets
node_modules/.bin/esbuild src/main.js --bundle --minify --format=iife --target=es2020 \
	--legal-comments=none --outfile=../assets/app.js --log-level=warning
gzip -9 -c ../assets/app.js | wc -c | awk '{ printf "studio: assets/app.js is %d KiB, %d KiB gzipped\n", '"$(wc -c < ../assets/app.js)"'/1024, $1/1024 }'
