#!/usr/bin/env bash
# Writes a minimal descriptorpin(1) man page to stdout, made from the
# binary's own 'descriptorpin --help' (the subcommand list) and 'version',
# so the page cannot list a command the binary does not have. Run by
# 'make package'; a fuller generator may replace it later.
#   packaging/manpage.sh bin/descriptorpin > bin/descriptorpin.1
# The date is SOURCE_DATE_EPOCH's (else the last commit's), so the page is
# the same for the same source.
set -euo pipefail
bin=${1:?usage: manpage.sh BINARY}
help=$("$bin" --help)
version=$("$bin" version | head -1 | awk '{print $2}')
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
date=$(date -u -d "@$epoch" +%Y-%m-%d)
# roff: a leading '.' or '\'' would be a request; '\' is the escape.
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/" -e 's/-/\\-/g'; }
commands=$(awk '/^Commands:/{on=1; next} on && /^$/{exit} on' <<<"$help")
[ -n "$commands" ] || { echo "manpage.sh: no Commands: section in $bin --help" >&2; exit 1; }
intro=$(awk '/^Usage:/{exit} {print}' <<<"$help" | tr '\n' ' ' | sed 's/ *$//')

cat <<ROFF
.TH DESCRIPTORPIN 1 "$date" "descriptorpin $version" "User Commands"
.SH NAME
descriptorpin \\- pin MCP tool descriptors and report every change to them
.SH SYNOPSIS
.B descriptorpin
.I command
.RI [ arguments ]
.SH DESCRIPTION
$(esc <<<"$intro")
.SH COMMANDS
ROFF
while read -r name text; do
  printf '.TP\n.B %s\n%s\n' "$(esc <<<"$name")" "$(esc <<<"$text")"
done <<<"$commands"
cat <<'ROFF'
.PP
Run
.B descriptorpin help
.I command
for a command's flags and an example.
.SH EXIT STATUS
.TP
.B 0
clean: no findings
.TP
.B 1
findings present
.TP
.B 2
usage, input or configuration error
.SH FILES
.TP
.I ~/.config/descriptorpin/config.yaml
the service's configuration
.TP
.I /usr/lib/systemd/user/descriptorpin.service
the systemd user unit; nothing is enabled on installation
.SH SEE ALSO
.I /usr/share/doc/descriptorpin/README.md
and
.I /usr/share/doc/descriptorpin/operations.md
ROFF
