// Package pgtest gives tests a PostgreSQL database of their own: a fresh
// database on the server named by MUSTER_TEST_POSTGRES, or else on a
// throwaway cluster it starts itself with Debian's initdb and pg_ctl
// (as the postgres user when the tests run as root). Without PostgreSQL
// the tests that need it skip, unless MUSTER_REQUIRE_POSTGRES=1 (CI),
// where they fail.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

var (
	once     sync.Once
	base     string // the server's DSN, without a database
	dir      string // the cluster's folder (its data in data/), when this package started it
	runAs    []string
	startErr error
	seq      atomic.Int64
)

// Main runs a package's tests and stops the cluster they started; call it
// from TestMain.
func Main(m *testing.M) int {
	code := m.Run()
	if dir != "" {
		run(filepath.Join(binDir(), "pg_ctl"), "-D", filepath.Join(dir, "data"), "-m", "immediate", "stop")
		os.RemoveAll(dir)
	}
	return code
}

// DSN returns the address of a new, empty database for the test.
func DSN(t testing.TB) string {
	t.Helper()
	once.Do(start)
	if startErr != nil {
		if os.Getenv("MUSTER_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("PostgreSQL is required (MUSTER_REQUIRE_POSTGRES=1): %v", startErr)
		}
		t.Skipf("no PostgreSQL: %v (install Debian's postgresql, or set MUSTER_TEST_POSTGRES)", startErr)
	}
	name := fmt.Sprintf("muster_%d_%d", os.Getpid(), seq.Add(1))
	db, err := sql.Open("pgx", base+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating a test database: %v", err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", base+"/postgres?sslmode=disable")
		if err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			db.Close()
		}
	})
	return base + "/" + name + "?sslmode=disable"
}

func start() {
	if v := os.Getenv("MUSTER_TEST_POSTGRES"); v != "" {
		base = v
		return
	}
	startErr = startCluster()
}

// Tool returns the path of one of PostgreSQL's programs (pg_dump,
// pg_restore, psql) of the same version as the test cluster, or "".
func Tool(name string) string {
	if bin := binDir(); bin != "" {
		if _, err := os.Stat(filepath.Join(bin, name)); err == nil {
			return filepath.Join(bin, name)
		}
	}
	return ""
}

// binDir finds the folder of initdb and pg_ctl.
func binDir() string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if q, err := filepath.EvalSymlinks(p); err == nil {
			p = q
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "initdb")); err == nil {
			return filepath.Dir(p)
		}
	}
	ms, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(ms) == 0 {
		return ""
	}
	return filepath.Dir(ms[len(ms)-1])
}

func startCluster() error {
	bin := binDir()
	if bin == "" {
		return errors.New("initdb not found")
	}
	d, err := os.MkdirTemp("", "muster-pg-")
	if err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		// initdb refuses root: the cluster belongs to the postgres user.
		u, err := user.Lookup("postgres")
		if err != nil {
			return fmt.Errorf("running as root and no postgres user: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(d, uid, gid); err != nil {
			return err
		}
		runAs = []string{"runuser", "-u", "postgres", "--"}
	}
	dir = d
	data := filepath.Join(d, "data")
	if out, err := run(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
		return fmt.Errorf("initdb: %v: %s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", port, d)
	if out, err := run(filepath.Join(bin, "pg_ctl"), "-D", data, "-o", opts, "-l", filepath.Join(d, "log"), "-w", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(d, "log"))
		return fmt.Errorf("pg_ctl start: %v: %s %s", err, out, log)
	}
	base = fmt.Sprintf("postgres://postgres@127.0.0.1:%d", port)
	return nil
}

func run(name string, args ...string) ([]byte, error) {
	argv := append(append([]string{}, runAs...), name)
	argv = append(argv, args...)
	return exec.Command(argv[0], argv[1:]...).CombinedOutput()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
