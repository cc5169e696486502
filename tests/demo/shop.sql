-- The demo's sample database: a small shop, generated here (no outside data).
-- Several tables with the common column types, one of a few hundred
-- thousand rows, a view, a trigger and a procedure.
CREATE DATABASE shop CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
USE shop;

CREATE TABLE customers (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email      VARCHAR(120) NOT NULL,
  name       VARCHAR(100) NOT NULL,
  country    CHAR(2) CHARACTER SET ascii,
  created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  balance    DECIMAL(12,2) NOT NULL DEFAULT 0,
  vip        BOOLEAN NOT NULL DEFAULT 0,
  notes      TEXT,
  UNIQUE KEY (email)
) ENGINE=InnoDB;

CREATE TABLE products (
  id       INT NOT NULL PRIMARY KEY,
  sku      UUID NOT NULL,
  title    VARCHAR(200) NOT NULL,
  price    DECIMAL(10,2) NOT NULL,
  weight   FLOAT,
  rating   DOUBLE,
  tags     SET('new','sale','eco','gift'),
  status   ENUM('active','retired') NOT NULL DEFAULT 'active',
  attrs    JSON,
  image    BLOB,
  released DATE
) ENGINE=InnoDB;

CREATE TABLE orders (
  id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id INT UNSIGNED NOT NULL,
  placed_at   DATETIME(3) NOT NULL,
  status      ENUM('new','paid','shipped','cancelled') NOT NULL,
  total       DECIMAL(12,2) NOT NULL,
  client_ip   INET6,
  note        VARCHAR(255),
  KEY (customer_id),
  CONSTRAINT fk_customer FOREIGN KEY (customer_id) REFERENCES customers (id)
) ENGINE=InnoDB;

CREATE TABLE order_items (
  order_id   BIGINT UNSIGNED NOT NULL,
  line       SMALLINT UNSIGNED NOT NULL,
  product_id INT NOT NULL,
  qty        INT NOT NULL,
  price      DECIMAL(10,2) NOT NULL,
  PRIMARY KEY (order_id, line)
) ENGINE=InnoDB;

CREATE TABLE audit_log (
  id         INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_id   BIGINT UNSIGNED NOT NULL,
  old_status VARCHAR(20),
  new_status VARCHAR(20),
  at         TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=InnoDB;

INSERT INTO customers (id, email, name, country, created_at, balance, vip, notes)
SELECT seq, CONCAT('customer', seq, '@example.com'),
       CONCAT(ELT(1 + seq % 5, 'Ana', 'Björn', 'Chloé', 'Dmitrij', '美咲'), ' ', seq),
       ELT(1 + seq % 4, 'PT', 'SE', 'FR', 'JP'),
       TIMESTAMP'2024-01-01 00:00:00' + INTERVAL seq * 97 SECOND + INTERVAL seq % 1000 MICROSECOND,
       (seq % 50000) / 100, seq % 10 = 0,
       IF(seq % 3 = 0, NULL, CONCAT('likes \'quotes\', back\\slashes and\nnewlines #', seq))
FROM seq_1_to_20000;

INSERT INTO products
SELECT seq, UUID(), CONCAT('Product ', seq, ' – ', ELT(1 + seq % 3, 'mug', 'shirt', 'lamp')),
       1 + (seq % 5000) / 10, seq / 7, seq / 3.0,
       ELT(1 + seq % 4, 'new', 'sale,eco', '', 'gift'), IF(seq % 9 = 0, 'retired', 'active'),
       JSON_OBJECT('color', ELT(1 + seq % 3, 'red', 'green', 'blue'), 'size', seq % 50),
       IF(seq % 5 = 0, NULL, UNHEX(SHA2(seq, 256))),
       DATE'2020-01-01' + INTERVAL seq DAY
FROM seq_1_to_2000;

INSERT INTO orders (id, customer_id, placed_at, status, total, client_ip, note)
SELECT seq, 1 + seq % 20000,
       TIMESTAMP'2024-01-01 00:00:00' + INTERVAL seq * 37 SECOND + INTERVAL seq % 1000 * 1000 MICROSECOND,
       ELT(1 + seq % 4, 'new', 'paid', 'shipped', 'cancelled'), (seq % 100000) / 100,
       IF(seq % 2 = 0, CONCAT('::ffff:10.0.', seq % 256, '.', seq % 199), CONCAT('2001:db8::', HEX(seq % 65536))),
       IF(seq % 7 = 0, NULL, CONCAT('note ', seq, ' ünïcødé 🚀'))
FROM seq_1_to_300000;

INSERT INTO order_items
SELECT o.seq, l.seq, 1 + (o.seq * l.seq) % 2000, 1 + o.seq % 5, 1 + (o.seq % 5000) / 10
FROM seq_1_to_100000 o, seq_1_to_2 l;

CREATE VIEW order_totals AS
  SELECT customer_id, COUNT(*) AS orders, SUM(total) AS spent
  FROM orders GROUP BY customer_id;

DELIMITER ;;
CREATE TRIGGER orders_audit AFTER UPDATE ON orders FOR EACH ROW
BEGIN
  -- keep a trail of status changes; 'quotes' and ; inside the body
  IF OLD.status <> NEW.status THEN
    INSERT INTO audit_log (order_id, old_status, new_status)
    VALUES (OLD.id, OLD.status, NEW.status);
  END IF;
END;;

CREATE PROCEDURE cancel_order(IN oid BIGINT UNSIGNED)
  COMMENT 'cancel one order; the trigger logs it'
BEGIN
  UPDATE orders SET status = 'cancelled' WHERE id = oid;
END;;
DELIMITER ;

CALL cancel_order(42);

CREATE EVENT nightly_cleanup ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 03:00:00'
  DISABLE COMMENT 'drop audit rows older than a year'
  DO DELETE FROM audit_log WHERE at < NOW() - INTERVAL 1 YEAR;
