# tests/bank.sh: a write load that keeps a sum, for consistency tests
# under writes; sourced.
#
# bank_sql DB   the SQL that makes database DB with tables acct_a and
#               acct_b (20000 rows of 1000 each: the sum of both is
#               40000000), ctl (stop, ops) and the procedure mover(),
#               which until ctl.stop is set moves amounts between the two
#               tables in transactions and counts them in ctl.ops.
#               Run it with: CALL mover() in the background; stop it with
#               UPDATE ctl SET stop = 1.
# bank_mover BODY
#               the SQL of ctl and of mover() around BODY, the statements
#               of one round (round i, from 0), which counts itself in
#               ctl.ops: bank_sql's moves of amounts, t1050's of rows.
BANK_TOTAL=40000000

bank_mover() {
	cat <<SQL
CREATE TABLE ctl (id int PRIMARY KEY, stop int, ops bigint);
INSERT INTO ctl VALUES (1, 0, 0);
DELIMITER ;;
CREATE PROCEDURE mover()
BEGIN
  DECLARE i INT DEFAULT 0;
  WHILE (SELECT stop FROM ctl WHERE id = 1) = 0 DO
$1
    SET i = i + 1;
  END WHILE;
END;;
DELIMITER ;
SQL
}

bank_sql() {
	cat <<SQL
CREATE DATABASE $1;
USE $1;
CREATE TABLE acct_a (id int PRIMARY KEY, amt bigint NOT NULL);
CREATE TABLE acct_b (id int PRIMARY KEY, amt bigint NOT NULL);
INSERT INTO acct_a SELECT seq, 1000 FROM seq_1_to_20000;
INSERT INTO acct_b SELECT seq, 1000 FROM seq_1_to_20000;
SQL
	bank_mover '    START TRANSACTION;
    UPDATE acct_a SET amt = amt - 7 WHERE id = 1 + (i * 7919) % 20000;
    UPDATE acct_b SET amt = amt + 7 WHERE id = 1 + (i * 104729) % 20000;
    UPDATE ctl SET ops = ops + 1 WHERE id = 1;
    COMMIT;
    IF i % 5 = 0 THEN
      START TRANSACTION;
      UPDATE acct_b SET amt = amt - 11 WHERE id = 1 + (i * 31) % 20000;
      UPDATE acct_a SET amt = amt + 11 WHERE id = 1 + (i * 17) % 20000;
      COMMIT;
    END IF;
    DO SLEEP(0.005);	-- the replicas keep up on a busy 2-core machine'
}
