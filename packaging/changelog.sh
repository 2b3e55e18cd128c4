#!/usr/bin/env bash
# Writes the package changelog nfpm turns into the .deb's
# changelog.Debian.gz and the .rpm's %changelog (chglog YAML), one entry
# for the version being packaged that points at CHANGELOG.md, which the
# packages install in full. Run by 'make package'.
#   packaging/changelog.sh 0.1.0 > bin/changelog.yml
# The entry is VERSION-1, the packaging revision nfpm.yaml sets (release).
# The date is SOURCE_DATE_EPOCH's (else the last commit's), so the same
# source gives the same packages.
set -euo pipefail
version=${1:?usage: changelog.sh VERSION}
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
cat <<YAML
- semver: ${version}-1
  date: $(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
  packager: DescriptorPin maintainers <descriptorpin@users.noreply.github.com>
  deb:
    urgency: medium
    distributions:
      - unstable
  changes:
    - note: "Release ${version}: see CHANGELOG.md in /usr/share/doc/descriptorpin"
YAML
