CREATE TABLE `t` (
  `a` int(11) NOT NULL,
  `b` varchar(40) NOT NULL,
  `c` varchar(40) DEFAULT NULL,
  PRIMARY KEY (`b`),
  KEY `k` (`a`,`c`),
  CONSTRAINT `f` FOREIGN KEY (`c`) REFERENCES `x` (`y`)
) ENGINE=InnoDB