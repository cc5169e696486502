-- c;
select 1; # x;
/* ; */select 2 -- y
;
\g\c\d //
select 3//