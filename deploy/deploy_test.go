// Package deploy holds what an operator installs Muster with — the
// systemd unit and its settings, beside the Dockerfile at the
// repository's root — and the tests that check them: the unit by
// systemd's own checker, the container image by building it as muster
// image does (no container engine runs on the CI machine), reading it with
// umoci, a real OCI tool, where there is one, and running the binary it
// holds, as the image's user, on its volume.
package deploy

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/muster-games/muster/internal/ociimage"
)

// required says whether the tests' tools must be there (CI), or a test
// without them may skip.
func required() bool { return os.Getenv("MUSTER_REQUIRE_DEPLOY") == "1" }

func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if _, e := os.Stat("/usr/sbin/" + name); e == nil {
			return "/usr/sbin/" + name
		}
		if required() {
			t.Fatalf("%s is required (MUSTER_REQUIRE_DEPLOY=1): %v", name, err)
		}
		t.Skipf("no %s: %v", name, err)
	}
	return p
}

// TestSystemdUnit: systemd's checker takes the unit, and the unit keeps
// its hardening.
func TestSystemdUnit(t *testing.T) {
	analyze := tool(t, "systemd-analyze")
	unit, err := os.ReadFile("muster.service")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"DynamicUser=yes", "StateDirectory=muster", "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes",
		"PrivateTmp=yes", "RestrictAddressFamilies=", "SystemCallFilter=@system-service", "EnvironmentFile=-/etc/muster/muster.env", "ExecStart=/usr/local/bin/muster serve"} {
		if !bytes.Contains(unit, []byte(want)) {
			t.Errorf("the unit lacks %s", want)
		}
	}
	// The checker wants the program to exist: a copy points to one that
	// does.
	self, _ := os.Executable()
	copyPath := filepath.Join(t.TempDir(), "muster.service")
	os.WriteFile(copyPath, bytes.ReplaceAll(unit, []byte("/usr/local/bin/muster"), []byte(self)), 0o644)
	if out, err := exec.Command(analyze, "verify", copyPath).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("systemd-analyze verify: %v: %s", err, out)
	}
}

// TestDockerfile: the Dockerfile builds a static binary and runs it as a
// user that is not root, with its data in a volume, and checks its
// health with the binary itself (it has no shell).
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CGO_ENABLED=0", "USER 65532:65532", "VOLUME /data", "MUSTER_DB=/data/muster.db", `ENTRYPOINT ["/usr/local/bin/muster"]`, `CMD ["serve"]`, "FROM gcr.io/distroless/static", `HEALTHCHECK --interval=30s --timeout=6s CMD ["/usr/local/bin/muster", "healthcheck"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the Dockerfile lacks %s", want)
		}
	}
}

