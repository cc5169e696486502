#!/bin/sh
# json2rows --convert (issue 25, newuser 7f): jq writes UTF-8 only, so
# `jq '.row.city = "Tromsø"'` on a latin1 column was refused by json2rows
# (give its bytes as base64), and the README's "any change in jq" did not
# hold for legacy schemas.  With --convert, a plain string for a latin1
# (MariaDB's latin1 is Windows-1252) or ascii column is converted into its
# bytes; a character the set has no byte for, or a set --convert does not
# know, is refused with the line and column.  Checked through the server.
. "$(dirname "$0")/../lib.sh"
need_server
command -v jq >/dev/null || skip_all "no jq"
C=$(CONN)
src=t7302_src dst=t7302_dst

sql -e "DROP DATABASE IF EXISTS $src; CREATE DATABASE $src; USE $src;
    CREATE TABLE c (id INT PRIMARY KEY,
	city VARCHAR(30) CHARACTER SET latin1,
	code VARCHAR(10) CHARACTER SET ascii,
	gr VARCHAR(10) CHARACTER SET greek);
    INSERT INTO c VALUES (1, 'Oslo', 'x', 'y'), (2, 'Zürich', 'y', 'z')" || exit 1
dbsnap $C $src | rows2json >c.jsonl || exit 1
edit() { jq -c "if .type == \"row\" and .row.id == \"1\" then $1 else . end" c.jsonl; }

edit '.row.city = "Tromsø € ‰"' >e.jsonl
json2rows e.jsonl >/dev/null 2>err
is "$? $(cat err)" "1 json2rows: e.jsonl: line 5: $src.c: city: non-ASCII text for a column not in UTF-8 (latin1): give its bytes as {\"base64\":\"...\"}, or --convert to convert it from UTF-8" \
    "without --convert: refused, naming latin1 and --convert"
json2rows --convert e.jsonl >e.rp 2>err
is "$? $(cat err)" "0 " "--convert: a jq edit of a latin1 column is taken"
fresh_db $dst
sqlexec $C --rename-db $src=$dst <e.rp 2>err
is "$?" 0 "and loads"
is "$(sql -e "SELECT HEX(city), city FROM $dst.c WHERE id = 1")" "$(printf '54726F6D73F820802089\tTromsø € ‰')" \
    "the server holds its latin1 bytes (€ is 0x80, ‰ 0x89: Windows-1252)"
is "$(sql -e "SELECT city FROM $dst.c WHERE id = 2")" "Zürich" "the base64 value beside it is as it was"
edit '.row.city = "\u0081\u008d\u00ff"' | json2rows --convert | rows2sql | grep -c "_latin1 0x818DFF" >n
is "$(cat n)" 1 "the five bytes Windows-1252 leaves out map as the server maps them (U+0081 is 0x81)"

edit '.row.city = "Łódź"' | json2rows --convert >/dev/null 2>err
is "$? $(cat err)" "1 json2rows: line 5: $src.c: city: U+0141 has no byte in latin1 (--convert): give its bytes as {\"base64\":\"...\"}" \
    "a character latin1 has no byte for: refused, with line, column and character"
edit '.row.code = "é"' | json2rows --convert >/dev/null 2>err
is "$? $(cat err)" "1 json2rows: line 5: $src.c: code: U+00E9 has no byte in ascii (--convert): give its bytes as {\"base64\":\"...\"}" \
    "non-ASCII for an ascii column: refused"
edit '.row.gr = "α"' | json2rows --convert >/dev/null 2>err
is "$? $(cat err)" "1 json2rows: line 5: $src.c: gr: non-ASCII text for a column in greek, which --convert does not know (latin1 and ascii only): give its bytes as {\"base64\":\"...\"}" \
    "a character set --convert does not know: refused"
edit '.row.gr = "α"' | json2rows >/dev/null 2>err
is "$? $(cat err)" "1 json2rows: line 5: $src.c: gr: non-ASCII text for a column not in UTF-8 (greek): give its bytes as {\"base64\":\"...\"}" \
    "and without --convert it is not offered for it"

# rows2json --convert: latin1 text as UTF-8 strings, which jq can read,
# and back through json2rows --convert byte for byte (every latin1 byte
# has one character: all 256 in one value)
dbsnap $C $src | rows2json --convert >cv.jsonl
is "$(jq -r 'select(.type == "row" and .row.city == "Zürich") | .row.id' cv.jsonl)" 2 \
    "rows2json --convert: jq finds a latin1 value by its text"
sql $src -e "CREATE TABLE $src.b (id INT PRIMARY KEY, v VARBINARY(256));
    INSERT INTO $src.b SELECT 1, UNHEX(GROUP_CONCAT(LPAD(HEX(seq), 2, '0')
	ORDER BY seq SEPARATOR '')) FROM seq_0_to_255;
    CREATE TABLE $src.l (id INT PRIMARY KEY, v VARCHAR(256) CHARACTER SET latin1);
    INSERT INTO $src.l SELECT id, v FROM $src.b"
fresh_db $dst
dbsnap $C $src l | rows2json --convert | json2rows --convert |
    sqlexec $C --rename-db $src=$dst 2>err
is "$?" 0 "rows2json --convert | json2rows --convert: loads"
is "$(sql -e "SELECT HEX(v) FROM $dst.l")" "$(sql -e "SELECT HEX(v) FROM $src.b")" \
    "every latin1 byte comes back as it was"
ok $(! dbsnap $C $src l | rows2json --convert | grep -q base64; echo $?) \
    "and it was written as a string, not as base64"

sql -e "DROP DATABASE $src; DROP DATABASE $dst"
done_testing
