package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/muster-games/muster/internal/store"
)

const backupHelp = `Copies a server's SQLite database, consistently, while the server runs: the
copy is the database as it was at one moment (SQLite's VACUUM INTO, which only
reads it), with the moves that the server's move journal (the -moves file)
held as the copy began written into it, checked (PRAGMA integrity_check) and
compact. The server is not stopped and nothing of the database changes. It
prints how many games the copy holds.

To restore: stop the server, move the database and its -wal, -shm and -moves
files aside, copy the backup to the database's name, and start the server (which
brings an older copy's schema up to date). A PostgreSQL database is backed up
with pg_dump --format=custom and restored with pg_restore (docs/operating.md).`

func runBackup(env *Env, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	db := fs.String("db", "muster.db", "the server's SQLite database file")
	out := fs.String("out", "", "the new file to write (default: the database's name with the date and time, such as muster-20261126-2300.db)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	if err := fromEnv(env, fs, nil); err != nil {
		return err
	}
	to := *out
	if to == "" {
		to = strings.TrimSuffix(*db, ".db") + time.Now().Format("-20060102-1504") + ".db"
	}
	began := time.Now()
	games, err := store.Backup(context.Background(), *db, to)
	if errors.Is(err, store.ErrBackupPostgres) {
		return fmt.Errorf("%w\n  pg_dump --format=custom --file=muster.dump 'postgres://…'", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "backed up %s to %s in %.1f s: %d games, checked\n", *db, to, time.Since(began).Seconds(), games)
	return nil
}

const migrateHelp = `Brings a server's database up to date with this program's schema, as muster
serve does when it starts; with --dry-run, says which migrations it would run
and their statements, and changes nothing. Servers starting together on one
PostgreSQL database migrate once (under a lock). A database newer than the
program is refused.`

func runMigrate(env *Env, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	db := fs.String("db", "muster.db", "SQLite database file, or a PostgreSQL address (postgres://…)")
	dry := fs.Bool("dry-run", false, "say what would run, and change nothing")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	if err := fromEnv(env, fs, nil); err != nil {
		return err
	}
	applied, known, err := store.SchemaVersion(context.Background(), *db)
	if err != nil {
		return err
	}
	switch {
	case applied > known:
		return fmt.Errorf("the database has schema version %d, newer than this program's %d: run a newer muster", applied, known)
	case applied == known:
		fmt.Fprintf(env.Stdout, "the database is up to date (schema version %d)\n", known)
		return nil
	}
	if *dry {
		fmt.Fprintf(env.Stdout, "the database is at schema version %d of %d; %d migrations would run:\n", applied, known, known-applied)
		for n := applied + 1; n <= known; n++ {
			fmt.Fprintf(env.Stdout, "%d. %s\n", n, strings.Join(strings.Fields(store.Migration(n, store.IsPostgres(*db))), " "))
		}
		return nil
	}
	st, err := store.Open(*db)
	if err != nil {
		return err
	}
	st.Close()
	fmt.Fprintf(env.Stdout, "migrated the database from schema version %d to %d\n", applied, known)
	return nil
}
