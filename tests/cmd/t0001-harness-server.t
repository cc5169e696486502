#!/bin/sh
# The throwaway server the tests run against is what they assume.
. "$(dirname "$0")/../lib.sh"
need_server
plan 5

is "$(sql -e 'SELECT @@global.time_zone')" "+05:30" "default time zone is not UTC"
is "$(sql -e 'SELECT @@log_bin')" "1" "binary log on, so a binlog position exists"
like "$(sql -e 'SELECT VERSION()')" "MariaDB" "server is MariaDB"
is "$(sql -e "SELECT CONVERT_TZ('2024-03-31 00:30:00', 'Europe/Berlin', '+00:00')")" \
    "2024-03-30 23:30:00" "named time zones are loaded"
like "$(sql -e 'SELECT @@socket')" "^/" "server listens on its own socket"
done_testing
