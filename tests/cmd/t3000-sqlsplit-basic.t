#!/bin/sh
# sqlsplit without a server: options, --print/--list/-0 and the filters,
# frame output, truncation, the rows2sql trailer (every cut is caught), a
# cut mysqldump file, adversarial input and a statement larger than the
# read buffer.
. "$(dirname "$0")/../lib.sh"

sqlsplit --version >/dev/null; is $? 0 "--version exits 0"
sqlsplit --bogus </dev/null 2>err; is $? 2 "unknown option exits 2"
sqlsplit -0 </dev/null 2>err; is $? 2 "-0 without --print exits 2"
sqlsplit --kind nosuch </dev/null 2>err; is $? 2 "unknown --kind exits 2"
like "$(cat err)" "^sqlsplit: --kind nosuch: unknown statement kind" \
    "unknown --kind is named"
sqlsplit --print /nonexistent.sql 2>err; is $? 1 "a missing file exits 1"
if command -v script >/dev/null; then
	script -qec "sqlsplit </dev/null" /dev/null >out 2>&1
	is $? 2 "frames to a terminal are refused"
	script -qec "sqlsplit --print </dev/null" /dev/null >out 2>&1
	is $? 0 "text to a terminal is fine"
fi

# Adversarial input: every kind of quote, comment and delimiter trick.
printf '%s\n' \
    "-- a comment; with a semicolon" \
    "# another; one" \
    "/* and ; a 'block' \"comment\" */" \
    "SELECT ';', \"it's\", \`a;\`\`b\`, 'a\\';b', 'x''y;' -- tail;" \
    ";" \
    "SELECT 'ends with backslash\\\\';" \
    "DELIMITER //" \
    "CREATE TRIGGER tr BEFORE INSERT ON \`t\` FOR EACH ROW BEGIN" \
    "  IF 1 THEN BEGIN SET @a = ';//'; END; END IF;" \
    "END//" \
    "delimiter ;" \
    "/*!40000 ALTER TABLE \`t\` DISABLE KEYS */;" \
    "INSERT INTO \`d\`.\`t\` VALUES (1,'#'),(2,'--'),(3,'/*');" \
    "select 'no delimiter at the end' -- end" >adv.sql
printf '%s' "-- at the end without a newline" >>adv.sql
sqlsplit --print adv.sql >out; is $? 0 "adversarial input splits"
cat >want <<'X'
SELECT ';', "it's", `a;``b`, 'a\';b', 'x''y;' -- tail;
;
SELECT 'ends with backslash\\';
DELIMITER ;;
CREATE TRIGGER tr BEFORE INSERT ON `t` FOR EACH ROW BEGIN
  IF 1 THEN BEGIN SET @a = ';//'; END; END IF;
END;;
DELIMITER ;
/*!40000 ALTER TABLE `t` DISABLE KEYS */;
INSERT INTO `d`.`t` VALUES (1,'#'),(2,'--'),(3,'/*');
select 'no delimiter at the end' -- end
-- at the end without a newline
;
X
is_file out want "--print gives each statement with ; and a newline (a body between DELIMITER lines, a comment at the end closed)"
sqlsplit --list adv.sql | cut -f1,2,4-7 >out
printf '1\t4\tother\t\t\t\n2\t6\tother\t\t\t\n3\t8\tcreate-trigger\t\t\tt\n4\t12\talter\t\t\tt\n5\t13\tinsert\t\td\tt\n6\t14\tother\t\t\t\n' >want
is_file out want "--list: number, line, kind, schema and table"
sqlsplit --print -0 adv.sql | tr '\0' '@' | tail -c 44 >out
printf '%s' "end' -- end
-- at the end without a newline@" >want
is_file out want "-0 ends each statement with a NUL"
sqlsplit --print --kind insert adv.sql >out
is "$(cat out)" "INSERT INTO \`d\`.\`t\` VALUES (1,'#'),(2,'--'),(3,'/*');" \
    "--kind insert picks the INSERT"
is "$(sqlsplit --list --grep-table t adv.sql | wc -l)" 3 \
    "--grep-table t picks the statements on table t"
is "$(sqlsplit --list --grep-table d.t adv.sql | cut -f1)" 5 \
    "--grep-table d.t picks the one naming d.t"
printf 'USE `a\tb`;\nCREATE TABLE `x\ny\\` (i int);\n' | sqlsplit --list >out
is "$(cut -f5-7 out | tr '\n' '|')" "$(printf '%s\t%s\t|%s\t\t%s|' 'a\tb' 'a\tb' \
    'a\tb' 'x\ny\\')" "--list: a tab, newline or backslash in a name is escaped"

