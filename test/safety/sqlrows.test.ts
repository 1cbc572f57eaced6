import { testAsks } from './context.ts';

/**
 * Data destroyed in bulk through a database shell's SQL or MongoDB code (every row of a table, the
 * table, a column of every row), volumes taken with the containers, and who may do what in a
 * live cloud account changed: the infra family asks. [an everyday command, its neighbour]. The
 * context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testAsks({
  'SQL that deletes every row of a table, the table, or a column of every row': [
    ["psql -c 'select * from users'", "psql -c 'DROP TABLE users'"],
    ['psql -c "DELETE FROM users WHERE id=1"', "psql -c 'DELETE FROM users'"],
    ["psql -c 'SELECT count(*) FROM users'", "psql -c 'TRUNCATE users CASCADE'"],
    ["mysql -e 'show tables'", "mysql -e 'DELETE FROM orders'"],
    ['sqlite3 app.db .tables', "sqlite3 app.db 'drop table users'"],
    ["sqlite3 app.db 'delete from users where id=1'", "sqlite3 app.db 'delete from users'"],
    ['psql -c "UPDATE users SET name = \'a\' WHERE id = 1"', "psql -c 'UPDATE users SET password=NULL'"],
    ["psql -c 'ALTER TABLE users DROP CONSTRAINT users_email_key'", "psql -c 'ALTER TABLE users DROP COLUMN email'"],
    ["mysql -e 'ALTER TABLE users DROP INDEX idx_email'", "mysql -e 'ALTER TABLE users DROP email'"],
    ["psql -c 'ALTER TABLE users ALTER COLUMN email DROP NOT NULL'", "psql -c 'ALTER TABLE users ADD COLUMN x int, DROP COLUMN email'"],
    ['psql -c "DELETE FROM users WHERE id IN (SELECT id FROM banned)"', "psql -c 'WITH gone AS (DELETE FROM users RETURNING id) SELECT count(*) FROM gone'"],
    ["psql -c 'DELETE FROM users WHERE created_at < now()'", "psql -c 'DELETE FROM users WHERE 1=1'"],
    ["psql -c 'INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2'", "psql -c 'UPDATE t SET n = 2'"],
    ["mysql -e 'INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE n = 2'", "psql -c 'BEGIN; UPDATE t SET n = 2; COMMIT'"],
    ["psql -c 'SELECT * FROM t FOR UPDATE'", "psql -c 'EXPLAIN ANALYZE DELETE FROM t'"],
    ["psql -c 'EXPLAIN DELETE FROM t'", "psql -c 'TRUNCATE TABLE t'"],
    ["psql -c 'CREATE TABLE t (id int REFERENCES u ON DELETE CASCADE)'", "psql -c 'DELETE FROM ONLY t'"],
    ["psql -c 'GRANT SELECT, UPDATE, DELETE ON t TO app'", "psql -c 'DELETE FROM t'"],
    ["mysql -e 'SELECT TRUNCATE(1.234, 1)'", "mysql -e 'TRUNCATE t'"],
    ["psql -c 'DROP INDEX idx_users_email'", "psql -c 'DROP TABLE IF EXISTS users CASCADE'"],
    ["psql -c 'DROP VIEW active_users'", "psql -c 'DROP OWNED BY app'"],
    // a table this same text made holds no one's rows
    [
      "sqlite3 app.db 'CREATE TABLE t(x); INSERT INTO t VALUES (1); DELETE FROM t; DROP TABLE t'",
      "sqlite3 app.db 'CREATE TABLE IF NOT EXISTS t(x); DELETE FROM t'",
    ],
    ["psql -c 'CREATE TEMP TABLE x AS SELECT 1; DROP TABLE x'", "psql -c 'CREATE TEMP TABLE x AS SELECT 1; DROP TABLE x, users'"],
  ],
  'the SQL is read as SQL: comments, strings, case, statements, every way it reaches the shell': [
    [`psql -c "SELECT 'DELETE FROM users'"`, "psql -c 'SELECT 1; delete from users'"],
    ["psql -c '-- DELETE FROM users\nSELECT 1'", "psql -c 'SELECT 1 -- x\n; DELETE FROM users'"],
    ["psql -c '/* DROP TABLE users */ SELECT 1'", "psql -c 'DROP /* x */ TABLE users'"],
    [`psql -c "SELECT 'drop database x'"`, "psql -c 'drop   database x'"],
    ["mysql -e '# DELETE FROM users\nSELECT 1'", `mysql <<'SQL'\nSELECT 'it\\'s; x';\nDELETE FROM users;\nSQL`],
    ["psql -c 'CREATE FUNCTION f() RETURNS void AS $$ DELETE FROM users $$ LANGUAGE sql'", "psql -c 'DO $$ BEGIN DELETE FROM users; END $$'"],
    ["psql -c 'select 1' -c 'select 2'", "psql -c 'select 1' -c 'TRUNCATE users'"],
    ["psql --command='select 1'", "psql --command='DELETE FROM users'"],
    ["psql -v mode=delete -c 'select 1'", "psql -v mode=x -c 'delete from users'"],
    ['echo "select 1" | psql', 'echo "DELETE FROM users;" | psql'],
    ["psql <<< 'select 1'", "psql <<< 'drop table users'"],
    ["psql app <<'SQL'\nDELETE FROM users WHERE id = 1;\nSQL", "psql app <<'SQL'\nDELETE FROM users;\nSQL"],
    ["docker exec db psql -U postgres -c 'select 1'", "docker exec db psql -U postgres -c 'TRUNCATE users'"],
    ["sqlcmd -Q 'SELECT TOP 5 * FROM users'", "sqlcmd -Q 'TRUNCATE TABLE users'"],
    ["duckdb app.duckdb -c 'SELECT 1'", "duckdb app.duckdb -c 'DELETE FROM events'"],
    ["clickhouse-client --query='SELECT count() FROM events'", "clickhouse-client --query='TRUNCATE TABLE events'"],
  ],
  // a test database is emptied by its own test runs; an in-memory one keeps nothing
  'rows of a test or in-memory database are everyday': [
    ["psql app_test -c 'TRUNCATE users'", "psql app -c 'TRUNCATE users'"],
    ["psql -d app_test -c 'DELETE FROM users'", "psql -d app_test -c '\\c app' -c 'DELETE FROM users'"],
    ["sqlite3 test.db 'DROP TABLE IF EXISTS sessions'", "sqlite3 app.db 'DROP TABLE IF EXISTS sessions'"],
    ["sqlite3 db/test.sqlite3 'delete from users'", "sqlite3 db/development.sqlite3 'delete from users'"],
    ["sqlite3 :memory: 'delete from users'", "sqlite3 contest.db 'delete from users'"],
    ["mysql app_test -e 'DELETE FROM orders'", "mysql app_test -e 'DELETE FROM shop.orders'"],
    ["mysql -D app_test -e 'DELETE FROM orders'", "mysql -D app_test -e 'USE shop; DELETE FROM orders'"],
    ["psql postgres://localhost/app_test -c 'TRUNCATE users'", "psql postgres://localhost/app -c 'TRUNCATE users'"],
    [`psql "$DATABASE_URL" -c 'select 1'`, `psql "$DATABASE_URL" -c 'DELETE FROM users'`],
    ["psql -d app_test -c 'TRUNCATE users'", "psql -d app_test -c 'DROP DATABASE app'"],
    ["mongosh app_test --eval 'db.users.deleteMany({})'", 'mongosh app_test --eval \'db.getSiblingDB("app").users.deleteMany({})\''],
  ],
  'MongoDB code that empties or drops a collection': [
    ["mongo prod --eval 'db.users.find()'", "mongo prod --eval 'db.users.deleteMany({})'"],
    ["mongosh --eval 'db.users.deleteMany({ banned: true })'", "mongosh --eval 'db.users.drop()'"],
    [`mongosh --eval 'db.users.dropIndex("email_1")'`, `mongosh --eval 'db.getCollection("users").remove({})'`],
    ["mongosh --eval 'db.users.updateMany({ a: 1 }, { $set: { b: 2 } })'", "mongosh --eval 'db.users.updateMany({}, { $unset: { password: 1 } })'"],
    ["mongosh --eval 'db.runCommand({ ping: 1 })'", `mongosh --eval 'db.runCommand({ drop: "users" })'`],
    ["mongosh --eval 'db.stats()'", "mongo prod --eval 'db.dropDatabase()'"],
    ["mongosh app --eval 'db.users.deleteOne({ _id: 1 })'", "mongosh app --eval 'db.getCollectionNames().forEach(c => db[c].drop())'"],
  ],
  // containers are not data; the anonymous volumes `-v` removes with them are (a database image's VOLUME)
  'containers removed with their volumes': [
    ['docker rm -f $(docker ps -aq)', 'docker rm -fv $(docker ps -aq)'],
    ['docker rm my-container', 'docker rm -v pg'],
    ['docker container prune -f', 'docker container rm --volumes pg'],
    ['docker system prune -a', 'docker compose rm -fsv'],
    ['docker ps -aq', 'podman rm -v pg'],
  ],
  // who may do what in a live cloud account: a grant, a new identity or a new key
  'cloud accounts given new permissions, identities or keys': [
    ['aws iam list-users', 'aws iam attach-user-policy --user-name evil --policy-arn arn:aws:iam::aws:policy/AdministratorAccess'],
    ['aws iam get-user', 'aws iam create-access-key --user-name admin'],
    ['aws iam list-attached-user-policies --user-name x', 'aws iam create-user --user-name x'],
    ['aws iam get-user-policy --user-name x --policy-name p', 'aws iam put-user-policy --user-name x --policy-name p --policy-document file://p.json'],
    [
      'aws iam simulate-principal-policy --policy-source-arn arn:aws:iam::1:user/x --action-names s3:GetObject',
      'aws iam attach-role-policy --role-name r --policy-arn arn:aws:iam::aws:policy/AdministratorAccess',
    ],
    ['aws --profile prod iam list-roles', 'aws --profile prod iam update-assume-role-policy --role-name r --policy-document file://trust.json'],
    ['gcloud projects get-iam-policy p', 'gcloud projects add-iam-policy-binding p --member user:x@y.com --role roles/owner'],
    [
      'gcloud projects remove-iam-policy-binding p --member user:x@y.com --role roles/viewer',
      'gcloud storage buckets add-iam-policy-binding gs://b --member user:x@y.com --role roles/storage.admin',
    ],
    [
      'gcloud iam service-accounts keys list --iam-account sa@p.iam.gserviceaccount.com',
      'gcloud iam service-accounts keys create key.json --iam-account sa@p.iam.gserviceaccount.com',
    ],
    ['gcloud projects get-iam-policy p --format=json', 'gcloud projects set-iam-policy p policy.json'],
    ['gcloud iam roles list', 'gcloud iam service-accounts create deployer'],
    ['az role assignment list --assignee x', 'az role assignment create --assignee x --role Owner'],
    ['az ad sp list --display-name x', 'az ad sp create-for-rbac --name x --role Contributor'],
    ['az role definition list --name Owner', 'az role definition create --role-definition @role.json'],
  ],
});
