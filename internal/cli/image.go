package cli

import (
	"debug/elf"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/muster-games/muster/internal/ociimage"
	"github.com/muster-games/muster/internal/version"
)

const imageHelp = `Writes a container image of this muster binary as an OCI image layout (a
folder), without a container engine: one layer with the binary at
/usr/local/bin/muster, the machine's TLS roots (for Let's Encrypt), a user that
is not root (muster, 65532) and the volume /data it owns; the image runs
"muster serve" on :8080 with its database and data in /data. The binary must be
static:

  CGO_ENABLED=0 go build -trimpath -buildvcs=true -o muster ./cmd/muster
  ./muster image --out muster-image
  skopeo copy oci:muster-image docker://registry.example.org/muster:1   # to a registry
  tar -C muster-image -cf muster-image.tar . && docker load -i muster-image.tar

The Dockerfile at the repository's root builds the same image with an engine.`

func runImage(env *Env, args []string) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	out := fs.String("out", "muster-image", "the folder to write the layout into (new, or empty)")
	ref := fs.String("tag", "muster:latest", "the image's name in the layout")
	roots := fs.String("tls-roots", "/etc/ssl/certs/ca-certificates.crt", "the TLS root certificates to put in the image (\"\": none, and no Let's Encrypt)")
	pos, err := flags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return fmt.Errorf("%w: unexpected arguments %v", errUsage, pos)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if err := static(self); err != nil {
		return err
	}
	bin, err := os.ReadFile(self)
	if err != nil {
		return err
	}
	files := []ociimage.File{{Path: "/usr/local/bin/muster", Data: bin, Mode: 0o755}}
	if *roots != "" {
		pem, err := os.ReadFile(*roots)
		if err != nil {
			return fmt.Errorf("--tls-roots: %w", err)
		}
		files = append(files, ociimage.File{Path: "/etc/ssl/certs/ca-certificates.crt", Data: pem})
	}
	b := version.Read()
	created := time.Unix(0, 0)
	if t, err := time.Parse(time.RFC3339, b.Time); err == nil {
		created = t
	}
	digest, err := ociimage.Write(*out, ociimage.Spec{
		Files: files, Dirs: []string{"/data"}, UID: 65532, GID: 65532, Name: "muster",
		Entrypoint: []string{"/usr/local/bin/muster"}, Cmd: []string{"serve"},
		Env:        []string{"MUSTER_ADDR=:8080", "MUSTER_DB=/data/muster.db", "MUSTER_DATA=/data", "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"},
		WorkingDir: "/data", Volumes: []string{"/data"}, Ports: []string{"8080/tcp"},
		Labels: map[string]string{"org.opencontainers.image.title": "Muster", "org.opencontainers.image.version": b.Version,
			"org.opencontainers.image.revision": b.Commit, "org.opencontainers.image.source": "https://github.com/muster-games/muster"},
		Arch: runtime.GOARCH, Created: created, Ref: *ref,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "wrote %s (%s) to %s: %s\n", *ref, b, *out, digest)
	return nil
}

// static checks that a binary needs no C library (built with
// CGO_ENABLED=0): the image holds nothing else.
func static(file string) error {
	f, err := elf.Open(file)
	if err != nil {
		return fmt.Errorf("muster image: %w (the image is of a Linux binary)", err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return errors.New("this muster binary needs the C library: build it with CGO_ENABLED=0 for the image")
		}
	}
	return nil
}