# Frames: one FT_STMT per statement, the stream complete.
sqlsplit --progress --list adv.sql >/dev/null 2>err
like "$(tail -1 err)" "^sqlsplit: 6 statements" "--progress ends with a summary on stderr"
sqlsplit adv.sql >adv.rp 2>err; is $? 0 "frame output exits 0"
is "$(cat err)" "" "and, stderr not a terminal, no progress by default"
framecat <adv.rp >out; is $? 0 "the frame stream ends with its trailer"
is "$(grep -c '^STMT' out)" 6 "six statement frames"
like "$(grep '^STMT	5' out)" "^STMT	5	13	[0-9]+	insert		d	t	INSERT" \
    "a statement frame carries number, line, offset, kind and target"
like "$(tail -1 out)" "stmts=6" "the trailer counts six statements"
sqlsplit </dev/null >empty.rp; is $? 0 "empty input is no statements"
is "$(framecat <empty.rp | grep -c STMT)" 0 "and no statement frames"

# Truncation: an unterminated string, identifier or comment.
printf "select 1;\nINSERT INTO t VALUES (1,'abc\n" >cut.sql
sqlsplit cut.sql >cut.rp 2>err; is $? 1 "a cut string exits 1"
like "$(cat err)" "^sqlsplit: cut.sql: truncated: unterminated string starting at line 2, offset 34$" \
    "names the line and offset where the string started"
framecat <cut.rp >out 2>err; is $? 1 "the frame stream of a cut input has no trailer"
is "$(grep -c 'INSERT' out)" 0 "the partial statement is not emitted"
# A whole script for NO_BACKSLASH_ESCAPES, read with backslash escapes,
# also ends inside a string: the message says which statement may be it.
printf "select 1;\nINSERT INTO t VALUES ('C:\\\\');\nINSERT INTO t VALUES ('x');\n" >nbe.sql
sqlsplit nbe.sql >/dev/null 2>err; is $? 1 "a script for NO_BACKSLASH_ESCAPES: exits 1"
like "$(cat err)" "^sqlsplit: nbe.sql: truncated: unterminated string starting at line 3, offset [0-9]+ \\(or, if the text is whole, a backslash before a quote in the statement from line 2, .*--no-backslash-escapes\\)$" \
    "and names the statement with the backslash and the option"
sqlsplit --no-backslash-escapes nbe.sql | framecat | grep -c INSERT >out
is "$(cat out)" 2 "which splits it into its statements"
printf 'select 1;\nselect `abc' | sqlsplit --print >/dev/null 2>err
like "$(cat err)" "unterminated quoted identifier starting at line 2" \
    "a cut quoted identifier is reported"
printf 'select 1;\n/* abc' | sqlsplit --print >/dev/null 2>err
like "$(cat err)" "unterminated comment starting at line 2" \
    "a cut comment is reported"

# The rows2sql trailer: accepted when right, every cut and change caught.
printf 'HEADER\tproducer=t\nTABLE\t1\tdb\tt\t2\nCOLUMN\t1\t0\ta\t3\t0\t63\t0\tint(11)\nCOLUMN\t1\t1\tb\t253\t0\t45\t0\tvarchar(10)\nROW\t1\t31\t27613b27\nROW\t1\t32\t5c3b2d2d\nTABLE_END\t1\t2\nTRAILER\n' |
    r2s-gen | rows2sql >r.sql
sqlsplit --require-trailer --list r.sql >out; is $? 0 "a rows2sql dump with its trailer passes --require-trailer"
is "$(wc -l <out)" "$(sed -n 's/^-- rowpipe-trailer statements=\([0-9]*\).*/\1/p' r.sql)" \
    "as many statements as the trailer says"
size=$(wc -c <r.sql) n=0 bad=0
while [ $n -lt "$size" ]; do
	head -c $n r.sql | sqlsplit --require-trailer >/dev/null 2>&1
	[ $? -eq 1 ] || { bad=$((bad + 1)); diag "cut at $n accepted"; }
	n=$((n + 1))
