CREATE TABLE `t` (
  `a` int(11) NOT NULL,
  `b` varchar(40) NOT NULL,
  `c` varchar(40) GENERATED ALWAYS AS (concat(`b`,'x')) VIRTUAL,
  CONSTRAINT `ck` CHECK (`b` <> '')
) PARTITION BY KEY (`b`)