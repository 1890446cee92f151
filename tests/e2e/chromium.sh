#!/bin/sh
# Starts Chromium (CHROMIUM_BINARY) for Playwright with the features the harness turns off
# (CHROMIUM_DISABLE_FEATURES) added to Playwright's own list. Chromium keeps only the last
# --disable-features of its command line, so a second one in the launch's arguments would undo
# Playwright's; here every list given joins into one.
disabled="$CHROMIUM_DISABLE_FEATURES"
for arg do
  shift
  case $arg in
    --disable-features=*) disabled="${disabled:+$disabled,}${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec "$CHROMIUM_BINARY" "$@" ${disabled:+"--disable-features=$disabled"}
