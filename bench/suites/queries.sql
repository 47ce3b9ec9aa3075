-- queries.sql - run by bench/real-suites.sh after the INSERT script of
-- bench/workloads.sh (table t: 40,000 rows); deterministic output, and a
-- last statement that fails on purpose (sqlite3 then exits 1).
.headers on
.mode list
SELECT count(*), sum(value), min(name), max(name) FROM t;
SELECT tag, count(*) AS n, round(avg(value), 3) AS avg FROM t GROUP BY tag ORDER BY tag;
CREATE TABLE tags(tag TEXT PRIMARY KEY, label TEXT);
INSERT INTO tags SELECT DISTINCT tag, upper(tag) || '-' || length(tag) FROM t;
SELECT g.label, count(*) FROM t JOIN tags g USING (tag) WHERE t.id % 7 = 0 GROUP BY g.label ORDER BY 2 DESC, 1 LIMIT 5;
SELECT id, name, rank() OVER (PARTITION BY tag ORDER BY value DESC) AS r FROM t WHERE id BETWEEN 100 AND 130 ORDER BY id LIMIT 8;
WITH RECURSIVE fib(a, b, n) AS (SELECT 0, 1, 1 UNION ALL SELECT b, a + b, n + 1 FROM fib WHERE n < 60)
SELECT n, a FROM fib WHERE n % 10 = 0;
SELECT json_object('rows', count(*), 'tags', json_group_array(DISTINCT tag)) FROM t WHERE id < 50;
SELECT printf('%08.3f|%-6s|%x', value, tag, id) FROM t WHERE id IN (1, 999, 39999);
CREATE INDEX t_value ON t(value);
EXPLAIN QUERY PLAN SELECT * FROM t WHERE value > 10 AND value < 11;
UPDATE t SET value = value * 2 WHERE id % 1000 = 0;
DELETE FROM t WHERE id % 3 = 0;
VACUUM;
SELECT count(*), total(value) FROM t;
PRAGMA integrity_check;
SELECT substr(group_concat(name, ','), 1, 60) FROM (SELECT name FROM t ORDER BY name DESC LIMIT 20);
SELECT no_such_function(1);
SELECT 'not reached';