// TestImage builds a static muster, writes its image with muster image,
// reads it back (with umoci too, where it is installed), and runs the
// binary the image holds as the image says: its user, its environment,
// its working folder; the server answers and keeps its database in the
// volume.
func TestImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds muster: not with -short")
	}
	goBin := tool(t, "go")
	dir := t.TempDir()
	bin := filepath.Join(dir, "muster")
	build := exec.Command(goBin, "build", "-trimpath", "-o", bin, "../cmd/muster")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, out)
	}
	layout := filepath.Join(dir, "image")
	roots := filepath.Join(dir, "roots.pem")
	os.WriteFile(roots, []byte("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n"), 0o644)
	if out, err := exec.Command(bin, "image", "--out", layout, "--tls-roots", roots).CombinedOutput(); err != nil || !strings.Contains(string(out), "wrote muster:latest") {
		t.Fatalf("muster image: %v: %s", err, out)
	}
	img, err := ociimage.Read(layout)
	if err != nil {
		t.Fatal(err)
	}
	c := img.Config.Config
	if c.User != "65532:65532" || strings.Join(c.Entrypoint, " ") != "/usr/local/bin/muster" || strings.Join(c.Cmd, " ") != "serve" || c.WorkingDir != "/data" {
		t.Fatalf("the image's configuration: %+v", c)
	}
	if d, ok := img.Dirs["/data"]; !ok || d.Uid != 65532 || d.Gid != 65532 {
		t.Fatalf("the volume /data: %+v", d)
	}
	if f := img.Files["/usr/local/bin/muster"]; f.Mode != 0o755 || len(f.Data) == 0 {
		t.Fatalf("the binary in the image: mode %o, %d bytes", f.Mode, len(f.Data))
	}
	if !strings.Contains(string(img.Files["/etc/passwd"].Data), "muster:x:65532:65532") {
		t.Fatalf("/etc/passwd: %q", img.Files["/etc/passwd"].Data)
	}
	// The root file system, as a runtime would make it: by umoci where it
	// is installed, else from the layer read above.
	root := filepath.Join(dir, "rootfs")
	if umoci, err := exec.LookPath("umoci"); err == nil {
		bundle := filepath.Join(dir, "bundle")
		args := []string{"unpack", "--image", layout + ":muster:latest", bundle}
		if os.Geteuid() != 0 {
			args = append([]string{"--rootless"}, args...)
		}
		if out, err := exec.Command(umoci, args...).CombinedOutput(); err != nil {
			t.Fatalf("umoci unpack: %v: %s", err, out)
		}
		root = filepath.Join(bundle, "rootfs")
	} else {
		if required() {
			t.Fatal("umoci is required (MUSTER_REQUIRE_DEPLOY=1)")
		}
		for p, f := range img.Files {
			os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
			os.WriteFile(filepath.Join(root, p), f.Data, os.FileMode(f.Mode))
		}
		// The volume as the image has it: its user's to write (MkdirAll's
		// mode is cut by the umask, and the server runs as that user).
		data := filepath.Join(root, "data")
		os.MkdirAll(data, 0o755)
		if d := img.Dirs["/data"]; os.Geteuid() == 0 {
			os.Chown(data, d.Uid, d.Gid)
		}
	}
	if out, err := exec.Command(filepath.Join(root, "usr/local/bin/muster"), "version").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "muster ") {
		t.Fatalf("the image's muster version: %v: %s", err, out)
	}
	// Serve, as the image runs it.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	env := append([]string{"MUSTER_ADDR=" + addr}, c.Env[1:]...) // the image's, but the address
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		// As the image's user, in its root: what a runtime does.
		cmd = exec.Command(tool(t, "chroot"), "--userspec="+c.User, root, c.Entrypoint[0], c.Cmd[0])
	} else {
		for i, e := range env {
			env[i] = strings.ReplaceAll(e, "=/data", "="+filepath.Join(root, "data"))
		}
		cmd = exec.Command(filepath.Join(root, "usr/local/bin/muster"), c.Cmd...)
	}
	cmd.Env = env
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		res, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
			t.Logf("readyz: %d %s", res.StatusCode, body)
		}
		if ctx.Err() != nil {
			t.Fatalf("the image's server never got ready: %v\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if fi, err := os.Stat(filepath.Join(root, "data", "muster.db")); err != nil {
		t.Fatalf("the database is not in the volume: %v\n%s", err, logs.String())
	} else if os.Geteuid() == 0 {
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != 65532 || st.Gid != 65532 {
			t.Errorf("the database's owner: %+v, want the image's user", fi.Sys())
		}
	}
}

// TestCompose (the public site's issue, item 9): Docker Compose's own
// parser (docker-compose config, which checks a file against Compose's
// schema without a container engine) takes compose.yaml; the file runs
// the server behind PostgreSQL, each with a health check, the server
// once the database is healthy, both keeping their data in volumes, the
// site published on the loopback alone; it refuses to start without the
// database's password; and the parser refuses a misspelt key, so that
// this test can fail.
func TestCompose(t *testing.T) {
	compose := tool(t, "docker-compose")
	config := func(file string, env ...string) (string, error) {
		cmd := exec.Command(compose, "--project-directory", t.TempDir(), "-f", file, "config")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := config("compose.yaml", "MUSTER_DB_PASSWORD=pw")
	if err != nil {
		t.Fatalf("docker-compose config: %v\n%s", err, out)
	}
	for _, want := range []string{
		"condition: service_healthy", "- pg_isready", "- /usr/local/bin/muster\n      - healthcheck",
		"MUSTER_DB: postgres://muster@db/muster", "PGPASSWORD: pw", "POSTGRES_PASSWORD: pw",
		"127.0.0.1:8080:8080/tcp", "- data:/data:rw", "- db:/var/lib/postgresql/data:rw", "stop_grace_period: 30s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Compose file as its parser reads it lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "0.0.0.0:8080") || strings.Contains(out, "- 8080:8080") {
		t.Errorf("the site is published beyond the loopback:\n%s", out)
	}
	if out, err := config("compose.yaml", "MUSTER_DB_PASSWORD="); err == nil || !strings.Contains(out, "MUSTER_DB_PASSWORD") {
		t.Errorf("without the password: %v\n%s", err, out)
	}
	b, _ := os.ReadFile("compose.yaml")
	bad := filepath.Join(t.TempDir(), "compose.yaml")
	os.WriteFile(bad, bytes.Replace(b, []byte("      test: [\"CMD\", \"pg_isready\""), []byte("      tset: [\"CMD\", \"pg_isready\""), 1), 0o600)
	if out, err := config(bad, "MUSTER_DB_PASSWORD=pw"); err == nil || !strings.Contains(out, "tset") {
		t.Errorf("a misspelt key: %v\n%s", err, out)
	}
}
