#!/bin/sh
# Installs the keel just built into bench/ as `npm install keel` installs it for a user: from its
# packed tarball, its dependencies shared with the servers' own (one typeorm, one class-validator
# in the process). A link to the repository would make keel load its own copies from the
# repository's node_modules, which no user has, and count them in keel's memory.
set -e
cd "$(dirname "$0")/.."
package_dir=bench/.keel-package
rm -rf "$package_dir"
mkdir -p "$package_dir"
tarball=$(npm pack --pack-destination "$package_dir" --silent)
test -d bench/node_modules || npm install --prefix bench --no-audit --no-fund
# npm leaves an installed keel of the same version as it is, files edited since included: a fresh copy.
rm -rf bench/node_modules/keel
npm install --prefix bench --no-save --no-audit --no-fund "$package_dir/$tarball"
