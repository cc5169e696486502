SET NAMES utf8mb4;
-- rowpipe-trailer statements=1 bytes=18 xxh3=0000000000000000