done
is $bad 0 "every one of the $size cuts of the dump is reported"
sed 's/(0x31,/(0x37,/' r.sql | sqlsplit >/dev/null 2>err; is $? 1 "a changed byte exits 1"
like "$(cat err)" "damaged: .*: xxh3 [0-9a-f]+ where it says" "and is reported as a checksum mismatch (damaged)"
grep -v '^INSERT' r.sql | sqlsplit >/dev/null 2>err; is $? 1 "a dropped statement exits 1"
like "$(cat err)" "damaged: .* bytes where it says" "and is reported as a mismatch (damaged)"
printf 'select 1;\n' | sqlsplit --require-trailer >/dev/null 2>err; is $? 1 \
    "--require-trailer refuses text without a trailer"

# A mysqldump file is known by its header: a cut one lacks the last line.
printf '%s\n' "-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB" "--" \
    "INSERT INTO \`t\` VALUES (1),(2);" "" "-- Dump completed on 2026-01-01 00:00:00" >d.sql
sqlsplit --print d.sql >/dev/null; is $? 0 "a complete mysqldump file passes"
head -c 60 d.sql | sqlsplit --print >/dev/null 2>err; is $? 1 "a cut one exits 1"
like "$(cat err)" "mysqldump output does not end with its '-- Dump completed' line" \
    "and says why"

# CRLF, a byte-order mark, DELIMITER in any case, NUL bytes.
printf '\357\273\277DeLiMiTeR $$\r\nselect 1$$\r\ndelimiter ;\r\nselect 2;\r\n' |
    sqlsplit --list | cut -f1-3 >out
printf '1\t2\t17\n2\t4\t42\n' >want
is_file out want "BOM, CRLF and DELIMITER: lines and offsets"
printf "select 'a\0b';" | sqlsplit --print >/dev/null 2>err; is $? 1 "a NUL byte exits 1"
like "$(cat err)" 'line 1, offset 9: NUL byte' "and names where it is"
printf 'select 1;\n' | lz4 -c | sqlsplit >/dev/null 2>err; is $? 1 "LZ4 input exits 1"
like "$(cat err)" '^sqlsplit: stdin: input is LZ4-compressed \(decompress it with lz -d\)' \
    "and says it is LZ4, not where its first NUL byte is"
printf 'select 1;\n' | sqlsplit | sqlsplit >/dev/null 2>err; is $? 1 "a frame stream exits 1"
like "$(cat err)" 'input is a rowpipe frame stream: sqlsplit reads SQL text' "and says what it is"
printf "select 'a\0b';" | sqlsplit --print --binary-mode | tr '\0' '@' >out
is "$(cat out)" "select 'a@b';" "--binary-mode keeps it"

# sql_mode as a number, as mysqlbinlog writes it (bit 20:
# NO_BACKSLASH_ESCAPES), and its \C charset command in a comment.
printf "SET @@session.sql_mode=1048576/*!*/;\nselect 'a\\\\';select 2;\nSET @@session.sql_mode=1411383296/*!*/;\nselect 'b\\\\';';select 3;\n" |
    sqlsplit --list 2>err | cut -f1 >out
is "$(wc -l <out)" 6 "a numeric sql_mode is followed (NO_BACKSLASH_ESCAPES on, then off)"
is "$(cat err)" "" "and no warning that it cannot be"
printf '/*!\\C utf8mb4 *//*!*/;\nselect 1;\n' | sqlsplit --print >out 2>err
is "$(head -1 out)" "SET NAMES utf8mb4;" "\\C utf8mb4 (mysqlbinlog) becomes the SET NAMES the client sends"
printf '\\C sjis\nselect 1;\n' | sqlsplit >/dev/null 2>err
is $? 1 "\\C sjis: exit 1"
like "$(cat err)" "'charset sjis' is not supported" "and says why"

# NO_BACKSLASH_ESCAPES, from the option and from the dump's sql_mode.
printf "select 'a\\\\';select 2;" | sqlsplit --print --no-backslash-escapes >out
is "$(wc -l <out)" 2 "--no-backslash-escapes: a backslash does not escape"
printf "SET sql_mode='NO_BACKSLASH_ESCAPES';\nselect 'a\\\\';\nselect 2;" |
    sqlsplit --print >out
is "$(wc -l <out)" 3 "the dump's own SET sql_mode is followed"

# A statement larger than the read buffer (4 MiB), kept byte for byte.
{ printf "INSERT INTO big VALUES ('"; head -c 12000000 /dev/zero | tr '\0' 'x';
  printf "'),('a;b');\nselect 1;\n"; } >big.sql
sqlsplit --print big.sql >out; is $? 0 "a 12 MB statement splits"
is "$(wc -c <out)" "$(wc -c <big.sql)" "and comes out byte for byte"

done_testing
