#!/usr/bin/env bash
# The real-node cluster's Debian packages are installed with everything else npm test needs
# (only what is missing, as root): see test/install-deps.sh.
exec bash "$(dirname "$0")/../install-deps.sh"
